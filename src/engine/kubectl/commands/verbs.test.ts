/**
 * The write and workflow verbs. Expected texts come from kubectl's sources (pkg/cmd/delete PrintObj,
 * label's overwrite error, the deployment status viewer, port-forward's listener lines, exec's
 * errors) as quoted in the comments, and from the brief's quotes of real output.
 */
import { describe, expect, it } from 'vitest';
import type { AnyObject, Deployment, Pod } from '../../api/objects.ts';
import type { CommandHandler } from '../../shell/types.ts';
import { deepClone } from '../../util/json.ts';
import { makeKubectl, type TestKubectl } from '../test-helpers.ts';

function runningPod(
  k: TestKubectl,
  name: string,
  labels: Record<string, string> = { app: 'web' },
  containers = ['web'],
  extra: Partial<Pod['spec']> = {},
): AnyObject {
  return k.put({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: {
      containers: containers.map((c) => ({
        name: c,
        image: 'nginx',
        ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }],
      })),
      nodeName: 'kind-worker',
      ...extra,
    },
    status: {
      phase: 'Running',
      podIP: '10.244.1.5',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: containers.map((c) => ({
        name: c,
        ready: true,
        restartCount: 0,
        image: 'nginx',
        imageID: '',
        state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
      })),
    },
  });
}

describe('kubectl delete', () => {
  it('prints the v1.34+ line naming the namespace, and cluster-scoped objects without it', () => {
    const k = makeKubectl();
    k.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' } });
    expect(k.run('delete cm cfg')).toEqual({
      stdout: 'configmap "cfg" deleted from default namespace\n',
      stderr: '',
      exitCode: 0,
    });
    k.run('create ns team-a');
    expect(k.run('delete ns team-a').stdout).toBe('namespace "team-a" deleted\n');
  });

  it('waits for a graceful pod deletion to finish on the simulated clock', () => {
    // Stand-in for the kubelet: the pod goes once its grace period is over.
    const k = makeKubectl({
      onTick: (now, store) => {
        const p = store.get('pods', 'default', 'web');
        if (p?.metadata.deletionTimestamp && Date.parse(p.metadata.deletionTimestamp) <= now)
          store.delete('pods', 'default', 'web');
      },
    });
    runningPod(k, 'web');
    const before = k.host.clock.now();
    expect(k.run('delete pod web').stdout).toBe('pod "web" deleted from default namespace\n');
    expect(k.host.store.get('pods', 'default', 'web')).toBeUndefined();
    expect(k.host.clock.now() - before).toBe(30_000);
    runningPod(k, 'web');
    expect(k.run('delete pod web --wait=false').stdout).toBe('pod "web" deleted from default namespace\n');
    expect(k.host.store.get('pods', 'default', 'web')?.metadata.deletionTimestamp).toBeDefined();
  });

  it('--force --grace-period=0 warns and deletes at once', () => {
    const k = makeKubectl();
    runningPod(k, 'web');
    const warning =
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n';
    expect(k.run('delete pod web --force --grace-period=0')).toEqual({
      stdout: 'pod "web" force deleted from default namespace\n',
      stderr: warning,
      output: [
        { stream: 'stderr', text: warning },
        { stream: 'stdout', text: 'pod "web" force deleted from default namespace\n' },
      ],
      exitCode: 0,
    });
    expect(k.host.store.get('pods', 'default', 'web')).toBeUndefined();
  });

  it('by label, --all, missing names, TYPE without a name', () => {
    const k = makeKubectl();
    for (const n of ['a', 'b'])
      k.put({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: n, namespace: 'default', labels: { x: n } },
      });
    expect(k.run('delete cm -l x=a').stdout).toBe('configmap "a" deleted from default namespace\n');
    expect(k.run('delete cm -l x=zzz').stdout).toBe('No resources found\n');
    expect(k.run('delete cm nope').stderr).toBe(
      'Error from server (NotFound): configmaps "nope" not found\n',
    );
    expect(k.run('delete cm').stderr).toBe('error: resource(s) were provided, but no name was specified\n');
    expect(k.run('delete cm --all').stdout).toBe('configmap "b" deleted from default namespace\n');
  });
});

describe('kubectl label / annotate', () => {
  it('adds, refuses to overwrite without --overwrite, overwrites, removes', () => {
    const k = makeKubectl();
    runningPod(k, 'web');
    expect(k.run('label pod web tier=fe').stdout).toBe('pod/web labeled\n');
    expect(k.run('label pod web app=api')).toEqual({
      stdout: '',
      stderr: "error: 'app' already has a value (web), and --overwrite is false\n",
      exitCode: 1,
    });
    expect(k.run('label pod web app=api --overwrite').stdout).toBe('pod/web labeled\n');
    expect(k.run('label pod web tier-').stdout).toBe('pod/web unlabeled\n');
    expect(k.run('label pod web app=api').stdout).toBe('pod/web not labeled\n');
    expect(k.host.store.get('pods', 'default', 'web')?.metadata.labels).toEqual({ app: 'api' });
    expect(k.run('annotate pod web note=hello').stdout).toBe('pod/web annotated\n');
    expect(k.host.store.get('pods', 'default', 'web')?.metadata.annotations).toEqual({ note: 'hello' });
  });
});

describe('kubectl scale / expose / rollout', () => {
  it('scale prints deployment.apps/web scaled and checks --current-replicas', () => {
    const k = makeKubectl();
    k.run('create deployment web --image=nginx --replicas=2');
    expect(k.run('scale deployment/web --replicas=3').stdout).toBe('deployment.apps/web scaled\n');
    expect(k.host.store.get('deployments.apps', 'default', 'web')?.spec?.replicas).toBe(3);
    expect(k.run('scale deploy web --current-replicas=2 --replicas=1').stderr).toBe(
      'error: Expected replicas to be 2, was 3\n',
    );
  });

  it('expose takes the selector and ports from the deployment', () => {
    const k = makeKubectl();
    k.run('create deployment web --image=nginx --port=8080');
    expect(k.run('expose deployment web --port=80 --target-port=8080 --type=NodePort').stdout).toBe(
      'service/web exposed\n',
    );
    const svc = k.host.store.get('services', 'default', 'web')!;
    expect(svc.spec?.selector).toEqual({ app: 'web' });
    expect(svc.spec?.ports?.[0]).toMatchObject({ port: 80, targetPort: 8080, protocol: 'TCP' });
    expect(svc.spec?.type).toBe('NodePort');
    expect(k.run('expose deployment web --name=web2').stdout).toBe('service/web2 exposed\n');
    expect(k.host.store.get('services', 'default', 'web2')?.spec?.ports?.[0]).toMatchObject({
      port: 8080,
      targetPort: 8080,
    });
  });

  it('rollout status prints each new status line until the rollout is done', () => {
    let step = 0;
    const k = makeKubectl({
      onTick: (_now, store) => {
        const d = store.get('deployments.apps', 'default', 'web');
        if (!d) return;
        step++;
        const next = deepClone(d) as { -readonly [K in keyof Deployment]: Deployment[K] };
        const available = Math.min(3, Math.floor(step / 2));
        next.status = {
          observedGeneration: d.metadata.generation,
          replicas: 3,
          updatedReplicas: 3,
          readyReplicas: available,
          availableReplicas: available,
        };
        store.update('deployments.apps', next as unknown as AnyObject);
      },
    });
    k.run('create deployment web --image=nginx --replicas=3');
    const r = k.run('rollout status deployment/web');
    expect(r.stdout).toBe(
      [
        'Waiting for deployment spec update to be observed...',
        'Waiting for deployment "web" rollout to finish: 0 of 3 updated replicas are available...',
        'Waiting for deployment "web" rollout to finish: 1 of 3 updated replicas are available...',
        'Waiting for deployment "web" rollout to finish: 2 of 3 updated replicas are available...',
        'deployment "web" successfully rolled out',
        '',
      ].join('\n'),
    );
  });

  it('rollout restart stamps the template and history lists revisions', () => {
    const k = makeKubectl();
    k.run('create deployment web --image=nginx');
    expect(k.run('rollout restart deployment web').stdout).toBe('deployment.apps/web restarted\n');
    const d = k.host.store.get('deployments.apps', 'default', 'web')!;
    expect(d.spec?.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toBe(
      '2026-01-01T00:00:00Z',
    );
    expect(k.run('rollout history deployment/web').stdout).toBe(
      'deployment.apps/web \nNo rollout history found.\n',
    );
    expect(k.run('rollout undo deployment/web').stderr).toBe(
      'error: no rollout history found for deployment "web"\n',
    );
  });
});

describe('kubectl exec / logs / run / port-forward', () => {
  const echoTool: CommandHandler = (argv, io) => ({
    stdout: `${argv.slice(1).join(' ')} [${io.context.kind === 'pod' ? `${io.context.pod}/${io.context.container}` : io.context.kind}]\n`,
    stderr: '',
    exitCode: argv.includes('fail') ? 7 : 0,
  });
  // A fake image with a shell and echo, as nginx's Debian userland has.
  const hooks = {
    resolveCommand: (name: string) => (name === 'echo' || name === 'sh' ? echoTool : undefined),
  };

  it('runs the command in the container through the resolver', () => {
    const k = makeKubectl({ hooks });
    runningPod(k, 'web');
    expect(k.run('exec web -- echo hi')).toEqual({ stdout: 'hi [web/web]\n', stderr: '', exitCode: 0 });
    expect(k.run('exec web -- echo fail')).toEqual({
      stdout: 'fail [web/web]\n',
      stderr: 'command terminated with exit code 7\n',
      exitCode: 7,
    });
    expect(k.run('exec web ls').stderr).toBe(
      "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples\n",
    );
    expect(k.run('exec web -- curl x').stderr).toMatch(
      /^error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "curl": executable file not found in \$PATH: unknown\n$/,
    );
    // pod strategy validateContainer refuses a name the spec does not have; the kubelet's answer is
    // for one it has that is not running (here an init container that has finished).
    expect(k.run('exec web -c nope -- echo')).toEqual({
      stdout: '',
      stderr: 'Error from server (BadRequest): container nope is not valid for pod web\n',
      exitCode: 1,
    });
    runningPod(k, 'init', {}, ['web'], { initContainers: [{ name: 'setup', image: 'busybox' }] });
    expect(k.run('exec init -c setup -- echo').stderr).toBe(
      'error: unable to upgrade connection: container not found ("setup")\n',
    );
    expect(k.run('exec nope -- echo').stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
  });

  it('defaults the container with a notice when there are several, and -it opens a session', () => {
    const k = makeKubectl({ hooks });
    runningPod(k, 'two', {}, ['a', 'b']);
    expect(k.run('exec two -- echo x').stderr).toBe('Defaulted container "a" out of: a, b\n');
    // -q/--quiet: "Only print output from the remote session" (no notice, no TTY warning).
    expect(k.run('exec -q two -- echo x').stderr).toBe('');
    expect(k.run('exec -q -it two -- echo x').stderr).toBe('');
    const r = k.run('exec -it two -c b -- sh', { interactive: true });
    expect(r.enter).toEqual({ kind: 'pod', namespace: 'default', pod: 'two', container: 'b' });
    expect(r.exitCode).toBe(0);
  });

  it('logs from the hook, --tail, unknown containers', () => {
    const k = makeKubectl({ hooks: { containerLogs: () => 'one\ntwo\nthree\n' } });
    runningPod(k, 'web');
    expect(k.run('logs web').stdout).toBe('one\ntwo\nthree\n');
    expect(k.run('logs web --tail=1').stdout).toBe('three\n');
    expect(k.run('logs web -c x').stderr).toBe('error: container x is not valid for pod web\n');
    runningPod(k, 'web-2');
    k.run('create deployment web --image=nginx');
    expect(k.run('logs deploy/web').stderr).toBe('Found 2 pods, using pod/web\n');
  });

  it('logs -l prints every matching pod (logs.go with a selector), or says none matched', () => {
    const k = makeKubectl({ hooks: { containerLogs: (pod) => `from ${pod.metadata.name}\n` } });
    runningPod(k, 'web-b', { app: 'web' });
    runningPod(k, 'web-a', { app: 'web' });
    runningPod(k, 'db', { app: 'db' });
    expect(k.run('logs -l app=web')).toEqual({ stdout: 'from web-a\nfrom web-b\n', stderr: '', exitCode: 0 });
    expect(k.run('logs -l app=web --prefix').stdout).toBe(
      '[pod/web-a/web] from web-a\n[pod/web-b/web] from web-b\n',
    );
    expect(k.run('logs -l app=none')).toEqual({
      stdout: '',
      stderr: 'No resources found in default namespace.\n',
      exitCode: 0,
    });
  });

  it('run creates the pod labelled run=NAME', () => {
    const k = makeKubectl();
    expect(k.run('run web --image=nginx --port=80').stdout).toBe('pod/web created\n');
    const p = k.host.store.get('pods', 'default', 'web')!;
    expect(p.metadata.labels).toEqual({ run: 'web' });
    expect(p.spec?.containers[0]).toMatchObject({
      name: 'web',
      image: 'nginx',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
    });
    expect(p.spec?.restartPolicy).toBe('Always');
    expect(
      k.run('run web2 --image=busybox --restart=Never --dry-run=client -o yaml -- sleep 3600').stdout,
    ).toBe(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    run: web2\n  name: web2\nspec:\n  containers:\n  - args:\n    - sleep\n    - "3600"\n    image: busybox\n    name: web2\n    resources: {}\n  dnsPolicy: ClusterFirst\n  restartPolicy: Never\nstatus: {}\n',
    );
  });

  it('run -i --rm waits for the pod, shows its output until it exits, deletes the pod', () => {
    // Stand-in for the kubelet: the pod starts, then its main process (`echo hi`) exits.
    const k = makeKubectl({
      hooks: { containerLogs: () => 'hi\n' },
      onTick: (_now, store) => {
        const p = store.get('pods', 'default', 't');
        if (!p || p.status?.phase === 'Succeeded') return;
        const next = deepClone(p) as { -readonly [K in keyof Pod]: Pod[K] };
        next.status =
          p.status?.phase === 'Running'
            ? {
                phase: 'Succeeded',
                containerStatuses: [
                  {
                    name: 't',
                    ready: false,
                    restartCount: 0,
                    image: 'busybox',
                    imageID: '',
                    state: { terminated: { exitCode: 0, reason: 'Completed' } },
                  },
                ],
              }
            : {
                phase: 'Running',
                containerStatuses: [
                  {
                    name: 't',
                    ready: true,
                    restartCount: 0,
                    image: 'busybox',
                    imageID: '',
                    state: { running: {} },
                  },
                ],
              };
        store.update('pods', next as unknown as AnyObject);
      },
    });
    const r = k.run('run t --image=busybox -i --rm --restart=Never -- echo hi');
    expect(r).toEqual({ stdout: 'hi\npod "t" deleted from default namespace\n', stderr: '', exitCode: 0 });
    // Not bound to a node, so the API server removes it at once.
    expect(k.host.store.get('pods', 'default', 't')).toBeUndefined();
  });

  it('run -it at an interactive prompt opens a session in the new pod', () => {
    const k = makeKubectl({
      onTick: (_now, store) => {
        const p = store.get('pods', 'default', 'sh');
        if (!p || p.status?.phase === 'Running') return;
        const next = deepClone(p) as { -readonly [K in keyof Pod]: Pod[K] };
        next.status = { phase: 'Running' };
        store.update('pods', next as unknown as AnyObject);
      },
    });
    const r = k.run('run sh --image=busybox -it --rm --restart=Never -- sh', { interactive: true });
    expect(r.stderr).toBe(
      'All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\n' +
        "If you don't see a command prompt, try pressing enter.\n",
    );
    expect(r.enter).toMatchObject({ kind: 'pod', namespace: 'default', pod: 'sh', container: 'sh' });
  });

  it('port-forward registers a forward to one pod, translating the Service port', () => {
    const k = makeKubectl();
    runningPod(k, 'web-1');
    k.put({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }] },
    });
    expect(k.run('port-forward svc/web 8080:80')).toEqual({
      stdout: 'Forwarding from 127.0.0.1:8080 -> 80\nForwarding from [::1]:8080 -> 80\n',
      stderr: '',
      exitCode: 0,
    });
    expect(k.host.hostForwards.active()).toEqual([
      { addresses: ['127.0.0.1', '::1'], localPort: 8080, namespace: 'default', pod: 'web-1', podPort: 80 },
    ]);
    const again = k.run('port-forward pod/web-1 8080:80');
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('error: unable to listen on any of the requested ports: [{8080 80}]\n');
  });
});

describe('informational commands', () => {
  it.each([
    ['version', 'Client Version: v1.35.0\nKustomize Version: v5.7.1\nServer Version: v1.35.0\n'],
    ['version --client', 'Client Version: v1.35.0\nKustomize Version: v5.7.1\n'],
    ['config current-context', 'kind-kind\n'],
    [
      'config get-contexts',
      'CURRENT   NAME        CLUSTER     AUTHINFO    NAMESPACE\n*         kind-kind   kind-kind   kind-kind   \n',
    ],
    ['auth can-i create pods', 'yes\n'],
    [
      'api-versions',
      'apps/v1\ndiscovery.k8s.io/v1\ngateway.networking.k8s.io/v1\ngateway.networking.k8s.io/v1beta1\nmetallb.io/v1beta1\nnetworking.k8s.io/v1\nv1\n',
    ],
  ])('kubectl %s', (line, stdout) => {
    expect(makeKubectl().run(line)).toEqual({ stdout, stderr: '', exitCode: 0 });
  });

  it('cluster-info lists the cluster services', () => {
    const k = makeKubectl();
    k.put({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kube-dns',
        namespace: 'kube-system',
        labels: {
          'k8s-app': 'kube-dns',
          'kubernetes.io/cluster-service': 'true',
          'kubernetes.io/name': 'CoreDNS',
        },
      },
      spec: { ports: [{ name: 'dns', port: 53, protocol: 'UDP' }] },
    });
    expect(k.run('cluster-info').stdout).toBe(
      "Kubernetes control plane is running at https://127.0.0.1:6443\nCoreDNS is running at https://127.0.0.1:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
    );
  });

  it('top without metrics-server', () => {
    expect(makeKubectl().run('top pods')).toEqual({
      stdout: '',
      stderr: 'error: Metrics API not available\n',
      exitCode: 1,
    });
  });

  it('debug node creates node-debugger-<node>-xxxxx and opens a session in its debugger container', () => {
    const k = makeKubectl({
      onTick: (_now, store) => {
        for (const p of store.list('pods', 'default')) {
          if (p.status?.phase === 'Running') continue;
          const next = deepClone(p) as { -readonly [K in keyof Pod]: Pod[K] };
          next.status = { phase: 'Running' };
          store.update('pods', next as unknown as AnyObject);
        }
      },
    });
    k.put({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'kind-worker' }, spec: {}, status: {} });
    const r = k.run('debug node/kind-worker -it --image=busybox', { interactive: true });
    const m =
      /^Creating debugging pod (node-debugger-kind-worker-[b-z2-9]{5}) with container debugger on node kind-worker\.\n$/.exec(
        r.stdout,
      );
    expect(m).not.toBeNull();
    expect(r.enter).toMatchObject({ kind: 'pod', namespace: 'default', pod: m![1], container: 'debugger' });
    const pod = k.host.store.get('pods', 'default', m![1]!)!;
    expect(pod.spec).toMatchObject({
      hostNetwork: true,
      hostPID: true,
      nodeName: 'kind-worker',
      restartPolicy: 'Never',
    });
  });

  it('wait --for=condition', () => {
    const k = makeKubectl();
    runningPod(k, 'web');
    expect(k.run('wait --for=condition=Ready pod/web').stdout).toBe('pod/web condition met\n');
    runningPod(k, 'slow', {}, ['c']);
    expect(k.run('wait --for=condition=Initialized pod/slow --timeout=2s').stderr).toBe(
      'error: timed out waiting for the condition on pods/slow\n',
    );
    expect(k.run('wait --for=jsonpath={.status.phase}=Running pod/web').stdout).toBe(
      'pod/web condition met\n',
    );
  });
});
