/**
 * Describers for workloads and cluster objects (pkg/describe `describeDeployment`,
 * `describeReplicaSet`, `describeDaemonSet`, `describeNamespace`, ConfigMap, `describeSecret`,
 * `describeServiceAccount`, `describeNode`) and the generic one custom resources get (`printUnstructuredContent`).
 */
import type {
  AnyObject,
  ConfigMap,
  DaemonSet,
  Deployment,
  Event,
  Namespace,
  Node,
  Pod,
  ReplicaSet,
  Secret,
  ServiceAccount,
} from '../../api/objects.ts';
import { formatLabelSelector, formatLabels, fromLabelSelector, selectorString } from '../../api/labels.ts';
import { isPlainObject } from '../../util/json.ts';
import { age } from '../printers/duration.ts';
import { nodeRoles } from '../printers/nodes.ts';
import { describePodTemplate } from './pod.ts';
import {
  controllerOf,
  PrefixWriter,
  rfc1123z,
  writeAnnotations,
  writeEvents,
  writeLabels,
} from './writer.ts';

export interface PodCounts {
  running: number;
  waiting: number;
  succeeded: number;
  failed: number;
}

/** getPodStatusForController: pods controlled by `owner`, by phase. */
export function podCounts(pods: readonly Pod[], ownerUid: string): PodCounts {
  const c = { running: 0, waiting: 0, succeeded: 0, failed: 0 };
  for (const p of pods) {
    const ref = p.metadata.ownerReferences?.find((r) => r.controller);
    if (!ref || ref.uid !== ownerUid) continue;
    if (p.status?.phase === 'Running') c.running++;
    else if (p.status?.phase === 'Pending') c.waiting++;
    else if (p.status?.phase === 'Succeeded') c.succeeded++;
    else if (p.status?.phase === 'Failed') c.failed++;
  }
  return c;
}

function selectorText(ls: Parameters<typeof fromLabelSelector>[0]): string {
  try {
    return selectorString(fromLabelSelector(ls));
  } catch {
    return '<error>';
  }
}

function rsList(list: readonly ReplicaSet[]): string {
  return (
    list
      .map(
        (rs) =>
          `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 0} replicas created)`,
      )
      .join(', ') || '<none>'
  );
}

export function describeDeployment(
  d: Deployment,
  oldRSs: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
  events: readonly Event[] | undefined,
  now: number,
): string {
  const w = new PrefixWriter();
  const st = d.status ?? {};
  w.write(0, `Name:\t${d.metadata.name}\n`);
  w.write(0, `Namespace:\t${d.metadata.namespace ?? ''}\n`);
  w.write(0, `CreationTimestamp:\t${rfc1123z(d.metadata.creationTimestamp)}\n`);
  writeLabels(w, 'Labels', d.metadata.labels);
  writeAnnotations(w, 'Annotations', d.metadata.annotations);
  w.write(0, `Selector:\t${selectorText(d.spec?.selector)}\n`);
  w.write(
    0,
    `Replicas:\t${d.spec?.replicas ?? 0} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable\n`,
  );
  w.write(0, `StrategyType:\t${d.spec?.strategy?.type ?? ''}\n`);
  w.write(0, `MinReadySeconds:\t${d.spec?.minReadySeconds ?? 0}\n`);
  const ru = d.spec?.strategy?.rollingUpdate;
  if (ru)
    w.write(
      0,
      `RollingUpdateStrategy:\t${String(ru.maxUnavailable ?? '25%')} max unavailable, ${String(ru.maxSurge ?? '25%')} max surge\n`,
    );
  describePodTemplate(w, d.spec?.template);
  if ((st.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(1, '----\t------\t------\n');
    for (const c of st.conditions!) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  if (oldRSs.length > 0 || newRS) {
    w.write(0, `OldReplicaSets:\t${rsList(oldRSs)}\n`);
    w.write(0, `NewReplicaSet:\t${rsList(newRS ? [newRS] : [])}\n`);
  }
  writeEvents(w, events, now);
  return w.toString();
}

export function describeReplicaSet(
  rs: ReplicaSet,
  counts: PodCounts,
  events: readonly Event[] | undefined,
  now: number,
): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${rs.metadata.name}\n`);
  w.write(0, `Namespace:\t${rs.metadata.namespace ?? ''}\n`);
  w.write(0, `Selector:\t${formatLabelSelector(rs.spec?.selector)}\n`);
  writeLabels(w, 'Labels', rs.metadata.labels);
  writeAnnotations(w, 'Annotations', rs.metadata.annotations);
  const controller = controllerOf(rs);
  if (controller) w.write(0, `Controlled By:\t${controller}\n`);
  w.write(0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 0} desired\n`);
  w.write(0, 'Pods Status:\t');
  w.write(
    0,
    `${counts.running} Running / ${counts.waiting} Waiting / ${counts.succeeded} Succeeded / ${counts.failed} Failed\n`,
  );
  describePodTemplate(w, rs.spec?.template);
  if ((rs.status?.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(1, '----\t------\t------\n');
    for (const c of rs.status!.conditions!) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  writeEvents(w, events, now);
  return w.toString();
}

export function describeDaemonSet(
  ds: DaemonSet,
  counts: PodCounts,
  events: readonly Event[] | undefined,
  now: number,
): string {
  const w = new PrefixWriter();
  const st = ds.status;
  w.write(0, `Name:\t${ds.metadata.name}\n`);
  w.write(0, `Namespace:\t${ds.metadata.namespace ?? ''}\n`);
  w.write(0, `Selector:\t${selectorText(ds.spec?.selector)}\n`);
  w.write(0, `Node-Selector:\t${formatLabels(ds.spec?.template?.spec?.nodeSelector)}\n`);
  writeLabels(w, 'Labels', ds.metadata.labels);
  writeAnnotations(w, 'Annotations', ds.metadata.annotations);
  w.write(0, `Desired Number of Nodes Scheduled: ${st?.desiredNumberScheduled ?? 0}\n`);
  w.write(0, `Current Number of Nodes Scheduled: ${st?.currentNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Up-to-date Pods: ${st?.updatedNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Available Pods: ${st?.numberAvailable ?? 0}\n`);
  w.write(0, `Number of Nodes Misscheduled: ${st?.numberMisscheduled ?? 0}\n`);
  w.write(
    0,
    `Pods Status:\t${counts.running} Running / ${counts.waiting} Waiting / ${counts.succeeded} Succeeded / ${counts.failed} Failed\n`,
  );
  describePodTemplate(w, ds.spec?.template);
  writeEvents(w, events, now);
  return w.toString();
}

export function describeNamespace(ns: Namespace): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ns.metadata.name}\n`);
  writeLabels(w, 'Labels', ns.metadata.labels);
  writeAnnotations(w, 'Annotations', ns.metadata.annotations);
  w.write(0, `Status:\t${ns.status?.phase ?? ''}\n`);
  if ((ns.status?.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t------------------\t------\t-------\n');
    for (const c of ns.status!.conditions!)
      w.write(
        1,
        `${c.type}\t${c.status}\t${rfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`,
      );
  }
  w.write(0, '\n');
  w.write(0, 'No resource quota.\n');
  w.write(0, '\n');
  w.write(0, 'No LimitRange resource.\n');
  return w.toString();
}

export function describeConfigMap(cm: ConfigMap, events: readonly Event[] | undefined, now: number): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${cm.metadata.name}\n`);
  w.write(0, `Namespace:\t${cm.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', cm.metadata.labels);
  writeAnnotations(w, 'Annotations', cm.metadata.annotations);
  w.write(0, '\nData\n====\n');
  for (const k of Object.keys(cm.data ?? {}).sort()) {
    w.write(0, `${k}:\n----\n`);
    w.write(0, `${cm.data![k]}\n`);
    w.write(0, '\n');
  }
  w.write(0, '\nBinaryData\n====\n');
  for (const k of Object.keys(cm.binaryData ?? {}).sort())
    w.write(0, `${k}: ${decodedLength(cm.binaryData![k]!)} bytes\n`);
  w.write(0, '\n');
  writeEvents(w, events, now);
  return w.toString();
}

function decodedLength(b64: string): number {
  const clean = b64.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

export function describeSecret(s: Secret): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${s.metadata.name}\n`);
  w.write(0, `Namespace:\t${s.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', s.metadata.labels);
  writeAnnotations(w, 'Annotations', s.metadata.annotations);
  w.write(0, `\nType:\t${s.type ?? ''}\n`);
  w.write(0, '\nData\n====\n');
  for (const k of Object.keys(s.data ?? {}).sort())
    w.write(0, `${k}:\t${decodedLength(s.data![k]!)} bytes\n`);
  return w.toString();
}

/** kubectl's headers, padded to one width so a second name lines up under the first. */
const SA_SECRET_HEADERS = [
  ['Image pull secrets:', 'imagePullSecrets'],
  ['Mountable secrets: ', 'secrets'],
  ['Tokens:            ', 'tokens'],
] as const;

/**
 * `describeServiceAccount`: its token Secrets are the `kubernetes.io/service-account-token` ones
 * annotated with its name and uid; a referenced Secret that does not exist is marked `(not found)`.
 */
export function describeServiceAccount(
  sa: ServiceAccount,
  secrets: readonly Secret[],
  events: readonly Event[] | undefined,
  now: number,
): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${sa.metadata.name}\n`);
  w.write(0, `Namespace:\t${sa.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', sa.metadata.labels);
  writeAnnotations(w, 'Annotations', sa.metadata.annotations);
  const existing = new Set(secrets.map((s) => s.metadata.name));
  const names = {
    imagePullSecrets: (sa.imagePullSecrets ?? []).map((r) => r.name ?? ''),
    secrets: (sa.secrets ?? []).map((r) => r.name ?? ''),
    tokens: secrets
      .filter(
        (s) =>
          s.type === 'kubernetes.io/service-account-token' &&
          s.metadata.annotations?.['kubernetes.io/service-account.name'] === sa.metadata.name &&
          s.metadata.annotations?.['kubernetes.io/service-account.uid'] === sa.metadata.uid,
      )
      .map((s) => s.metadata.name),
  };
  for (const [header, key] of SA_SECRET_HEADERS) {
    const list = names[key];
    if (list.length === 0) w.write(0, `${header}\t<none>\n`);
    list.forEach((name, i) => {
      const missing = key !== 'tokens' && !existing.has(name) ? ' (not found)' : '';
      w.write(0, `${i === 0 ? header : ' '.repeat(header.length)}\t${name}${missing}\n`);
    });
  }
  writeEvents(w, events, now);
  return w.toString();
}

/** Kubernetes resource quantities as describe prints sums: `350m`, `1`, `140Mi`, `0`. */
function parseQuantity(q: unknown): number {
  const s = String(q ?? '0');
  const m = /^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(s);
  if (!m) return 0;
  const n = Number(m[1]);
  const mult: Record<string, number> = {
    m: 0.001,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
  };
  return n * (m[2] ? mult[m[2]]! : 1);
}

function formatCpu(cores: number): string {
  const milli = Math.round(cores * 1000);
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

function formatBytes(bytes: number): string {
  if (bytes === 0) return '0';
  for (const [suffix, size] of [
    ['Ti', 1024 ** 4],
    ['Gi', 1024 ** 3],
    ['Mi', 1024 ** 2],
    ['Ki', 1024],
  ] as const) {
    if (bytes % size === 0) return `${bytes / size}${suffix}`;
  }
  return String(bytes);
}

function podTotals(pod: Pod, kind: 'requests' | 'limits'): { cpu: number; memory: number; storage: number } {
  const t = { cpu: 0, memory: 0, storage: 0 };
  for (const c of pod.spec?.containers ?? []) {
    const r = c.resources?.[kind] ?? (kind === 'requests' ? c.resources?.limits : undefined) ?? {};
    t.cpu += parseQuantity(r['cpu']);
    t.memory += parseQuantity(r['memory']);
    t.storage += parseQuantity(r['ephemeral-storage']);
  }
  return t;
}

function pct(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.trunc((part / whole) * 100);
}

export function describeNode(
  node: Node,
  pods: readonly Pod[],
  events: readonly Event[] | undefined,
  now: number,
): string {
  const w = new PrefixWriter();
  const st = node.status ?? {};
  w.write(0, `Name:\t${node.metadata.name}\n`);
  w.write(0, `Roles:\t${nodeRoles(node).join(',') || '<none>'}\n`);
  writeLabels(w, 'Labels', node.metadata.labels);
  writeAnnotations(w, 'Annotations', node.metadata.annotations);
  w.write(0, `CreationTimestamp:\t${rfc1123z(node.metadata.creationTimestamp)}\n`);
  const taints = [...(node.spec?.taints ?? [])].sort((a, b) =>
    `${a.effect},${a.key}` < `${b.effect},${b.key}` ? -1 : 1,
  );
  w.write(0, 'Taints:\t');
  if (taints.length === 0) w.line('<none>');
  taints.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    w.write(0, `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}\n`);
  });
  w.write(0, `Unschedulable:\t${Boolean(node.spec?.unschedulable)}\n`);
  w.write(0, 'Lease:\n');
  w.write(1, `HolderIdentity:\t${node.metadata.name}\n`);
  w.write(1, 'AcquireTime:\t<unset>\n');
  const ready = st.conditions?.find((c) => c.type === 'Ready');
  w.write(1, `RenewTime:\t${rfc1123z(ready?.lastHeartbeatTime ?? node.metadata.creationTimestamp)}\n`);
  if ((st.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of st.conditions!) {
      w.write(
        1,
        `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
      );
    }
  }
  w.write(0, 'Addresses:\n');
  for (const a of st.addresses ?? []) w.write(1, `${a.type}:\t${a.address}\n`);
  const resourceOrder = (keys: string[]): string[] => keys.sort();
  if (Object.keys(st.capacity ?? {}).length > 0) {
    w.write(0, 'Capacity:\n');
    for (const k of resourceOrder(Object.keys(st.capacity!)))
      w.write(0, `  ${k}:\t${String(st.capacity![k])}\n`);
  }
  if (Object.keys(st.allocatable ?? {}).length > 0) {
    w.write(0, 'Allocatable:\n');
    for (const k of resourceOrder(Object.keys(st.allocatable!)))
      w.write(0, `  ${k}:\t${String(st.allocatable![k])}\n`);
  }
  const info = st.nodeInfo;
  w.write(0, 'System Info:\n');
  w.write(0, `  Machine ID:\t${info?.machineID ?? ''}\n`);
  w.write(0, `  System UUID:\t${info?.systemUUID ?? ''}\n`);
  w.write(0, `  Boot ID:\t${info?.bootID ?? ''}\n`);
  w.write(0, `  Kernel Version:\t${info?.kernelVersion ?? ''}\n`);
  w.write(0, `  OS Image:\t${info?.osImage ?? ''}\n`);
  w.write(0, `  Operating System:\t${info?.operatingSystem ?? ''}\n`);
  w.write(0, `  Architecture:\t${info?.architecture ?? ''}\n`);
  w.write(0, `  Container Runtime Version:\t${info?.containerRuntimeVersion ?? ''}\n`);
  w.write(0, `  Kubelet Version:\t${info?.kubeletVersion ?? ''}\n`);
  // kubectl v1.35 prints the (deprecated, now always empty) kube-proxy version line unconditionally.
  w.write(0, `  Kube-Proxy Version:\t${info?.kubeProxyVersion ?? ''}\n`);
  if (node.spec?.podCIDR) w.write(0, `PodCIDR:\t${node.spec.podCIDR}\n`);
  if ((node.spec?.podCIDRs ?? []).length > 0) w.write(0, `PodCIDRs:\t${node.spec!.podCIDRs!.join(',')}\n`);
  if (node.spec?.providerID) w.write(0, `ProviderID:\t${node.spec.providerID}\n`);
  const alloc = st.allocatable ?? st.capacity ?? {};
  const allocCpu = parseQuantity(alloc['cpu']);
  const allocMem = parseQuantity(alloc['memory']);
  const allocStorage = parseQuantity(alloc['ephemeral-storage']);
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const sum = { rc: 0, lc: 0, rm: 0, lm: 0, rs: 0, ls: 0 };
  for (const p of pods) {
    const r = podTotals(p, 'requests');
    const l = podTotals(p, 'limits');
    sum.rc += r.cpu;
    sum.lc += l.cpu;
    sum.rm += r.memory;
    sum.lm += l.memory;
    sum.rs += r.storage;
    sum.ls += l.storage;
    w.write(
      1,
      `${p.metadata.namespace ?? ''}\t${p.metadata.name}\t\t${formatCpu(r.cpu)} (${pct(r.cpu, allocCpu)}%)\t${formatCpu(l.cpu)} (${pct(l.cpu, allocCpu)}%)\t${formatBytes(r.memory)} (${pct(r.memory, allocMem)}%)\t${formatBytes(l.memory)} (${pct(l.memory, allocMem)}%)\t${age(p.metadata.creationTimestamp, now)}\n`,
    );
  }
  w.write(0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(1, 'Resource\tRequests\tLimits\n');
  w.write(1, '--------\t--------\t------\n');
  w.write(
    1,
    `cpu\t${formatCpu(sum.rc)} (${pct(sum.rc, allocCpu)}%)\t${formatCpu(sum.lc)} (${pct(sum.lc, allocCpu)}%)\n`,
  );
  w.write(
    1,
    `memory\t${formatBytes(sum.rm)} (${pct(sum.rm, allocMem)}%)\t${formatBytes(sum.lm)} (${pct(sum.lm, allocMem)}%)\n`,
  );
  w.write(
    1,
    `ephemeral-storage\t${formatBytes(sum.rs)} (${pct(sum.rs, allocStorage)}%)\t${formatBytes(sum.ls)} (${pct(sum.ls, allocStorage)}%)\n`,
  );
  for (const k of Object.keys(alloc)
    .filter((k) => k.startsWith('hugepages-'))
    .sort())
    w.write(1, `${k}\t0 (0%)\t0 (0%)\n`);
  writeEvents(w, events, now);
  return w.toString();
}

/** smartLabelFor: `podSelector` → `Pod Selector`, `apiVersion` → `API Version`. */
export function smartLabel(field: string): string {
  if (/[^A-Za-z-]/.test(field)) return field;
  const parts = field.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/);
  return parts
    .map((p) =>
      ['API', 'URL', 'UID', 'GUID'].includes(p.toUpperCase())
        ? p.toUpperCase()
        : p === p.toLowerCase()
          ? p.charAt(0).toUpperCase() + p.slice(1)
          : p,
    )
    .join(' ');
}

function writeUnstructured(
  w: PrefixWriter,
  level: number,
  content: Record<string, unknown>,
  prefix: string,
  skip: readonly string[],
): void {
  for (const field of Object.keys(content).sort()) {
    const value = content[field];
    const path = `${prefix}.${field}`;
    if (skip.includes(path)) continue;
    if (isPlainObject(value)) {
      w.write(level, `${smartLabel(field)}:\n`);
      writeUnstructured(w, level + 1, value, path, skip);
    } else if (Array.isArray(value)) {
      w.write(level, `${smartLabel(field)}:\n`);
      for (const child of value) {
        if (isPlainObject(child)) writeUnstructured(w, level + 1, child, path, skip);
        else w.write(level + 1, `${String(child)}\n`);
      }
    } else w.write(level, `${smartLabel(field)}:\t${String(value)}\n`);
  }
}

export function describeGeneric(obj: AnyObject, events: readonly Event[] | undefined, now: number): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata.name}\n`);
  w.write(0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', obj.metadata.labels);
  writeAnnotations(w, 'Annotations', obj.metadata.annotations);
  writeUnstructured(w, 0, obj as Record<string, unknown>, '', [
    '.metadata.managedFields',
    '.metadata.name',
    '.metadata.namespace',
    '.metadata.labels',
    '.metadata.annotations',
  ]);
  writeEvents(w, events, now);
  return w.toString();
}
