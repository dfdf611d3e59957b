/**
 * `packetpath serve` as a client sees it: authentication (401 as kube-apiserver answers), the
 * official JavaScript client listing, creating and watching, the cluster shared with `packetpath
 * exec` through the state file, the request limits, the server stopping with its parent, and a
 * fuzz of paths, methods and bodies that must only ever get Status answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:https';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { createCluster, Rng } from '../../../src/engine/index.ts';
import { ClusterHost } from '../../../src/runtime/node-cli/serve/cluster-host.ts';
import { createPki, kubeconfigYaml, type Pki } from '../../../src/runtime/node-cli/serve/pki.ts';
import {
  startServer,
  MAX_BODY_BYTES,
  type RunningServer,
} from '../../../src/runtime/node-cli/serve/server.ts';
import { extractKubectl } from '../../../scripts/extract-kubectl.mjs';

const ROOT = resolve(import.meta.dirname, '../../..');
const NODE = existsSync(join(ROOT, 'node_modules/.bin/node'))
  ? join(ROOT, 'node_modules/.bin/node')
  : process.execPath;
const BIN = join(ROOT, 'bin/packetpath.mjs');

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

function call(
  server: RunningServer,
  pki: Pki,
  opts: {
    path: string;
    method?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
    auth?: 'cert' | 'none' | 'token' | 'bad-token';
  },
): Promise<Answer> {
  const auth = opts.auth ?? 'cert';
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: opts.path,
        method: opts.method ?? 'GET',
        ca: pki.caPem,
        ...(auth === 'cert' ? { cert: pki.clientCertPem, key: pki.clientKeyPem } : {}),
        headers: {
          ...(auth === 'token' ? { authorization: `Bearer ${pki.token}` } : {}),
          ...(auth === 'bad-token' ? { authorization: 'Bearer nope' } : {}),
          ...opts.headers,
        },
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (t: string) => (body += t));
        res.on('end', () => done({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', fail);
    req.on('timeout', () => req.destroy(new Error(`timeout: ${opts.method ?? 'GET'} ${opts.path}`)));
    req.end(opts.body);
  });
}

describe('packetpath serve', { timeout: 120_000 }, () => {
  let pki: Pki;
  let server: RunningServer;
  let kubeconfig: string;
  const dir = mkdtempSync(join(tmpdir(), 'packetpath-serve-'));

  beforeAll(async () => {
    pki = await createPki();
    const host = new ClusterHost(createCluster(), { clock: 'wall' });
    server = await startServer({ host, pki, clock: 'wall' });
    kubeconfig = kubeconfigYaml(pki, server.url);
  });
  afterAll(() => server.close());

  it('answers a request without valid credentials with 401 Unauthorized, as kube-apiserver does', async () => {
    for (const auth of ['none', 'bad-token'] as const) {
      const r = await call(server, pki, { path: '/api/v1/pods', auth });
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body)).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
    }
    expect((await call(server, pki, { path: '/api/v1/pods', auth: 'token' })).status).toBe(200);
    // The real kubectl words it itself.
    const kubectl = extractKubectl() as string;
    const caFile = join(dir, 'ca.crt');
    writeFileSync(caFile, pki.caPem);
    // Asynchronous: the server answers on this process's event loop.
    const r = await new Promise<{ stderr: string; code: number | null }>((done) => {
      const child = spawn(
        kubectl,
        ['--server', server.url, '--certificate-authority', caFile, '--token', 'wrong', 'get', 'pods'],
        {
          env: { HOME: dir, PATH: '/usr/bin:/bin', KUBECONFIG: '/nonexistent' },
        },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
      child.on('close', (code) => done({ stderr, code }));
    });
    // Before it, client-go logs the refused discovery (memcache.go), as against any API server.
    // client-go turns the 401 during discovery into its own ErrUnauthorized text.
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      'error: You must be logged in to the server (the server has asked for the client to provide credentials)',
    );
    expect(r.code).toBe(1);
  });

  it('@kubernetes/client-node lists, creates and watches through it', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const pods = await core.listNamespacedPod({ namespace: 'kube-system' });
    expect(pods.items.map((p) => p.metadata?.name)).toContain('etcd-kind-control-plane');
    const seen: string[] = [];
    const watch = new Watch(kc);
    let sawIt: () => void = () => undefined;
    const saw = new Promise<void>((r) => (sawIt = r));
    const abort = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      {},
      (type: string, obj: { metadata?: { name?: string } }) => {
        seen.push(`${type} ${obj.metadata?.name}`);
        if (obj.metadata?.name === 'from-client-node') sawIt();
      },
      () => undefined,
    );
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'from-client-node' }, data: { a: '1' } },
    });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    await saw;
    abort.abort();
    expect(seen).toContain('ADDED from-client-node');
    await expect(core.readNamespacedConfigMap({ namespace: 'default', name: 'nope' })).rejects.toMatchObject({
      code: 404,
    });
  });

  it('limits request bodies to 3 MiB with 413', async () => {
    const r = await call(server, pki, {
      path: '/api/v1/namespaces/default/configmaps',
      method: 'POST',
      body: Buffer.alloc(MAX_BODY_BYTES + 10, 0x20),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
  });

  it('answers a fuzz of paths, methods, media types and bodies only with Status objects or documents', async () => {
    const rng = new Rng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)]!;
    const segs = [
      'api',
      'apis',
      'v1',
      'apps',
      'namespaces',
      'default',
      'pods',
      'deployments',
      'x',
      '',
      '..',
      '%2e%2e',
      '%00',
      'status',
      'scale',
      'log',
      'openapi',
      'v3',
      'version',
      '%F0%9F%99%82',
      '%zz',
      'a'.repeat(300),
      'kube-system',
      'services',
      'watch',
    ];
    const bodies = [
      '',
      '{',
      'null',
      '[]',
      '{"kind":"Pod"}',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"f"}}',
      '{"metadata":{"name":"' + 'a'.repeat(300) + '"}}',
      'k8s\u0000garbage',
      '{"spec":{"replicas":"x"}}',
      '[{"op":"remove","path":"/x"}]',
      '{"a":'.repeat(200),
    ];
    const types = [
      'application/json',
      'application/yaml',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/json-patch+json',
      'application/apply-patch+yaml',
      'application/vnd.kubernetes.protobuf',
      'text/plain',
    ];
    for (let i = 0; i < 300; i++) {
      const path =
        '/' +
        Array.from({ length: 1 + Math.floor(rng.next() * 6) }, () => pick(segs)).join('/') +
        pick([
          '',
          '?watch=x',
          '?labelSelector=a%3D%3D%3Db',
          '?fieldSelector=spec.x%3Dy',
          '?timeoutSeconds=-1',
          '?resourceVersion=abc&watch=1',
        ]);
      const r = await call(server, pki, {
        path,
        method: pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']),
        body: pick(bodies),
        headers: { 'content-type': pick(types) },
      });
      expect(r.status, path).toBeGreaterThanOrEqual(200);
      if (r.status >= 400 && r.body !== '') {
        const status = JSON.parse(r.body) as { kind: string; code: number };
        expect(status.kind, `${path}: ${r.body}`).toBe('Status');
        expect(status.code).toBe(r.status);
      }
      if (r.status === 500) throw new Error(`internal error for ${path}: ${r.body}`);
    }
    expect((await call(server, pki, { path: '/version' })).status).toBe(200);
  });
});

describe('packetpath serve as a command', { timeout: 120_000 }, () => {
  it('shares the cluster with packetpath exec through --state, and stops with its parent', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'packetpath-serve-cli-'));
    const kubectl = extractKubectl() as string;
    // bash starts serve in the background and waits: when bash is killed, serve must go too.
    const parent = spawn(
      'bash',
      ['-c', `${NODE} ${BIN} serve --state st.json --kubeconfig kc & echo $! > serve.pid; wait`],
      { cwd, stdio: 'ignore' },
    );
    const started = Date.now();
    while (!existsSync(join(cwd, 'kc')) && Date.now() - started < 60_000)
      await new Promise((r) => setTimeout(r, 100));
    const real = (...args: string[]) =>
      spawnSync(kubectl, ['--kubeconfig', join(cwd, 'kc'), ...args], {
        encoding: 'utf8',
        env: { HOME: cwd, PATH: '/usr/bin:/bin' },
      });
    const exec = (line: string) =>
      spawnSync(NODE, [BIN, 'exec', '--state', 'st.json', '--', line], { cwd, encoding: 'utf8' });
    expect(exec('kubectl create deployment from-exec --image=nginx').stdout).toBe(
      'deployment.apps/from-exec created\n',
    );
    expect(real('get', 'deploy', 'from-exec', '-o', 'name').stdout).toBe('deployment.apps/from-exec\n');
    expect(real('create', 'configmap', 'from-real', '--from-literal=a=1').stdout).toBe(
      'configmap/from-real created\n',
    );
    expect(exec('kubectl get configmap from-real -o name').stdout).toBe('configmap/from-real\n');
    const pid = Number(readFileSync(join(cwd, 'serve.pid'), 'utf8'));
    parent.kill('SIGKILL');
    const gone = Date.now();
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive() && Date.now() - gone < 10_000) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  });
});
