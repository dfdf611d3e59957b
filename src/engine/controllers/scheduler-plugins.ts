/**
 * The default profile's filter and score plugins (pkg/scheduler/framework/plugins), reduced to what a
 * lab cluster exercises, and the FitError message (framework/types.go `FitError.Error`, preemption's
 * `PostFilter` wording). v1.35 texts: `node(s) had untolerated taint(s)` (the taint is no longer
 * named), `Too many pods`, `node(s) didn't match Pod's node affinity/selector`,
 * `node(s) didn't have free ports for the requested pod ports`, `node(s) were unschedulable`.
 */
import type { NodeSelectorRequirement, NodeSelectorTerm } from 'kubernetes-types/core/v1';
import type { Node, Pod } from '../api/objects.ts';
import { untoleratedTaint } from './taints.ts';
import { ERR_REASON_NODE_PORTS, hostPorts, portsConflict } from '../api/host-ports.ts';
import { parseBytes, parseCpu } from '../api/quantity.ts';

export interface FilterFailure {
  readonly reason: string;
  /** Unschedulable (preemption might help) vs UnschedulableAndUnresolvable (it cannot). */
  readonly resolvable: boolean;
}

/** What is already placed on a node, as the filters and scores need it (the scheduler's NodeInfo). */
export interface NodeUsage {
  /** Non-terminal pods bound to the node. */
  readonly pods: number;
  /** Sums of the pods' cpu (millicores) and memory (bytes) requests. */
  readonly cpu: number;
  readonly memory: number;
  /** Sum of cpu requests with the scoring plugin's 100m non-zero default. */
  readonly scoredCpu: number;
  readonly hostPorts: ReadonlySet<string>;
}

/** A pod's own cpu and memory requests. */
export interface PodDemand {
  readonly cpu: number;
  readonly memory: number;
  /** The host ports it asks for (`PROTO/hostIP/port`), read once per scheduling attempt. */
  readonly hostPorts: readonly string[];
}

export function podDemand(pod: Pod): PodDemand {
  return {
    cpu: podRequest(pod, 'cpu', parseCpu),
    memory: podRequest(pod, 'memory', parseBytes),
    hostPorts: hostPorts(pod),
  };
}

interface NodeCapacity {
  readonly pods: number;
  readonly cpu: number;
  readonly memory: number;
  /** The scoring plugin's cpu (1 when unset). */
  readonly scoreCpu: number;
}

/** A stored node's allocatable, parsed once (stored objects never change in place). */
const capacities = new WeakMap<Node, NodeCapacity>();

function capacityOf(node: Node): NodeCapacity {
  let c = capacities.get(node);
  if (!c) {
    const allocatable = node.status?.allocatable ?? {};
    c = {
      pods: Number(allocatable.pods ?? 110),
      cpu: parseCpu(String(allocatable.cpu ?? '0')),
      memory: parseBytes(String(allocatable.memory ?? '0')),
      scoreCpu: parseCpu(String(allocatable.cpu ?? '1')),
    };
    capacities.set(node, c);
  }
  return c;
}

/** Sums over the node's pods, in the order given (list order, so the sums never depend on history). */
export function nodeUsage(podsOnNode: readonly Pod[]): NodeUsage {
  const demands = podsOnNode.map(podDemand);
  return {
    pods: podsOnNode.length,
    cpu: demands.reduce((sum, d) => sum + d.cpu, 0),
    memory: demands.reduce((sum, d) => sum + d.memory, 0),
    scoredCpu: demands.reduce((s, d) => s + Math.max(d.cpu, 100), 0),
    hostPorts: new Set(podsOnNode.flatMap(hostPorts)),
  };
}

/**
 * The usage with one more pod, when the result is certain to equal nodeUsage over the longer list:
 * sums of safe integers are exact in any order. Undefined otherwise (recompute from the list).
 */
export function addToUsage(usage: NodeUsage, pod: Pod): NodeUsage | undefined {
  const d = podDemand(pod);
  const next = {
    pods: usage.pods + 1,
    cpu: usage.cpu + d.cpu,
    memory: usage.memory + d.memory,
    scoredCpu: usage.scoredCpu + Math.max(d.cpu, 100),
    hostPorts: new Set([...usage.hostPorts, ...hostPorts(pod)]),
  };
  const exact = [d.cpu, d.memory, next.cpu, next.memory, next.scoredCpu].every(Number.isSafeInteger);
  return exact ? next : undefined;
}

/** Runs the filters in plugin order; the first failure is the node's status. */
export function filterNode(
  pod: Pod,
  demand: PodDemand,
  node: Node,
  usage: NodeUsage,
): FilterFailure | undefined {
  const tolerations = pod.spec?.tolerations;
  if (node.spec?.unschedulable) {
    const taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' as const };
    if (untoleratedTaint([taint], tolerations))
      return { reason: 'node(s) were unschedulable', resolvable: false };
  }
  if (untoleratedTaint(node.spec?.taints, tolerations))
    return { reason: 'node(s) had untolerated taint(s)', resolvable: false };
  if (!matchesNodeAffinity(pod, node))
    return { reason: "node(s) didn't match Pod's node affinity/selector", resolvable: false };
  if (usage.hostPorts.size > 0 && portsConflict(demand.hostPorts, usage.hostPorts)) {
    return { reason: ERR_REASON_NODE_PORTS, resolvable: true };
  }
  const capacity = capacityOf(node);
  if (usage.pods + 1 > capacity.pods) return { reason: 'Too many pods', resolvable: true };
  if (demand.cpu !== 0 && usage.cpu + demand.cpu > capacity.cpu)
    return { reason: 'Insufficient cpu', resolvable: true };
  if (demand.memory !== 0 && usage.memory + demand.memory > capacity.memory)
    return { reason: 'Insufficient memory', resolvable: true };
  return undefined;
}

/** LeastAllocated on pods (and cpu requests, counted with the scheduler's 100m non-zero default). */
export function scoreNode(demand: PodDemand, node: Node, usage: NodeUsage): number {
  const { pods: maxPods, scoreCpu: cpu } = capacityOf(node);
  const usedCpu = usage.scoredCpu + Math.max(demand.cpu, 100);
  const podScore = (1 - (usage.pods + 1) / maxPods) * 100;
  const cpuScore = (1 - usedCpu / cpu) * 100;
  return Math.round(((podScore + cpuScore) / 2) * 1000);
}

/** `0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Too many pods. preemption: …` */
export function fitError(numNodes: number, failures: readonly FilterFailure[]): string {
  const histogram = (entries: readonly string[]) => {
    const counts = new Map<string, number>();
    for (const e of entries) counts.set(e, (counts.get(e) ?? 0) + 1);
    return [...counts].map(([reason, n]) => `${n} ${reason}`).sort();
  };
  let msg = `0/${numNodes} nodes are available:`;
  const reasons = histogram(failures.map((f) => f.reason));
  if (reasons.length > 0) msg += ` ${reasons.join(', ')}.`;
  if (numNodes === 0) return 'no nodes available to schedule pods';
  const preemption = histogram(
    failures.map((f) =>
      f.resolvable
        ? 'No preemption victims found for incoming pod'
        : 'Preemption is not helpful for scheduling',
    ),
  );
  return `${msg} preemption: 0/${numNodes} nodes are available: ${preemption.join(', ')}.`;
}

function matchesNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  const nodeSelector = pod.spec?.nodeSelector;
  for (const k in nodeSelector)
    if (Object.hasOwn(nodeSelector, k) && labels[k] !== nodeSelector[k]) return false;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms || terms.length === 0) return true;
  return terms.some((t) => termMatches(t, node));
}

function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return (
    exprs.every((r) => requirementMatches(r, labels[r.key])) &&
    fields.every((r) => requirementMatches(r, r.key === 'metadata.name' ? node.metadata.name : undefined))
  );
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && Number(value) > Number(values[0]);
    case 'Lt':
      return value !== undefined && Number(value) < Number(values[0]);
    default:
      return false;
  }
}

/**
 * NodeAffinity's PreFilter: when every required term names nodes by `metadata.name` (as DaemonSet pods
 * do), only those nodes are evaluated; the rest are reported as
 * `node(s) didn't satisfy plugin(s) [NodeAffinity]`, UnschedulableAndUnresolvable
 * (schedule_one.go `findNodesThatFitPod`). Undefined means every node.
 */
export function preFilterNodeNames(pod: Pod): ReadonlySet<string> | undefined {
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms || terms.length === 0) return undefined;
  const names = new Set<string>();
  for (const t of terms) {
    const byName = (t.matchFields ?? []).filter((f) => f.key === 'metadata.name' && f.operator === 'In');
    if (byName.length !== 1) return undefined;
    for (const v of byName[0]!.values ?? []) names.add(v);
  }
  return names;
}

export const PRE_FILTER_NODE_AFFINITY: FilterFailure = {
  reason: "node(s) didn't satisfy plugin(s) [NodeAffinity]",
  resolvable: false,
};

function podRequest(pod: Pod, resource: 'cpu' | 'memory', parse: (q: string) => number): number {
  return (pod.spec?.containers ?? []).reduce((sum, c) => {
    const q = c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource];
    return sum + (q === undefined ? 0 : parse(String(q)));
  }, 0);
}
