/**
 * Pod STATUS/READY/RESTARTS derivation. Rows are the cases of kubernetes pkg/printers/internalversion
 * printers_test.go `TestPrintPod` (and its sidecar/restart-age additions).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/objects.ts';
import { podSummary, podTable } from './pods.ts';

const NOW = Date.UTC(2026, 0, 22);

function pod(
  spec: Partial<NonNullable<Pod['spec']>>,
  status: Pod['status'],
  meta: Partial<Pod['metadata']> = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'test',
      uid: 'u',
      resourceVersion: '1',
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...meta,
    },
    spec: { containers: [{ name: 'a' }, { name: 'b' }], ...spec },
    status,
  } as Pod;
}

const running = { running: { startedAt: '2026-01-01T00:00:00Z' } };

describe('printPod', () => {
  it.each([
    {
      name: 'one of two containers ready and running',
      p: pod(
        {},
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            { name: 'a', ready: true, restartCount: 3, image: '', imageID: '', state: running },
            { name: 'b', ready: false, restartCount: 3, image: '', imageID: '' },
          ],
        },
      ),
      want: { ready: '1/2', status: 'podPhase', restarts: '6' },
    },
    {
      name: 'a waiting reason overrides the phase',
      p: pod(
        {},
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            { name: 'a', ready: true, restartCount: 3, image: '', imageID: '', state: running },
            {
              name: 'b',
              ready: false,
              restartCount: 3,
              image: '',
              imageID: '',
              state: { waiting: { reason: 'ContainerWaitingReason' } },
            },
          ],
        },
      ),
      want: { ready: '1/2', status: 'ContainerWaitingReason', restarts: '6' },
    },
    {
      name: 'the first container with a reason wins',
      p: pod(
        {},
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            {
              name: 'a',
              ready: false,
              restartCount: 3,
              image: '',
              imageID: '',
              state: { waiting: { reason: 'ContainerWaitingReason' } },
            },
            {
              name: 'b',
              ready: true,
              restartCount: 3,
              image: '',
              imageID: '',
              state: { terminated: { reason: 'ContainerTerminatedReason', exitCode: 1 } },
            },
          ],
        },
      ),
      want: { ready: '0/2', status: 'ContainerWaitingReason', restarts: '6' },
    },
    {
      name: 'ready is not enough for running',
      p: pod(
        {},
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            { name: 'a', ready: true, restartCount: 3, image: '', imageID: '' },
            { name: 'b', ready: true, restartCount: 3, image: '', imageID: '' },
          ],
        },
      ),
      want: { ready: '0/2', status: 'podPhase', restarts: '6' },
    },
    {
      name: 'status.reason overrides the phase',
      p: pod(
        {},
        {
          phase: 'podPhase' as never,
          reason: 'podReason',
          containerStatuses: [
            { name: 'a', ready: true, restartCount: 3, image: '', imageID: '' },
            { name: 'b', ready: true, restartCount: 3, image: '', imageID: '' },
          ],
        },
      ),
      want: { ready: '0/2', status: 'podReason', restarts: '6' },
    },
    {
      name: 'one completed, one running, no Ready condition: NotReady',
      p: pod(
        {},
        {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'a',
              ready: false,
              restartCount: 3,
              image: '',
              imageID: '',
              state: { terminated: { reason: 'Completed', exitCode: 0 } },
            },
            { name: 'b', ready: true, restartCount: 3, image: '', imageID: '', state: running },
          ],
        },
      ),
      want: { ready: '1/2', status: 'NotReady', restarts: '6' },
    },
    {
      name: 'one completed, one running, Ready condition: Running',
      p: pod(
        {},
        {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            {
              name: 'a',
              ready: false,
              restartCount: 3,
              image: '',
              imageID: '',
              state: { terminated: { reason: 'Completed', exitCode: 0 } },
            },
            { name: 'b', ready: true, restartCount: 3, image: '', imageID: '', state: running },
          ],
        },
      ),
      want: { ready: '1/2', status: 'Running', restarts: '6' },
    },
    {
      name: 'init container still running: Init:0/1',
      p: pod(
        { initContainers: [{ name: 'init' }], containers: [{ name: 'a' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'init', ready: false, restartCount: 0, image: '', imageID: '', state: running },
          ],
          containerStatuses: [
            {
              name: 'a',
              ready: false,
              restartCount: 0,
              image: '',
              imageID: '',
              state: { waiting: { reason: 'PodInitializing' } },
            },
          ],
        },
      ),
      want: { ready: '0/1', status: 'Init:0/1', restarts: '0' },
    },
    {
      name: 'init container crash looping',
      p: pod(
        { initContainers: [{ name: 'init' }], containers: [{ name: 'a' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'init',
              ready: false,
              restartCount: 4,
              image: '',
              imageID: '',
              state: { waiting: { reason: 'CrashLoopBackOff' } },
            },
          ],
        },
      ),
      want: { ready: '0/1', status: 'Init:CrashLoopBackOff', restarts: '4' },
    },
    {
      name: 'init container failed without a reason',
      p: pod(
        { initContainers: [{ name: 'init' }], containers: [{ name: 'a' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'init',
              ready: false,
              restartCount: 0,
              image: '',
              imageID: '',
              state: { terminated: { exitCode: 2 } },
            },
          ],
        },
      ),
      want: { ready: '0/1', status: 'Init:ExitCode:2', restarts: '0' },
    },
    {
      name: 'running sidecar counts towards READY',
      p: pod(
        { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }], containers: [{ name: 'a' }] },
        {
          phase: 'Running',
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [
            {
              name: 'proxy',
              ready: true,
              started: true,
              restartCount: 1,
              image: '',
              imageID: '',
              state: running,
            },
          ],
          containerStatuses: [
            { name: 'a', ready: true, restartCount: 0, image: '', imageID: '', state: running },
          ],
        },
      ),
      want: { ready: '2/2', status: 'Running', restarts: '1' },
    },
    {
      name: 'restarts show the age of the last one',
      p: pod(
        { containers: [{ name: 'a' }] },
        {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'a',
              ready: true,
              restartCount: 9,
              image: '',
              imageID: '',
              state: running,
              lastState: {
                terminated: { exitCode: 1, finishedAt: new Date(NOW - 29 * 60_000).toISOString() },
              },
            },
          ],
        },
      ),
      want: { ready: '1/1', status: 'Running', restarts: '9 (29m ago)' },
    },
    {
      name: 'deletionTimestamp: Terminating',
      p: pod(
        { containers: [{ name: 'a' }] },
        {
          phase: 'Running',
          containerStatuses: [
            { name: 'a', ready: true, restartCount: 0, image: '', imageID: '', state: running },
          ],
        },
        { deletionTimestamp: '2026-01-21T23:59:50Z' },
      ),
      want: { ready: '1/1', status: 'Terminating', restarts: '0' },
    },
    {
      name: 'deletionTimestamp on a finished pod keeps its phase',
      p: pod(
        { containers: [{ name: 'a' }] },
        {
          phase: 'Succeeded',
          containerStatuses: [
            {
              name: 'a',
              ready: false,
              restartCount: 0,
              image: '',
              imageID: '',
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
          ],
        },
        { deletionTimestamp: '2026-01-21T23:59:50Z' },
      ),
      want: { ready: '0/1', status: 'Completed', restarts: '0' },
    },
    {
      name: 'image pull failure',
      p: pod(
        { containers: [{ name: 'a' }] },
        {
          phase: 'Pending',
          containerStatuses: [
            {
              name: 'a',
              ready: false,
              restartCount: 0,
              image: '',
              imageID: '',
              state: { waiting: { reason: 'ErrImagePull' } },
            },
          ],
        },
      ),
      want: { ready: '0/1', status: 'ErrImagePull', restarts: '0' },
    },
    {
      name: 'scheduling gated',
      p: pod(
        { containers: [{ name: 'a' }] },
        {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
        },
      ),
      want: { ready: '0/1', status: 'SchedulingGated', restarts: '0' },
    },
  ])('$name', ({ p, want }) => {
    expect(podSummary(p, NOW)).toEqual(want);
  });

  it('wide cells: <none> for missing IP, node and nominated node, n/m readiness gates', () => {
    const p = pod(
      { containers: [{ name: 'a' }], readinessGates: [{ conditionType: 'x/ready' }] },
      { phase: 'Pending', conditions: [{ type: 'x/ready', status: 'True' }] },
    );
    expect(podTable.row(p, { now: NOW, wide: true }).slice(5)).toEqual(['<none>', '<none>', '<none>', '1/1']);
  });
});
