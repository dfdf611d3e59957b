/**
 * kube-proxy's nftables mode, `syncProxyRules` of `pkg/proxy/nftables/proxier.go`, pinned to
 * Kubernetes v1.35: the table layout follows proxier.go @ b0f823e6ccd8a10b3893fc75011b9981af39285c
 * with the two changes that v1.35 carries over it — kubernetes#131492 (ClusterIP masquerade rule
 * without the port match) and #132456 (pre-DNAT/post-DNAT filter chains) — as pinned by
 * proxier_test.go @ 81810de635aa13aa0a32992f6def3aa9d6025ebc; it still has `mark-for-masquerade`
 * (dropped after v1.35 by #135800).
 *
 * The whole table is rendered on every sync. Chains and sets keep the position they had in the
 * previous rendering and new ones are appended, because the kernel (and `nft list`) keeps creation
 * order. NodePorts are accepted on the node's primary address only (`nodeport-ips`), the nftables
 * default for an unset `nodePortAddresses`.
 */
import type { NftElement, NftSet, NftTable } from '../../netfilter/nft-model.ts';
import { categorizeEndpoints } from '../categorize-endpoints.ts';
import type { ProxyInput } from '../proxy-input.ts';
import { keyOf } from '../service-port-map.ts';
import { setupNftables, TABLE_NAME, toChains } from './base-chains.ts';
import { nftServiceRules } from './service-rules.ts';

export function renderNftables(input: ProxyInput, previous?: NftTable): NftTable {
  const { chains, sets } = setupNftables(input.node.ip, input.serviceCIDRs);
  const elements = new Map<string, { list: NftElement[]; keys: Set<string> }>();
  const affinitySets: NftSet[] = [];
  const ctx = {
    ...(input.clusterCIDR ? { clusterCIDR: input.clusterCIDR } : {}),
    masqueradeAll: input.masqueradeAll ?? false,
    nodeIP: input.node.ip,
  };
  for (const sp of input.servicePorts) {
    const cat = categorizeEndpoints(
      input.endpoints.get(keyOf(sp)) ?? [],
      sp,
      input.node.name,
      input.node.labels,
    );
    const f = nftServiceRules(sp, cat, ctx);
    for (const [name, rules] of f.chains) {
      const existing = chains.get(name);
      if (existing) existing.push(...rules);
      else chains.set(name, rules);
    }
    for (const [map, list] of f.elements) {
      let acc = elements.get(map);
      if (!acc) elements.set(map, (acc = { list: [], keys: new Set() }));
      // Two services can share an element key (the same externalIP and port): the first one wins.
      for (const e of list) {
        const k = e.key.join(' . ');
        if (!acc.keys.has(k)) {
          acc.keys.add(k);
          acc.list.push(e);
        }
      }
    }
    affinitySets.push(...f.affinitySets);
  }
  const allSets: NftSet[] = [
    ...sets.map((s) => ({ ...s, elements: [...s.elements, ...(elements.get(s.name)?.list ?? [])] })),
    ...affinitySets,
  ];
  return {
    family: 'ip',
    name: TABLE_NAME,
    comment: 'rules for kube-proxy',
    sets: keepCreationOrder(allSets, previous?.sets),
    chains: keepCreationOrder(toChains(chains), previous?.chains),
  };
}

function keepCreationOrder<T extends { readonly name: string }>(
  next: T[],
  previous: readonly T[] | undefined,
): T[] {
  if (!previous) return next;
  const byName = new Map(next.map((x) => [x.name, x]));
  const kept = previous.flatMap((p) => {
    const n = byName.get(p.name);
    return n ? [n] : [];
  });
  const old = new Set(previous.map((p) => p.name));
  return [...kept, ...next.filter((n) => !old.has(n.name))];
}
