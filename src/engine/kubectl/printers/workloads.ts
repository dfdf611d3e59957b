/**
 * Deployments, ReplicaSets and DaemonSets (`printDeployment`, `printReplicaSet`, `printDaemonSet`).
 * Wide adds CONTAINERS and IMAGES (comma-joined) and SELECTOR; note the Deployment's SELECTOR is
 * `selector.String()` (empty when it selects everything) while the others use FormatLabelSelector.
 */
import type { DaemonSet, Deployment, ReplicaSet, core } from '../../api/objects.ts';
import { formatLabelSelector, formatLabels, fromLabelSelector, selectorString } from '../../api/labels.ts';
import { age } from './duration.ts';
import type { TableDef } from './table.ts';

export function layoutContainerCells(containers: readonly core.Container[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}

function deploymentSelector(d: Deployment): string {
  try {
    return selectorString(fromLabelSelector(d.spec?.selector));
  } catch {
    return '<invalid>';
  }
}

export const deploymentTable: TableDef<Deployment> = {
  columns: [
    { name: 'Name' },
    { name: 'Ready' },
    { name: 'Up-to-date' },
    { name: 'Available' },
    { name: 'Age' },
    { name: 'Containers', wide: true },
    { name: 'Images', wide: true },
    { name: 'Selector', wide: true },
  ],
  row(d, ctx) {
    const [names, images] = layoutContainerCells(d.spec?.template?.spec?.containers);
    return [
      d.metadata.name,
      `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
      d.status?.updatedReplicas ?? 0,
      d.status?.availableReplicas ?? 0,
      age(d.metadata.creationTimestamp, ctx.now),
      names,
      images,
      deploymentSelector(d),
    ];
  },
};

export const replicaSetTable: TableDef<ReplicaSet> = {
  columns: [
    { name: 'Name' },
    { name: 'Desired' },
    { name: 'Current' },
    { name: 'Ready' },
    { name: 'Age' },
    { name: 'Containers', wide: true },
    { name: 'Images', wide: true },
    { name: 'Selector', wide: true },
  ],
  row(rs, ctx) {
    const [names, images] = layoutContainerCells(rs.spec?.template?.spec?.containers);
    return [
      rs.metadata.name,
      rs.spec?.replicas ?? 0,
      rs.status?.replicas ?? 0,
      rs.status?.readyReplicas ?? 0,
      age(rs.metadata.creationTimestamp, ctx.now),
      names,
      images,
      formatLabelSelector(rs.spec?.selector),
    ];
  },
};

export const daemonSetTable: TableDef<DaemonSet> = {
  columns: [
    { name: 'Name' },
    { name: 'Desired' },
    { name: 'Current' },
    { name: 'Ready' },
    { name: 'Up-to-date' },
    { name: 'Available' },
    { name: 'Node Selector' },
    { name: 'Age' },
    { name: 'Containers', wide: true },
    { name: 'Images', wide: true },
    { name: 'Selector', wide: true },
  ],
  row(ds, ctx) {
    const [names, images] = layoutContainerCells(ds.spec?.template?.spec?.containers);
    const st = ds.status;
    return [
      ds.metadata.name,
      st?.desiredNumberScheduled ?? 0,
      st?.currentNumberScheduled ?? 0,
      st?.numberReady ?? 0,
      st?.updatedNumberScheduled ?? 0,
      st?.numberAvailable ?? 0,
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      age(ds.metadata.creationTimestamp, ctx.now),
      names,
      images,
      formatLabelSelector(ds.spec?.selector),
    ];
  },
};
