/**
 * Which pod `kubectl exec|attach|port-forward TYPE/NAME` and `kubectl logs TYPE/NAME` use: the first
 * after `sort.Sort(sort.Reverse(podutils.ActivePods(pods)))` resp. `sort.Sort(podutils.ByLogging(pods))`
 * (kubectl pkg/polymorphichelpers `GetFirstPod`, pkg/util/podutils/podutils.go). Each row names two
 * pods that differ in one criterion; the winner is the same whichever comes first in the list.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/objects.ts';
import { byLogging, firstPod, mostActive } from './pod-target.ts';
import { makeKubectl } from '../test-helpers.ts';

interface Shape {
  node?: string;
  phase?: string;
  readySince?: string;
  restarts?: number;
  created?: string;
  deleting?: boolean;
}

function pod(name: string, s: Shape): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: { app: 'web' },
      creationTimestamp: s.created ?? '2026-01-01T00:00:00Z',
      ...(s.deleting ? { deletionTimestamp: '2026-01-01T01:00:00Z' } : {}),
    },
    spec: {
      containers: [{ name: 'web', image: 'nginx' }],
      ...(s.node === '' ? {} : { nodeName: s.node ?? 'n1' }),
    },
    status: {
      phase: s.phase ?? 'Running',
      conditions: s.readySince
        ? [{ type: 'Ready', status: 'True', lastTransitionTime: s.readySince }]
        : [{ type: 'Ready', status: 'False' }],
      containerStatuses: [
        {
          name: 'web',
          image: 'nginx',
          imageID: '',
          ready: !!s.readySince,
          restartCount: s.restarts ?? 0,
          ...((s.phase ?? 'Running') === 'Running' ? { state: { running: { startedAt: T1 } } } : {}),
        },
      ],
    },
  } as unknown as Pod;
}

/** A test pod as the store's `put` takes it. */
const manifest = (p: Pod) => p as unknown as Parameters<ReturnType<typeof makeKubectl>['put']>[0];

const T1 = '2026-01-01T00:01:00Z';
const T2 = '2026-01-01T00:02:00Z';

describe('podutils ordering', () => {
  it.each([
    { name: 'assigned beats unassigned', a: { readySince: T1 }, b: { node: '' }, attach: 'a', logs: 'a' },
    {
      name: 'Running beats Pending',
      a: { phase: 'Running' },
      b: { phase: 'Pending' },
      attach: 'a',
      logs: 'a',
    },
    { name: 'ready beats not ready', a: { readySince: T1 }, b: {}, attach: 'a', logs: 'a' },
    // Both orders pick the pod ready the longest (ActivePods: "the latest ready one is smaller").
    { name: 'ready longer wins', a: { readySince: T1 }, b: { readySince: T2 }, attach: 'a', logs: 'a' },
    // "higher restart counts < lower" in both: ActivePods reversed then prefers fewer restarts.
    { name: 'restarts', a: { restarts: 3 }, b: { restarts: 0 }, attach: 'b', logs: 'a' },
    // ActivePods reversed prefers the older pod; ByLogging too ("older pods < newer pods").
    { name: 'older wins', a: { created: T1 }, b: { created: T2 }, attach: 'a', logs: 'a' },
    // Neither order reads deletionTimestamp (kubernetes/kubectl#1370; #61709 and #118651 unmerged):
    // a Terminating pod still Running and Ready since earlier is picked over its replacement.
    {
      name: 'Terminating but ready longer',
      a: { readySince: T1, deleting: true },
      b: { readySince: T2 },
      attach: 'a',
      logs: 'a',
    },
    // Failed is missing from both phase maps (a Go map lookup gives 0): it ranks with Running in
    // ByLogging, with Pending in ActivePods, where the older pod then wins.
    {
      name: 'Failed vs an older Pending',
      a: { phase: 'Failed', created: T2 },
      b: { phase: 'Pending', created: T1 },
      attach: 'b',
      logs: 'a',
    },
  ])('$name', ({ a, b, attach, logs }) => {
    const pa = pod('a', a);
    const pb = pod('b', b);
    for (const list of [
      [pa, pb],
      [pb, pa],
    ]) {
      expect(firstPod(list, mostActive)?.metadata.name).toBe(attach);
      expect(firstPod(list, byLogging)?.metadata.name).toBe(logs);
    }
  });

  it('logs deploy/X names the pod it chose among several, exec does not', () => {
    const k = makeKubectl({
      hooks: {
        containerLogs: () => 'hello\n',
        resolveCommand: () => () => ({ stdout: 'ok\n', stderr: '', exitCode: 0 }),
      },
    });
    k.put(manifest(pod('web-1', { readySince: T2 })));
    k.put(manifest(pod('web-2', { readySince: T1 })));
    k.put(manifest(pod('web-3', { phase: 'Pending' })));
    k.run('create deployment web --image=nginx');
    // The Deployment's selector is app=web; the test pods carry it.
    expect(k.run('logs deploy/web')).toEqual({
      stdout: 'hello\n',
      stderr: 'Found 3 pods, using pod/web-2\n',
      output: [
        { stream: 'stderr', text: 'Found 3 pods, using pod/web-2\n' },
        { stream: 'stdout', text: 'hello\n' },
      ],
      exitCode: 0,
    });
    expect(k.run('exec deploy/web -- true')).toEqual({ stdout: 'ok\n', stderr: '', exitCode: 0 });
  });
});
