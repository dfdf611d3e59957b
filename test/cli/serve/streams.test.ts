/**
 * Streams through `packetpath serve` with the real kubectl v1.35: `kubectl logs -f` sends what a
 * container logs after the request began, ends on its own when the container exits, and ends
 * cleanly when the person following it stops kubectl (the server forgets the stream).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createCluster } from '../../../src/engine/index.ts';
import { startDifferential, type Differential } from './harness.ts';

describe('kubectl logs -f and attach against serve', { timeout: 120_000 }, () => {
  let d: Differential;
  beforeAll(async () => {
    d = await startDifferential(createCluster(undefined, { seed: 1 }));
  });
  afterAll(() => d.close());

  it('follows a container until it exits', async () => {
    await d.real(
      `kubectl run once --image=busybox --restart=Never -- sh -c 'echo a; sleep 5; echo b; sleep 5; echo c'`,
    );
    await d.real('kubectl wait --for=condition=Ready pod/once --timeout=60s');
    const r = await d.real('kubectl logs -f once');
    expect(r).toEqual({ stdout: 'a\nb\nc\n', stderr: '', exitCode: 0 });
    expect((await d.real('kubectl get pod once -o jsonpath={.status.phase}')).stdout).toBe('Succeeded');
  });

  it('sends lines logged after it started, and ends when kubectl is stopped', async () => {
    await d.real(
      `kubectl run forever --image=busybox --restart=Never -- sh -c 'echo first; sleep 5; echo later; sleep 3600'`,
    );
    await d.real('kubectl wait --for=condition=Ready pod/forever --timeout=60s');
    const child = spawn('kubectl', ['logs', '-f', 'forever'], { env: d.env, cwd: d.dir });
    let out = '';
    const chunks: string[] = [];
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      out += t;
      chunks.push(t);
    });
    await new Promise<void>((done, fail) => {
      const t = setTimeout(() => fail(new Error(`no "later" line; got ${JSON.stringify(out)}`)), 30_000);
      child.stdout.on('data', () => {
        if (out.includes('later\n')) {
          clearTimeout(t);
          done();
        }
      });
    });
    // The second line came in its own chunk, after the first: it was streamed, not read at the end.
    expect(chunks[0]).toBe('first\n');
    expect(out).toBe('first\nlater\n');
    const code = await new Promise<number | null>((done) => {
      child.on('close', (c, signal) => done(c ?? (signal ? 130 : null)));
      child.kill('SIGINT');
    });
    expect(code).not.toBeNull();
    // The server is still answering, and the pod still runs (stopping a follow changes nothing).
    expect((await d.real('kubectl get pod forever -o jsonpath={.status.phase}')).stdout).toBe('Running');
  });

  it('ends when the followed pod is deleted', async () => {
    const follow = d.real('kubectl logs -f forever');
    await new Promise((r) => setTimeout(r, 1500));
    await d.real('kubectl delete pod forever --wait=false');
    const r = await follow;
    expect(r.stdout).toBe('first\nlater\n');
    expect(r.exitCode).toBe(0);
  });

  it('attach shows what the container prints from then on, and ends when it exits', async () => {
    await d.real(
      `kubectl run talk --image=busybox --restart=Never -- sh -c 'echo before; sleep 5; echo during; sleep 5; echo end'`,
    );
    await d.real('kubectl wait --for=condition=Ready pod/talk --timeout=60s');
    const r = await d.real('kubectl attach talk');
    // "before" was printed before the attach: it is in the log, not on the attached stream.
    expect(r.stdout).toBe('during\nend\n');
    expect(r.exitCode).toBe(0);
    expect((await d.real('kubectl logs talk')).stdout).toBe('before\nduring\nend\n');
  });

  it('attach -i is refused in words kubectl prints, since no simulated process reads stdin', async () => {
    await d.real(`kubectl run quiet --image=busybox --restart=Never -- sleep 3600`);
    await d.real('kubectl wait --for=condition=Ready pod/quiet --timeout=60s');
    const r = await d.real('kubectl attach -i quiet < /dev/null');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('attaching stdin is not supported by this server');
  });
});
