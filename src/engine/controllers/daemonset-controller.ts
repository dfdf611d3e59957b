/**
 * The DaemonSet controller (pkg/controller/daemon/daemon_controller.go): one pod per eligible node —
 * the node matches the nodeSelector/affinity and its NoSchedule/NoExecute taints are tolerated —
 * created as `<ds>-<5 chars>` with a required node affinity on `metadata.name` so the scheduler binds
 * it there (ScheduleDaemonSetPods), plus the tolerations every daemon pod gets
 * (`util.AddOrUpdateDaemonPodTolerations`). Pods on nodes that are no longer eligible are deleted; a
 * template change replaces pods one node at a time (RollingUpdate, maxUnavailable 1). Status counts
 * follow `updateDaemonSetStatus`.
 */
import type { Toleration } from 'kubernetes-types/core/v1';
import type { AnyObject, DaemonSet, Node, Pod, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { objectKey } from '../api/store.ts';
import { deepClone, jsonEqual } from '../util/json.ts';
import { BaseController, splitKey } from './base-controller.ts';
import {
  controllerOf,
  controllerRef,
  createWithGeneratedName,
  isControlledBy,
  isPodActive,
  isPodAvailable,
  isPodReady,
} from './pod-util.ts';
import { untoleratedTaint } from './taints.ts';
import { computeHash } from './deployment-util.ts';
import { omitZero } from './replicaset-controller.ts';

const REVISION_LABEL = 'controller-revision-hash';

/** Tolerations the DaemonSet controller adds to every daemon pod. */
export function daemonTolerations(hostNetwork: boolean): Toleration[] {
  const t = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });
  return [
    t('node.kubernetes.io/not-ready', 'NoExecute'),
    t('node.kubernetes.io/unreachable', 'NoExecute'),
    t('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    t('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    t('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    t('node.kubernetes.io/unschedulable', 'NoSchedule'),
    ...(hostNetwork ? [t('node.kubernetes.io/network-unavailable', 'NoSchedule')] : []),
  ];
}

/** Whether a daemon pod belongs on `node` (`NodeShouldRunDaemonPod`). */
export function shouldRunOn(ds: DaemonSet, node: Node): boolean {
  const spec = ds.spec?.template?.spec;
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const tolerations = [...(spec?.tolerations ?? []), ...daemonTolerations(!!spec?.hostNetwork)];
  return untoleratedTaint(node.spec?.taints, tolerations) === undefined;
}

export class DaemonSetController extends BaseController {
  readonly name = 'daemonset-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [
      ['daemonsets.apps', (e) => [objectKey(e.object.metadata.namespace, e.object.metadata.name)]],
      [
        'pods',
        (e) => {
          const ref = controllerOf(e.object as Pod);
          return ref?.kind === 'DaemonSet' ? [objectKey(e.object.metadata.namespace, ref.name)] : [];
        },
      ],
      ['nodes', () => this.initialKeys()],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api.list('daemonsets.apps').map((d) => objectKey(d.metadata.namespace, d.metadata.name));
  }

  protected reconcile(key: string): boolean {
    const [ns, name] = splitKey(key);
    const ds = this.ctx.api.get('daemonsets.apps', ns, name);
    if (!ds || ds.metadata.deletionTimestamp) return false;
    const owner = ds as unknown as AnyObject;
    const hash = computeHash(ds.spec?.template).slice(0, 10);
    const nodes = this.ctx.api.list('nodes');
    const pods = this.ctx.api.list('pods', ns).filter((p) => isControlledBy(p, owner) && isPodActive(p));
    let wrote = false;
    const updating: Pod[] = [];
    for (const node of nodes) {
      const here = pods.filter((p) => targetNode(p) === node.metadata.name);
      if (shouldRunOn(ds, node)) {
        if (here.length === 0) wrote = this.createPod(ds, node, hash) || wrote;
        for (const extra of here.slice(1)) wrote = this.deletePod(ds, extra) || wrote;
        const current = here[0];
        if (current && current.metadata.labels?.[REVISION_LABEL] !== hash) updating.push(current);
      } else {
        for (const p of here) wrote = this.deletePod(ds, p) || wrote;
      }
    }
    // RollingUpdate with maxUnavailable 1: replace an outdated pod only while all others are ready.
    if (updating.length > 0 && (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
      const unavailable = pods.filter((p) => !isPodReady(p)).length;
      if (unavailable === 0)
        wrote =
          this.deletePod(ds, updating.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))[0]!) ||
          wrote;
    }
    return this.writeStatus(ds, hash, nodes) || wrote;
  }

  private createPod(ds: DaemonSet, node: Node, hash: string): boolean {
    const template = deepClone(ds.spec?.template ?? {});
    const spec = template.spec ?? { containers: [] };
    const hostNetwork = !!spec.hostNetwork;
    const existing = spec.tolerations ?? [];
    const tolerations = [
      ...existing,
      ...daemonTolerations(hostNetwork).filter(
        (t) => !existing.some((e) => e.key === t.key && e.effect === t.effect),
      ),
    ];
    const created = createWithGeneratedName(
      this.ctx.api,
      this.ctx.rng,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          namespace: ds.metadata.namespace,
          labels: {
            ...template.metadata?.labels,
            [REVISION_LABEL]: hash,
            'pod-template-generation': String(ds.metadata.generation ?? 1),
          },
          ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
          ownerReferences: [controllerRef(ds as unknown as AnyObject)],
        },
        spec: {
          ...spec,
          tolerations,
          affinity: {
            ...spec.affinity,
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.metadata.name] }] },
                ],
              },
            },
          },
        },
      },
      `${ds.metadata.name}-`,
    );
    if (!created) return false;
    this.record(ds, 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    return true;
  }

  private deletePod(ds: DaemonSet, pod: Pod): boolean {
    this.ctx.api.delete('pods', pod.metadata.namespace, pod.metadata.name);
    this.record(ds, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    return true;
  }

  private writeStatus(ds: DaemonSet, hash: string, nodes: readonly Node[]): boolean {
    const now = this.ctx.clock.now();
    const owner = ds as unknown as AnyObject;
    const pods = this.ctx.api
      .list('pods', ds.metadata.namespace)
      .filter((p) => isControlledBy(p, owner) && isPodActive(p));
    const eligible = nodes.filter((n) => shouldRunOn(ds, n)).map((n) => n.metadata.name);
    const scheduled = pods.filter((p) => p.spec?.nodeName);
    const onEligible = scheduled.filter((p) => eligible.includes(p.spec!.nodeName!));
    const available = onEligible.filter((p) => isPodAvailable(p, ds.spec?.minReadySeconds ?? 0, now)).length;
    const status = omitZero(
      {
        currentNumberScheduled: new Set(onEligible.map((p) => p.spec!.nodeName)).size,
        desiredNumberScheduled: eligible.length,
        numberAvailable: available,
        numberMisscheduled: scheduled.length - onEligible.length,
        numberReady: onEligible.filter(isPodReady).length,
        numberUnavailable: Math.max(eligible.length - available, 0),
        observedGeneration: ds.metadata.generation ?? 1,
        updatedNumberScheduled: onEligible.filter((p) => p.metadata.labels?.[REVISION_LABEL] === hash).length,
      },
      ['currentNumberScheduled', 'desiredNumberScheduled', 'numberMisscheduled', 'numberReady'],
    );
    if (jsonEqual(status, ds.status)) return false;
    this.ctx.api.updateStatus({ ...ds, status } as unknown as AnyObject);
    return true;
  }

  private record(ds: DaemonSet, reason: string, message: string): void {
    this.ctx.recorder.event(ds as unknown as AnyObject, 'Normal', reason, message, {
      component: 'daemonset-controller',
    });
  }
}

/** The node a daemon pod is for: where it runs, or the one its node affinity names. */
function targetNode(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return terms[0]?.matchFields?.find((f) => f.key === 'metadata.name')?.values?.[0];
}
