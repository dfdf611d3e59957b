import { describe, expect, it } from 'vitest';
import { advance, eventsFor, getPod, makeCluster, pod } from '../controllers/test-helpers.ts';
import { defaultClusterConfig, parseClusterConfig } from '../api/cluster-config.ts';
import { containerLogs, listeningSockets } from './container-runtime.ts';
import { cidrContainsText } from '../util/ip.ts';

describe('kubelet: start-up', () => {
  it('takes a pod through ContainerCreating to Running with the real events and conditions', () => {
    const c = makeCluster();
    c.api.create(pod('web', [{ name: 'nginx', image: 'nginx' }]));
    c.settle();
    let p = getPod(c, 'web');
    expect(p.spec?.nodeName).toMatch(/^kind-worker2?$/);
    expect(p.status?.phase).toBe('Pending');
    expect(p.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('ContainerCreating');
    expect(
      cidrContainsText(
        p.spec!.nodeName === 'kind-worker' ? '10.244.1.0/24' : '10.244.2.0/24',
        p.status!.podIP!,
      ),
    ).toBe(true);
    advance(c, 10_000);
    p = getPod(c, 'web');
    expect(p.status?.phase).toBe('Running');
    const cs = p.status!.containerStatuses![0]!;
    expect(cs).toMatchObject({
      ready: true,
      started: true,
      restartCount: 0,
      image: 'docker.io/library/nginx:latest',
    });
    expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(p.status?.conditions?.map((x) => `${x.type}=${x.status}`)).toEqual([
      'PodReadyToStartContainers=True',
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ]);
    const events = eventsFor(c, p).map((e) => `${e.reason}: ${e.message}`);
    expect(events).toEqual([
      `Scheduled: Successfully assigned default/web to ${p.spec!.nodeName}`,
      'Pulling: Pulling image "nginx"',
      expect.stringMatching(
        /^Pulled: Successfully pulled image "nginx" in [\d.]+m?s \([\d.]+m?s including waiting\)\. Image size: \d+ bytes\.$/,
      ),
      'Created: Container created',
      'Started: Container started',
    ]);
  });

  it('gives hostNetwork pods the node IP', () => {
    const c = makeCluster();
    c.api.create(
      pod(
        'hn',
        [{ name: 'a', image: 'busybox', command: ['sleep', '3600'] }],
        (p) => (p.spec.hostNetwork = true),
      ),
    );
    advance(c, 5000);
    const p = getPod(c, 'hn');
    expect(p.status?.podIP).toBe(p.status?.hostIP);
  });
});

describe('kubelet: restarts', () => {
  it('restarts an exiting container with CrashLoopBackOff delays of 10s, 20s, 40s', () => {
    const c = makeCluster();
    c.api.create(pod('bb', [{ name: 'bb', image: 'busybox' }]));
    c.settle();
    const restartsAt: number[] = [];
    let last = 0;
    for (let t = 0; t < 120; t++) {
      c.tick(1000);
      const cs = getPod(c, 'bb').status!.containerStatuses![0]!;
      if (cs.restartCount !== last) {
        restartsAt.push(t);
        last = cs.restartCount;
      }
    }
    const gaps = restartsAt.slice(1).map((t, i) => t - restartsAt[i]!);
    expect(gaps.slice(0, 3)).toEqual([10, 20, 40]);
    const p = getPod(c, 'bb');
    const cs = p.status!.containerStatuses![0]!;
    expect(p.status?.phase).toBe('Running');
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    const waiting = cs.state?.waiting;
    if (waiting) {
      expect(waiting.reason).toBe('CrashLoopBackOff');
      expect(waiting.message).toMatch(
        new RegExp(
          `^back-off (10s|20s|40s|1m20s) restarting failed container=bb pod=bb_default\\(${p.metadata.uid}\\)$`,
        ),
      );
    }
    expect(eventsFor(c, p).find((e) => e.reason === 'BackOff')?.message).toBe(
      `Back-off restarting failed container bb in pod bb_default(${p.metadata.uid})`,
    );
  });

  it('with restartPolicy Never a failing container leaves the pod Failed', () => {
    const c = makeCluster();
    c.api.create(
      pod(
        'once',
        [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo bye; exit 3'] }],
        (p) => (p.spec.restartPolicy = 'Never'),
      ),
    );
    advance(c, 10_000);
    const p = getPod(c, 'once');
    expect(p.status?.phase).toBe('Failed');
    expect(p.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    });
    const logs = containerLogs(p, 'c', { now: c.clock.now() });
    expect(logs.ok && logs.lines.map((l) => l.text)).toEqual(['bye']);
  });

  it("two containers binding the same port: the second fails with nginx's bind error and crash-loops", () => {
    const c = makeCluster();
    c.api.create(
      pod('two', [
        { name: 'a', image: 'nginx' },
        { name: 'b', image: 'nginx' },
      ]),
    );
    advance(c, 60_000);
    const p = getPod(c, 'two');
    const [a, b] = p.status!.containerStatuses!;
    expect(a!.ready).toBe(true);
    expect(b!.restartCount).toBeGreaterThan(0);
    expect(b!.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    const logs = containerLogs(p, 'b', { previous: true, now: c.clock.now() });
    expect(
      logs.ok &&
        logs.lines.some((l) =>
          /\[emerg\] 1#1: bind\(\) to 0\.0\.0\.0:80 failed \(98: Address already in use\)$/.test(l.text),
        ),
    ).toBe(true);
    expect(listeningSockets(p, c.clock.now()).map((s) => `${s.container}:${s.port}`)).toEqual(['a:80']);
  });
});

describe('kubelet: readiness', () => {
  it.each([
    { name: 'open port', port: 80, ready: true },
    { name: 'closed port', port: 8080, ready: false },
  ])('a readiness probe on the $name', ({ port, ready }) => {
    const c = makeCluster();
    c.api.create(
      pod('r', [
        { name: 'nginx', image: 'nginx', readinessProbe: { httpGet: { path: '/', port }, periodSeconds: 5 } },
      ]),
    );
    advance(c, 30_000);
    const p = getPod(c, 'r');
    expect(p.status?.phase).toBe('Running');
    expect(p.status?.containerStatuses?.[0]?.ready).toBe(ready);
    const unhealthy = eventsFor(c, p).filter((e) => e.reason === 'Unhealthy');
    if (ready) expect(unhealthy).toHaveLength(0);
    else {
      expect(unhealthy[0]!.message).toBe(
        `Readiness probe failed: Get "http://${p.status!.podIP}:8080/": dial tcp ${p.status!.podIP}:8080: connect: connection refused`,
      );
      expect(unhealthy[0]!.count).toBeGreaterThan(2);
      expect(p.status?.conditions?.find((x) => x.type === 'Ready')).toMatchObject({
        status: 'False',
        reason: 'ContainersNotReady',
        message: 'containers with unready status: [nginx]',
      });
    }
  });
});

describe('kubelet: termination', () => {
  it('nginx stops at once; a sleeping busybox holds Terminating for the grace period; then the IP is free', () => {
    const c = makeCluster();
    c.api.create(pod('fast', [{ name: 'nginx', image: 'nginx' }]));
    c.api.create(pod('slow', [{ name: 's', image: 'busybox', command: ['sleep', '3600'] }]));
    advance(c, 15_000);
    const slowIP = getPod(c, 'slow').status!.podIP!;
    c.api.delete('pods', 'default', 'fast');
    c.api.delete('pods', 'default', 'slow');
    c.settle();
    expect(c.api.get('pods', 'default', 'fast')).toBeUndefined();
    expect(c.api.get('pods', 'default', 'slow')?.metadata.deletionTimestamp).toBeDefined();
    expect(eventsFor(c, getPod(c, 'slow')).find((e) => e.reason === 'Killing')?.message).toBe(
      'Stopping container s',
    );
    c.tick(29_000);
    expect(c.api.get('pods', 'default', 'slow')).toBeDefined();
    c.tick(2000);
    expect(c.api.get('pods', 'default', 'slow')).toBeUndefined();
    expect(c.api.list('pods').some((p) => p.status?.podIP === slowIP)).toBe(false);
  });
});

describe('kubelet + scheduler: capacity', () => {
  it("the 111th pod on a full cluster stays Pending with the scheduler's v1.35 message", () => {
    const c = makeCluster(
      parseClusterConfig(
        'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: worker\n',
      ),
    );
    const onWorker = c.api.list('pods').filter((p) => p.spec?.nodeName === 'kind-worker').length;
    const room = 110 - onWorker;
    c.api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'fill', namespace: 'default' },
      spec: {
        replicas: room + 1,
        selector: { matchLabels: { app: 'fill' } },
        template: {
          metadata: { labels: { app: 'fill' } },
          spec: { containers: [{ name: 'p', image: 'registry.k8s.io/pause:3.10.1' }] },
        },
      },
    });
    advance(c, 5000);
    const pending = c.api.list('pods', 'default').filter((p) => !p.spec?.nodeName);
    expect(pending).toHaveLength(1);
    const cond = pending[0]!.status?.conditions?.find((x) => x.type === 'PodScheduled');
    const msg =
      '0/2 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint(s). preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.';
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable', message: msg });
    expect(eventsFor(c, pending[0]!).find((e) => e.reason === 'FailedScheduling')?.message).toBe(msg);
  });

  it("IPAM exhaustion: the sandbox fails with host-local's error and the pod stays ContainerCreating", () => {
    const config = { ...defaultClusterConfig(), cni: 'flannel' as const, nodeCidrMaskSize: 28 };
    const c = makeCluster(config);
    const node = c.api.get('nodes', undefined, 'kind-worker')!;
    expect(node.spec?.podCIDR).toBe('10.244.0.16/28');
    // host-local: 10.244.0.17 is the gateway, 10.244.0.18-30 are the 13 pod addresses.
    for (let i = 0; i < 14; i++) {
      c.api.create(
        pod(
          `p${i}`,
          [{ name: 'p', image: 'registry.k8s.io/pause:3.10.1' }],
          (p) => (p.spec.nodeName = 'kind-worker'),
        ),
      );
    }
    advance(c, 5000);
    const pods = c.api.list('pods', 'default');
    const withIP = pods.filter((p) => p.status?.podIP);
    expect(withIP).toHaveLength(13);
    const stuck = pods.find((p) => !p.status?.podIP)!;
    expect(stuck.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('ContainerCreating');
    const ev = eventsFor(c, stuck).find((e) => e.reason === 'FailedCreatePodSandBox')!;
    expect(ev.message).toMatch(
      /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": plugin type="flannel" failed \(add\): failed to delegate add: failed to allocate for range 0: no IP addresses available in range set: 10\.244\.0\.17-10\.244\.0\.30$/,
    );
    // Freeing an address lets the retry succeed.
    c.api.delete('pods', 'default', withIP[0]!.metadata.name, { gracePeriodSeconds: 0 });
    advance(c, 11_000);
    expect(getPod(c, stuck.metadata.name).status?.podIP).toBeDefined();
  });
});
