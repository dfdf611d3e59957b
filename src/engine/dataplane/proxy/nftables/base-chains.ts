/**
 * The fixed part of kube-proxy's nftables table (`nftablesBaseChains`, `nftablesJumpChains` and
 * `setupNFTables` in `pkg/proxy/nftables/proxier.go`), as of Kubernetes v1.35: filter chains split into
 * pre-DNAT (-110) and post-DNAT (0) priorities (kubernetes/kubernetes#132456), and still the
 * `mark-for-masquerade` chain (removed after v1.35 by #135800).
 */
import type { NftBaseChain, NftChain, NftRule, NftSet } from '../../netfilter/nft-model.ts';
import { MASQUERADE_MARK } from '../proxy-input.ts';

export const TABLE_NAME = 'kube-proxy';
export const SERVICES_CHAIN = 'services';
export const SERVICE_IPS_MAP = 'service-ips';
export const SERVICE_NODEPORTS_MAP = 'service-nodeports';
export const NODEPORT_IPS_SET = 'nodeport-ips';
export const CLUSTER_IPS_SET = 'cluster-ips';
export const SERVICE_ENDPOINTS_CHECK_CHAIN = 'service-endpoints-check';
export const NODEPORT_ENDPOINTS_CHECK_CHAIN = 'nodeport-endpoints-check';
export const NO_ENDPOINT_SERVICES_MAP = 'no-endpoint-services';
export const NO_ENDPOINT_NODEPORTS_MAP = 'no-endpoint-nodeports';
export const REJECT_CHAIN = 'reject-chain';
export const CLUSTER_IPS_CHECK_CHAIN = 'cluster-ips-check';
export const FIREWALL_IPS_MAP = 'firewall-ips';
export const FIREWALL_CHECK_CHAIN = 'firewall-check';
export const MARK_MASQ_CHAIN = 'mark-for-masquerade';
export const MASQUERADING_CHAIN = 'masquerading';

/** `DNATPriority - 10` = -110 runs before DNAT, so filters see the service address. */
export const BASE_CHAINS: readonly (NftBaseChain & { readonly name: string })[] = [
  { name: 'filter-prerouting-pre-dnat', type: 'filter', hook: 'prerouting', priority: -110 },
  { name: 'filter-output-pre-dnat', type: 'filter', hook: 'output', priority: -110 },
  { name: 'filter-input', type: 'filter', hook: 'input', priority: 0 },
  { name: 'filter-forward', type: 'filter', hook: 'forward', priority: 0 },
  { name: 'filter-output', type: 'filter', hook: 'output', priority: 0 },
  { name: 'nat-prerouting', type: 'nat', hook: 'prerouting', priority: -100 },
  { name: 'nat-output', type: 'nat', hook: 'output', priority: -100 },
  { name: 'nat-postrouting', type: 'nat', hook: 'postrouting', priority: 100 },
];

/** [jump target, base chain, ct state new?] in `nftablesJumpChains` order. */
const JUMP_CHAINS: readonly [string, string, boolean][] = [
  [NODEPORT_ENDPOINTS_CHECK_CHAIN, 'filter-input', true],
  [SERVICE_ENDPOINTS_CHECK_CHAIN, 'filter-input', true],
  [SERVICE_ENDPOINTS_CHECK_CHAIN, 'filter-forward', true],
  [SERVICE_ENDPOINTS_CHECK_CHAIN, 'filter-output', true],
  [FIREWALL_CHECK_CHAIN, 'filter-prerouting-pre-dnat', true],
  [FIREWALL_CHECK_CHAIN, 'filter-output-pre-dnat', true],
  [SERVICES_CHAIN, 'nat-output', false],
  [SERVICES_CHAIN, 'nat-prerouting', false],
  [MASQUERADING_CHAIN, 'nat-postrouting', false],
  [CLUSTER_IPS_CHECK_CHAIN, 'filter-forward', true],
  [CLUSTER_IPS_CHECK_CHAIN, 'filter-output', true],
];

const CONCAT_VERDICT = 'ipv4_addr . inet_proto . inet_service : verdict';
const PORT_VERDICT = 'inet_proto . inet_service : verdict';

export interface BaseTable {
  /** Chains in creation order, with their rules. */
  readonly chains: Map<string, NftRule[]>;
  readonly sets: NftSet[];
}

/**
 * `setupNFTables`: the base and top-level chains and the maps, created in the order a fresh
 * kube-proxy's first transaction creates them (which is the order `nft list` shows them).
 */
export function setupNftables(nodeIP: string, serviceCIDRs: readonly string[]): BaseTable {
  const chains = new Map<string, NftRule[]>();
  const ensure = (name: string): NftRule[] => {
    let rules = chains.get(name);
    if (!rules) chains.set(name, (rules = []));
    return rules;
  };
  for (const bc of BASE_CHAINS) ensure(bc.name);
  for (const [dst, src, ctNew] of JUMP_CHAINS) {
    ensure(dst);
    ensure(src).push({
      exprs: [...(ctNew ? [{ k: 'ct-state-new' as const }] : []), { k: 'jump', chain: dst }],
    });
  }
  for (const c of [SERVICES_CHAIN, CLUSTER_IPS_CHECK_CHAIN, MASQUERADING_CHAIN, MARK_MASQ_CHAIN]) ensure(c);
  const mark = MASQUERADE_MARK;
  ensure(MARK_MASQ_CHAIN).push({ exprs: [{ k: 'mark-set', op: 'or', value: mark }] });
  ensure(MASQUERADING_CHAIN).push(
    { exprs: [{ k: 'mark-unset', mask: mark }, { k: 'return' }] },
    { exprs: [{ k: 'mark-set', op: 'xor', value: mark }] },
    { exprs: [{ k: 'masquerade' }] },
  );
  ensure(CLUSTER_IPS_CHECK_CHAIN).push({
    exprs: [{ k: 'ip-in-set', field: 'daddr', set: CLUSTER_IPS_SET }, { k: 'reject' }],
    comment: 'Reject traffic to invalid ports of ClusterIPs',
  });
  if (serviceCIDRs.length > 0) {
    ensure(CLUSTER_IPS_CHECK_CHAIN).push({
      exprs: [{ k: 'ip-anon', field: 'daddr', op: '==', values: serviceCIDRs }, { k: 'drop' }],
      comment: 'Drop traffic to unallocated ClusterIPs',
    });
  }
  ensure(REJECT_CHAIN).push({ exprs: [{ k: 'reject' }] });
  ensure(SERVICE_ENDPOINTS_CHECK_CHAIN).push({
    exprs: [{ k: 'vmap', key: 'daddr-proto-port', map: NO_ENDPOINT_SERVICES_MAP }],
  });
  // nodePortAddresses defaults to the node's primary address in nftables mode (kubernetes#124383).
  ensure(NODEPORT_ENDPOINTS_CHECK_CHAIN).push({
    exprs: [
      { k: 'ip-in-set', field: 'daddr', set: NODEPORT_IPS_SET },
      { k: 'vmap', key: 'proto-port', map: NO_ENDPOINT_NODEPORTS_MAP },
    ],
  });
  ensure(FIREWALL_CHECK_CHAIN).push({
    exprs: [{ k: 'vmap', key: 'daddr-proto-port', map: FIREWALL_IPS_MAP }],
  });
  ensure(SERVICES_CHAIN).push(
    { exprs: [{ k: 'vmap', key: 'daddr-proto-port', map: SERVICE_IPS_MAP }] },
    {
      exprs: [
        { k: 'ip-in-set', field: 'daddr', set: NODEPORT_IPS_SET },
        { k: 'vmap', key: 'proto-port', map: SERVICE_NODEPORTS_MAP },
      ],
    },
  );

  const sets: NftSet[] = [
    { kind: 'set', name: CLUSTER_IPS_SET, type: 'ipv4_addr', comment: 'Active ClusterIPs', elements: [] },
    {
      kind: 'set',
      name: NODEPORT_IPS_SET,
      type: 'ipv4_addr',
      comment: 'IPs that accept NodePort traffic',
      elements: [{ key: [nodeIP] }],
    },
    {
      kind: 'map',
      name: NO_ENDPOINT_SERVICES_MAP,
      type: CONCAT_VERDICT,
      comment: 'vmap to drop or reject packets to services with no endpoints',
      elements: [],
    },
    {
      kind: 'map',
      name: NO_ENDPOINT_NODEPORTS_MAP,
      type: PORT_VERDICT,
      comment: 'vmap to drop or reject packets to service nodeports with no endpoints',
      elements: [],
    },
    {
      kind: 'map',
      name: FIREWALL_IPS_MAP,
      type: CONCAT_VERDICT,
      comment: 'destinations that are subject to LoadBalancerSourceRanges',
      elements: [],
    },
    {
      kind: 'map',
      name: SERVICE_IPS_MAP,
      type: CONCAT_VERDICT,
      comment: 'ClusterIP, ExternalIP and LoadBalancer IP traffic',
      elements: [],
    },
    {
      kind: 'map',
      name: SERVICE_NODEPORTS_MAP,
      type: PORT_VERDICT,
      comment: 'NodePort traffic',
      elements: [],
    },
  ];
  return { chains, sets };
}

/** The chain objects in creation order, base chains with their hook and reject-chain with its comment. */
export function toChains(chains: Map<string, NftRule[]>): NftChain[] {
  return [...chains].map(([name, rules]) => {
    const base = BASE_CHAINS.find((b) => b.name === name);
    return {
      name,
      ...(base ? { base: { type: base.type, hook: base.hook, priority: base.priority } } : {}),
      ...(name === REJECT_CHAIN
        ? { comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports' }
        : {}),
      rules,
    };
  });
}
