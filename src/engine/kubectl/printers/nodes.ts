/**
 * `kubectl get nodes` (`printNode`): STATUS from the Ready condition (`Ready`, `NotReady`, `Unknown`)
 * plus `SchedulingDisabled` when cordoned; ROLES from `node-role.kubernetes.io/<role>` labels and the
 * legacy `kubernetes.io/role` label, sorted, `<none>` when there are none.
 */
import type { Node } from '../../api/objects.ts';
import { age } from './duration.ts';
import type { TableDef } from './table.ts';

const ROLE_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE = 'kubernetes.io/role';

export function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(ROLE_PREFIX)) {
      const role = k.slice(ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === LEGACY_ROLE && v) roles.add(v);
  }
  return [...roles].sort();
}

export function nodeStatus(node: Node): string {
  const status: string[] = [];
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

function address(node: Node, type: string): string {
  return node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
}

export const nodeTable: TableDef<Node> = {
  columns: [
    { name: 'Name' },
    { name: 'Status' },
    { name: 'Roles' },
    { name: 'Age' },
    { name: 'Version' },
    { name: 'Internal-IP', wide: true },
    { name: 'External-IP', wide: true },
    { name: 'OS-Image', wide: true },
    { name: 'Kernel-Version', wide: true },
    { name: 'Container-Runtime', wide: true },
  ],
  row(node, ctx) {
    const info = node.status?.nodeInfo;
    return [
      node.metadata.name,
      nodeStatus(node),
      nodeRoles(node).join(',') || '<none>',
      age(node.metadata.creationTimestamp, ctx.now),
      info?.kubeletVersion ?? '',
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      info?.osImage || '<unknown>',
      info?.kernelVersion || '<unknown>',
      info?.containerRuntimeVersion || '<unknown>',
    ];
  },
};
