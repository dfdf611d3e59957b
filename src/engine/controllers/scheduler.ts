/**
 * kube-scheduler (pkg/scheduler/schedule_one.go, framework/plugins): for each pending pod, NodeAffinity's
 * PreFilter narrows the nodes when the pod names them by `metadata.name` (DaemonSet pods), then the
 * filter plugins run on each remaining node in the default profile's order — NodeUnschedulable, TaintToleration,
 * NodeAffinity (nodeSelector and required node affinity), NodePorts (hostPort), NodeResourcesFit
 * (pod count against `pods` allocatable, cpu and memory requests) — score the feasible nodes by how
 * little is allocated on them (LeastAllocated), bind to the best, record `Scheduled`; otherwise set
 * PodScheduled=False/Unschedulable and record `FailedScheduling` with the FitError text
 * (`0/3 nodes are available: …. preemption: …`).
 *
 * Simplified: no preemption (its message is computed: with equal priorities nothing can be evicted),
 * no affinity between pods or topology spread beyond what least-allocated scoring gives, ties broken
 * at random like the real `selectHost`. A pod is retried when nodes or bindings change; a repeated
 * identical failure is not recorded again.
 */
import type { Node, Pod, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { objectKey, POD_NODE_INDEX } from '../api/store.ts';
import { BaseController, splitKey } from './base-controller.ts';
import { isPodTerminal } from '../api/pod-status.ts';
import { deepClone } from '../util/json.ts';
import {
  addToUsage,
  filterNode,
  fitError,
  nodeUsage,
  podDemand,
  preFilterNodeNames,
  PRE_FILTER_NODE_AFFINITY,
  scoreNode,
  type FilterFailure,
  type NodeUsage,
} from './scheduler-plugins.ts';

const PENDING_SCHEDULER = 'default-scheduler';

export class Scheduler extends BaseController {
  readonly name = 'kube-scheduler';
  /** Set by events that may make room: every pending pod is retried at the next sync. */
  private retryPending = false;
  /** Per-node usage, dropped whenever a pod bound to the node changes (the scheduler cache's NodeInfo). */
  private readonly usage = new Map<string, NodeUsage>();

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    // Like the scheduling queue's cluster events: a new pending pod is queued; a node change, a
    // deleted or finished pod, or a new binding may make room, so every pending pod is retried. A pod
    // never turns pending again, so queueing the pods pending at the next sync (rather than at the
    // event) retries the same pods, without a scan of every pod per event.
    return [
      [
        'pods',
        (e) => {
          const pod = e.object as Pod;
          const old = e.oldObject as Pod | undefined;
          if (!old || usageMayDiffer(old, pod)) {
            // A binding adds one pod to its node's usage; anything else recomputes it from the list.
            const node = pod.spec?.nodeName;
            const cached = node ? this.usage.get(node) : undefined;
            const added =
              cached && old && old !== pod && !old.spec?.nodeName && !isPodTerminal(pod)
                ? addToUsage(cached, pod)
                : undefined;
            if (node && added) this.usage.set(node, added);
            else if (node) this.usage.delete(node);
            if (old?.spec?.nodeName) this.usage.delete(old.spec.nodeName);
          }
          if (e.type === 'ADDED')
            return isPending(pod) ? [objectKey(pod.metadata.namespace, pod.metadata.name)] : [];
          if (e.type === 'DELETED') {
            if (pod.spec?.nodeName) this.retryPending = true;
            return [];
          }
          const changed =
            old?.spec?.nodeName !== pod.spec?.nodeName ||
            isPodTerminal(pod) !== (old ? isPodTerminal(old) : false) ||
            !!pod.metadata.deletionTimestamp !== !!old?.metadata.deletionTimestamp;
          if (changed) this.retryPending = true;
          return [];
        },
      ],
      [
        'nodes',
        () => {
          this.retryPending = true;
          return [];
        },
      ],
    ];
  }

  override start(): void {
    this.usage.clear();
    this.retryPending = false;
    super.start();
  }

  override sync(): boolean {
    if (this.retryPending) {
      this.retryPending = false;
      for (const key of this.initialKeys()) this.queue.add(key);
    }
    return super.sync();
  }

  protected initialKeys(): string[] {
    return this.pendingPods().map((p) => objectKey(p.metadata.namespace, p.metadata.name));
  }

  protected reconcile(key: string): boolean {
    return this.schedule(key);
  }

  private pendingPods(): Pod[] {
    return this.ctx.api.list('pods').filter(isPending);
  }

  /** The cached usage of a node, if any (the properties test compares it with a recomputation). */
  cachedUsage(node: string): NodeUsage | undefined {
    return this.usage.get(node);
  }

  private nodeUsage(name: string): NodeUsage {
    let usage = this.usage.get(name);
    if (!usage) {
      const pods = this.ctx.api.byIndex('pods', POD_NODE_INDEX, name).filter((p) => !isPodTerminal(p));
      this.usage.set(name, (usage = nodeUsage(pods)));
    }
    return usage;
  }

  private schedule(key: string): boolean {
    const [ns, name] = splitKey(key);
    const pod = this.ctx.api.get('pods', ns, name);
    if (!pod || !isPending(pod)) return false;
    const nodes = this.ctx.api.list('nodes');
    const demand = podDemand(pod);
    const failures = new Map<string, FilterFailure>();
    const feasible: { node: Node; score: number }[] = [];
    const only = preFilterNodeNames(pod);
    for (const node of nodes) {
      if (only && !only.has(node.metadata.name)) {
        failures.set(node.metadata.name, PRE_FILTER_NODE_AFFINITY);
        continue;
      }
      const usage = this.nodeUsage(node.metadata.name);
      const failure = filterNode(pod, demand, node, usage);
      if (failure) failures.set(node.metadata.name, failure);
      else feasible.push({ node, score: scoreNode(demand, node, usage) });
    }
    if (feasible.length === 0) return this.fail(pod, fitError(nodes.length, [...failures.values()]));
    const best = Math.max(...feasible.map((f) => f.score));
    const top = feasible.filter((f) => f.score === best);
    const chosen = top.length === 1 ? top[0]! : top[this.ctx.rng.int(top.length)]!;
    return this.bind(pod, chosen.node);
  }

  private bind(pod: Pod, node: Node): boolean {
    const { api, clock, recorder } = this.ctx;
    // A shallow copy: the store copies what changed and shares the untouched parts of the stored pod.
    const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: clock.rfc3339(),
    } as never);
    const bound = {
      ...pod,
      spec: { ...pod.spec!, nodeName: node.metadata.name },
      status: { ...pod.status, phase: 'Pending', conditions },
    };
    // The binding subresource: the only way spec.nodeName changes after creation.
    api.store.update('pods', bound);
    recorder.event(
      pod,
      'Normal',
      'Scheduled',
      `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${node.metadata.name}`,
      { component: PENDING_SCHEDULER },
    );
    return true;
  }

  private fail(pod: Pod, message: string): boolean {
    const { api, clock, recorder } = this.ctx;
    const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (current?.status === 'False' && current.message === message) return false;
    const copy = deepClone(pod);
    const conditions = (copy.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: current?.status === 'False' ? current.lastTransitionTime : clock.rfc3339(),
      reason: 'Unschedulable',
      message,
    } as never);
    api.updateStatus({
      ...copy,
      status: { ...copy.status, phase: 'Pending', conditions },
    });
    recorder.event(pod, 'Warning', 'FailedScheduling', message, {
      component: PENDING_SCHEDULER,
    });
    return true;
  }
}

/**
 * Whether a pod's update can change its node's usage: a new binding, a pod turning terminal, a spec
 * change (generation moves with every spec change) or a delete (the event carries the same object).
 */
function usageMayDiffer(old: Pod, pod: Pod): boolean {
  return (
    old === pod ||
    old.spec?.nodeName !== pod.spec?.nodeName ||
    isPodTerminal(old) !== isPodTerminal(pod) ||
    old.metadata.generation !== pod.metadata.generation
  );
}

function isPending(p: Pod): boolean {
  return (
    !p.spec?.nodeName &&
    !p.metadata.deletionTimestamp &&
    !isPodTerminal(p) &&
    (p.spec?.schedulerName ?? PENDING_SCHEDULER) === PENDING_SCHEDULER
  );
}
