/**
 * The host ports a pod asks for (`hostPort` on a container port) and when two pods' ports clash: the
 * scheduler's NodePorts filter and the kubelet's admission check share this, as upstream both run
 * pkg/scheduler/framework/plugins/nodeports.
 */
import type { Pod } from './objects.ts';

/** The NodePorts filter's reason (`nodeports.ErrReason`), shared with the kubelet's admission check. */
export const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

export function hostPorts(pod: Pod): string[] {
  return (pod.spec?.containers ?? []).flatMap((c) =>
    (c.ports ?? [])
      .filter((p) => p.hostPort)
      .map((p) => `${p.protocol ?? 'TCP'}/${p.hostIP ?? '0.0.0.0'}/${p.hostPort}`),
  );
}

export function hostPortConflict(pod: Pod, used: ReadonlySet<string>): boolean {
  return portsConflict(hostPorts(pod), used);
}

export function portsConflict(wanted: readonly string[], used: ReadonlySet<string>): boolean {
  if (wanted.length === 0) return false;
  return wanted.some((w) => {
    const [proto, ip, port] = w.split('/');
    return [...used].some((u) => {
      const [p2, ip2, port2] = u.split('/');
      return p2 === proto && port2 === port && (ip === ip2 || ip === '0.0.0.0' || ip2 === '0.0.0.0');
    });
  });
}
