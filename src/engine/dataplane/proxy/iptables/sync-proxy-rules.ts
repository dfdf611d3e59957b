/**
 * kube-proxy's iptables mode, `syncProxyRules` (`pkg/proxy/iptables/proxier.go`, K-IPT) as a pure
 * function: from the proxy input to the restore input (the chains kube-proxy writes on a full sync),
 * and `renderIptables`, which applies it to a node's ruleset. Per-service rules come from
 * `service-rules.ts`; this file writes the fixed chains around them and keeps their order.
 *
 * Simplified: always a full sync (partial syncs write the same result); IPv4 only; the nfacct
 * counters of recent releases are left out, as on kernels without nfacct.
 */
import type { IptablesRule } from '../../netfilter/rule.ts';
import { comment, jump } from '../../netfilter/rule.ts';
import {
  applyIptablesRestore,
  type ChainWrite,
  type IptablesRestore,
} from '../../netfilter/iptables-restore.ts';
import { emptyRuleset, type IptablesRuleset } from '../../netfilter/ruleset.ts';
import { categorizeEndpoints, type CategorizedEndpoints } from '../categorize-endpoints.ts';
import { MASQUERADE_MARK, type ProxyInput } from '../proxy-input.ts';
import { keyOf } from '../service-port-map.ts';
import { sharedEndpoint, type EndpointInfo } from '../endpoints-map.ts';
import { isServiceChainName } from './chain-names.ts';
import {
  CANARY_TABLES,
  iptablesJumpRules,
  KUBE_EXTERNAL_SERVICES,
  KUBE_FIREWALL,
  KUBE_FORWARD,
  KUBE_MARK_MASQ,
  KUBE_NODEPORTS,
  KUBE_POSTROUTING,
  KUBE_PROXY_CANARY,
  KUBE_PROXY_FIREWALL,
  KUBE_SERVICES,
} from './jump-chains.ts';
import { serviceRules, type ServiceRuleContext, type ServiceRuleFragments } from './service-rules.ts';
import type { ServicePortInfo } from '../service-port-map.ts';

/** Above this many endpoints kube-proxy drops per-endpoint comments (`largeClusterEndpointsThreshold`). */
export const LARGE_CLUSTER_ENDPOINTS_THRESHOLD = 1000;

/**
 * Per-service fragments shared between the nodes of one render pass. serviceRules is a pure function
 * of the service port, its categorised endpoints and the context; most nodes see the same endpoint
 * objects (endpointsMapsByNode copies only a node's own), so they get the very same rules and chain
 * arrays, which keeps 50 nodes × 1,000 Services from holding 50 copies. Keys use object identity, so a
 * hit is always an input serviceRules has already seen. Rendered rules are never changed in place
 * (a restore replaces a chain's array), which makes the sharing safe.
 */
export class ServiceRulesMemo {
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;
  private readonly fragments = new Map<string, ServiceRuleFragments>();

  rules(sp: ServicePortInfo, cat: CategorizedEndpoints, ctx: ServiceRuleContext): ServiceRuleFragments {
    // serviceRules reads an endpoint's locality only through the categorised lists, which the key
    // holds; a node's local copy of an endpoint therefore stands for the shared original, and most
    // nodes get the very rules the first node got.
    const ids = (list: readonly EndpointInfo[]) => list.map((o) => this.id(sharedEndpoint(o))).join(',');
    const key = [
      this.id(sp),
      // The node's IP matters only for loadBalancerSourceRanges.
      sp.loadBalancerSourceRanges.length > 0 ? ctx.nodeIP : '',
      ctx.clusterCIDR ?? '',
      ctx.masqueradeAll,
      ctx.largeClusterMode,
      cat.hasAnyEndpoints,
      ids(cat.clusterEndpoints),
      ids(cat.localEndpoints),
      ids(cat.allReachableEndpoints),
    ].join('|');
    let f = this.fragments.get(key);
    if (!f) this.fragments.set(key, (f = serviceRules(sp, cat, ctx)));
    return f;
  }

  private id(o: object): number {
    let id = this.ids.get(o);
    if (id === undefined) this.ids.set(o, (id = ++this.nextId));
    return id;
  }
}

export function syncIptablesRules(input: ProxyInput, memo?: ServiceRulesMemo): IptablesRestore {
  const mark = MASQUERADE_MARK;
  let totalEndpoints = 0;
  for (const sp of input.servicePorts) totalEndpoints += input.endpoints.get(keyOf(sp))?.length ?? 0;
  const ctx = {
    nodeIP: input.node.ip,
    ...(input.clusterCIDR ? { clusterCIDR: input.clusterCIDR } : {}),
    masqueradeAll: input.masqueradeAll ?? false,
    largeClusterMode: totalEndpoints > LARGE_CLUSTER_ENDPOINTS_THRESHOLD,
  };

  const filter = {
    services: [] as IptablesRule[],
    external: [] as IptablesRule[],
    forward: [] as IptablesRule[],
    nodeports: [] as IptablesRule[],
    firewall: [] as IptablesRule[],
  };
  const nat = { services: [] as IptablesRule[], nodeports: [] as IptablesRule[] };
  const serviceChains: ChainWrite[] = [];

  for (const sp of input.servicePorts) {
    const cat = categorizeEndpoints(
      input.endpoints.get(keyOf(sp)) ?? [],
      sp,
      input.node.name,
      input.node.labels,
    );
    const f = memo ? memo.rules(sp, cat, ctx) : serviceRules(sp, cat, ctx);
    nat.services.push(...f.natServices);
    nat.nodeports.push(...f.natNodePorts);
    filter.services.push(...f.filterServices);
    filter.external.push(...f.filterExternalServices);
    filter.nodeports.push(...f.filterNodePorts);
    filter.firewall.push(...f.filterFirewall);
    for (const [chain, rules] of f.natChains) serviceChains.push({ table: 'nat', chain, rules });
  }

  // The nodeports jump must be the last rule of KUBE-SERVICES. localhost NodePorts are on by default
  // (route_localnet), so no `! -d 127.0.0.0/8` exclusion.
  nat.services.push({
    matches: [
      comment('kubernetes service nodeports; NOTE: this must be the last rule in this chain'),
      { kind: 'addrtype', dstType: 'LOCAL' },
    ],
    target: jump(KUBE_NODEPORTS),
  });

  filter.forward.push(
    { matches: [{ kind: 'conntrack', ctstate: ['INVALID'] }], target: { kind: 'DROP' } },
    {
      matches: [comment('kubernetes forwarding rules'), { kind: 'mark', value: mark, mask: mark }],
      target: { kind: 'ACCEPT' },
    },
    {
      matches: [
        comment('kubernetes forwarding conntrack rule'),
        { kind: 'conntrack', ctstate: ['RELATED', 'ESTABLISHED'] },
      ],
      target: { kind: 'ACCEPT' },
    },
  );

  const postrouting: IptablesRule[] = [
    { matches: [{ kind: 'mark', value: mark, mask: mark, negate: true }], target: { kind: 'RETURN' } },
    // Clear the mark so a packet that re-traverses the stack is not masqueraded twice.
    { matches: [], target: { kind: 'MARK', op: 'xor', value: mark } },
    {
      matches: [comment('kubernetes service traffic requiring SNAT')],
      target: { kind: 'MASQUERADE', randomFully: true },
    },
  ];
  // route_localnet opens a hole (https://issue.k8s.io/90259) that this kubelet-identical rule closes.
  const localnet: IptablesRule = {
    source: { cidr: '127.0.0.0/8', negate: true },
    destination: { cidr: '127.0.0.0/8' },
    matches: [
      comment('block incoming localnet connections'),
      { kind: 'conntrack', ctstate: ['RELATED', 'ESTABLISHED', 'DNAT'], negate: true },
    ],
    target: { kind: 'DROP' },
  };

  const chains: ChainWrite[] = [
    { table: 'filter', chain: KUBE_SERVICES, rules: filter.services },
    { table: 'filter', chain: KUBE_EXTERNAL_SERVICES, rules: filter.external },
    { table: 'filter', chain: KUBE_FORWARD, rules: filter.forward },
    { table: 'filter', chain: KUBE_NODEPORTS, rules: filter.nodeports },
    { table: 'filter', chain: KUBE_PROXY_FIREWALL, rules: filter.firewall },
    { table: 'filter', chain: KUBE_FIREWALL, rules: [localnet] },
    { table: 'nat', chain: KUBE_SERVICES, rules: nat.services },
    { table: 'nat', chain: KUBE_NODEPORTS, rules: nat.nodeports },
    { table: 'nat', chain: KUBE_POSTROUTING, rules: postrouting },
    {
      table: 'nat',
      chain: KUBE_MARK_MASQ,
      rules: [{ matches: [], target: { kind: 'MARK', op: 'or', value: mark } }],
    },
    ...serviceChains,
  ];

  return {
    jumps: iptablesJumpRules(),
    ensureChains: CANARY_TABLES.map((table) => ({ table, chain: KUBE_PROXY_CANARY })),
    chains,
    deleteStale: { table: 'nat', isStale: isServiceChainName },
  };
}

/** Applies one sync to a node's ruleset (a fresh one when none is given) and returns it. */
export function renderIptables(input: ProxyInput, node: IptablesRuleset = emptyRuleset()): IptablesRuleset {
  applyIptablesRestore(node, syncIptablesRules(input));
  return node;
}
