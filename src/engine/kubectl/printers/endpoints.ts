/**
 * Endpoints and EndpointSlices (`printEndpoints`/`formatEndpoints`, `printEndpointSlice` with
 * `formatDiscoveryPorts`/`formatDiscoveryEndpoints`): at most three entries then ` + N more...`;
 * EndpointSlice lists print `<unset>` when empty, Endpoints print `<none>` without subsets.
 */
import type { EndpointSlice, Endpoints } from '../../api/objects.ts';
import { age } from './duration.ts';
import type { TableDef } from './table.ts';

const MAX = 3;

function listWithMore(list: string[], more: boolean, count: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - MAX} more...`;
  return ret === '' ? '<unset>' : ret;
}

export function formatEndpointsSubsets(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    for (const port of ss.ports ?? []) {
      for (const addr of ss.addresses ?? []) {
        if (list.length === MAX) more = true;
        if (!more) list.push(`${addr.ip}:${port.port}`);
        count++;
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - MAX} more...` : ret;
}

export function formatDiscoveryPorts(slice: EndpointSlice): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const p of slice.ports ?? []) {
    if (list.length < MAX) list.push(p.port != null ? String(p.port) : p.name != null ? p.name : '*');
    else if (list.length === MAX) more = true;
    count++;
  }
  return listWithMore(list, more, count);
}

export function formatDiscoveryEndpoints(slice: EndpointSlice): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const e of slice.endpoints ?? []) {
    for (const a of e.addresses ?? []) {
      if (list.length < MAX) list.push(a);
      else if (list.length === MAX) more = true;
      count++;
    }
  }
  return listWithMore(list, more, count);
}

export const endpointsTable: TableDef<Endpoints> = {
  columns: [{ name: 'Name' }, { name: 'Endpoints' }, { name: 'Age' }],
  row(ep, ctx) {
    return [ep.metadata.name, formatEndpointsSubsets(ep), age(ep.metadata.creationTimestamp, ctx.now)];
  },
};

export const endpointSliceTable: TableDef<EndpointSlice> = {
  columns: [
    { name: 'Name' },
    { name: 'AddressType' },
    { name: 'Ports' },
    { name: 'Endpoints' },
    { name: 'Age' },
  ],
  row(s, ctx) {
    return [
      s.metadata.name,
      s.addressType ?? '',
      formatDiscoveryPorts(s),
      formatDiscoveryEndpoints(s),
      age(s.metadata.creationTimestamp, ctx.now),
    ];
  },
};
