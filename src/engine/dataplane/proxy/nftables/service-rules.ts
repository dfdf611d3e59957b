/**
 * The nftables rules of one service port, in the order `syncProxyRules` adds them
 * (`pkg/proxy/nftables/proxier.go` at the v1.35 line): map elements for the dispatch and no-endpoint
 * maps, and the service's own chains — `service-`, `local-`, `external-`, `firewall-`, `endpoint-` —
 * plus its `affinity-` sets. Since kubernetes#131492 the ClusterIP masquerade rule matches only the
 * address (`ip daddr X ip saddr != podCIDR`), no longer the port.
 */
import { cidrContainsText } from '../../../util/ip.ts';
import type { NftElement, NftExpr, NftRule, NftSet } from '../../netfilter/nft-model.ts';
import type { CategorizedEndpoints } from '../categorize-endpoints.ts';
import type { EndpointInfo } from '../endpoints-map.ts';
import {
  externallyAccessible,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type ServicePortInfo,
} from '../service-port-map.ts';
import {
  CLUSTER_IPS_SET,
  FIREWALL_IPS_MAP,
  MARK_MASQ_CHAIN,
  NO_ENDPOINT_NODEPORTS_MAP,
  NO_ENDPOINT_SERVICES_MAP,
  REJECT_CHAIN,
  SERVICE_IPS_MAP,
  SERVICE_NODEPORTS_MAP,
} from './base-chains.ts';
import {
  AFFINITY_SET_PREFIX,
  ENDPOINT_CHAIN_PREFIX,
  EXTERNAL_CHAIN_PREFIX,
  FIREWALL_CHAIN_PREFIX,
  LOCAL_CHAIN_PREFIX,
  SERVICE_CHAIN_PREFIX,
  servicePortChainNameBase,
  servicePortEndpointChainNameBase,
} from './chain-names.ts';

export interface NftServiceContext {
  readonly clusterCIDR?: string;
  readonly masqueradeAll: boolean;
  readonly nodeIP: string;
}

export interface NftServiceFragments {
  /** Map or set name → elements to add. */
  readonly elements: Map<string, NftElement[]>;
  /** The service's chains in the order they are created. */
  readonly chains: Map<string, NftRule[]>;
  readonly affinitySets: NftSet[];
}

type Proto = 'tcp' | 'udp' | 'sctp';

export function endpointChainBase(sp: ServicePortInfo, ep: EndpointInfo): string {
  return servicePortEndpointChainNameBase(
    sp.namespace,
    sp.name,
    sp.protocol.toLowerCase(),
    sp.portName,
    ep.endpoint,
  );
}

export function nftServiceRules(
  sp: ServicePortInfo,
  cat: CategorizedEndpoints,
  ctx: NftServiceContext,
): NftServiceFragments {
  const proto = sp.protocol.toLowerCase() as Proto;
  const base = servicePortChainNameBase(sp.namespace, sp.name, proto, sp.portName);
  const clusterPolicyChain = SERVICE_CHAIN_PREFIX + base;
  const localPolicyChain = LOCAL_CHAIN_PREFIX + base;
  const externalTrafficChain = EXTERNAL_CHAIN_PREFIX + base;
  const fwChain = FIREWALL_CHAIN_PREFIX + base;
  const { clusterEndpoints, localEndpoints, allReachableEndpoints, hasAnyEndpoints: hasEndpoints } = cat;
  const port = String(sp.port);

  const f: NftServiceFragments = { elements: new Map(), chains: new Map(), affinitySets: [] };
  const add = (map: string, e: NftElement) => {
    let list = f.elements.get(map);
    if (!list) f.elements.set(map, (list = []));
    list.push(e);
  };
  const chain = (name: string): NftRule[] => {
    let rules = f.chains.get(name);
    if (!rules) f.chains.set(name, (rules = []));
    return rules;
  };

  // ensureChain order: endpoint chains, then the policy chains, then external, then firewall.
  for (const ep of allReachableEndpoints) chain(ENDPOINT_CHAIN_PREFIX + endpointChainBase(sp, ep));
  const usesClusterPolicyChain = clusterEndpoints.length > 0 && usesClusterEndpoints(sp);
  if (usesClusterPolicyChain) chain(clusterPolicyChain);
  const usesLocalPolicyChain = localEndpoints.length > 0 && usesLocalEndpoints(sp);
  if (usesLocalPolicyChain) chain(localPolicyChain);

  const internalTrafficChain = sp.internalPolicyLocal ? localPolicyChain : clusterPolicyChain;
  const hasInternalEndpoints = hasEndpoints && !(sp.internalPolicyLocal && localEndpoints.length === 0);
  const externalPolicyChain = sp.externalPolicyLocal ? localPolicyChain : clusterPolicyChain;
  const hasExternalEndpoints = hasEndpoints && !(sp.externalPolicyLocal && localEndpoints.length === 0);
  const usesExternalTrafficChain = hasEndpoints && externallyAccessible(sp);
  if (usesExternalTrafficChain) chain(externalTrafficChain);

  let internalVerdict: string | undefined;
  let externalVerdict: string | undefined;
  if (!hasEndpoints) internalVerdict = externalVerdict = `goto ${REJECT_CHAIN}`;
  else {
    if (!hasInternalEndpoints) internalVerdict = 'drop';
    if (!hasExternalEndpoints) externalVerdict = 'drop';
  }

  add(CLUSTER_IPS_SET, { key: [sp.clusterIP] });
  if (hasInternalEndpoints)
    add(SERVICE_IPS_MAP, { key: [sp.clusterIP, proto, port], value: `goto ${internalTrafficChain}` });
  else if (internalVerdict)
    add(NO_ENDPOINT_SERVICES_MAP, {
      key: [sp.clusterIP, proto, port],
      value: internalVerdict,
      comment: sp.nameString,
    });

  for (const ip of sp.externalIPs) {
    if (hasEndpoints) add(SERVICE_IPS_MAP, { key: [ip, proto, port], value: `goto ${externalTrafficChain}` });
    if (externalVerdict)
      add(NO_ENDPOINT_SERVICES_MAP, {
        key: [ip, proto, port],
        value: externalVerdict,
        comment: sp.nameString,
      });
  }
  const usesFWChain = sp.loadBalancerVIPs.length > 0 && sp.loadBalancerSourceRanges.length > 0;
  if (usesFWChain) chain(fwChain);
  for (const ip of sp.loadBalancerVIPs) {
    if (hasEndpoints) add(SERVICE_IPS_MAP, { key: [ip, proto, port], value: `goto ${externalTrafficChain}` });
    if (usesFWChain) add(FIREWALL_IPS_MAP, { key: [ip, proto, port], value: `goto ${fwChain}` });
  }
  if (externalVerdict) {
    for (const ip of sp.loadBalancerVIPs) {
      add(NO_ENDPOINT_SERVICES_MAP, {
        key: [ip, proto, port],
        value: externalVerdict,
        comment: sp.nameString,
      });
    }
  }
  if (sp.nodePort !== 0) {
    const np = String(sp.nodePort);
    // NodePorts are not subject to loadBalancerSourceRanges, "for better or for worse".
    if (hasEndpoints) add(SERVICE_NODEPORTS_MAP, { key: [proto, np], value: `goto ${externalTrafficChain}` });
    if (externalVerdict)
      add(NO_ENDPOINT_NODEPORTS_MAP, { key: [proto, np], value: externalVerdict, comment: sp.nameString });
  }

  const jumpMasq: NftExpr = { k: 'jump', chain: MARK_MASQ_CHAIN };
  if (hasInternalEndpoints) {
    const daddr: NftExpr = { k: 'ip', field: 'daddr', op: '==', value: sp.clusterIP };
    if (ctx.masqueradeAll) chain(internalTrafficChain).push({ exprs: [daddr, jumpMasq] });
    else if (ctx.clusterCIDR) {
      chain(internalTrafficChain).push({
        exprs: [daddr, { k: 'ip', field: 'saddr', op: '!=', value: ctx.clusterCIDR }, jumpMasq],
      });
    }
  }

  if (usesExternalTrafficChain) {
    const ext = chain(externalTrafficChain);
    if (!sp.externalPolicyLocal) ext.push({ exprs: [jumpMasq] });
    else {
      if (ctx.clusterCIDR) {
        ext.push({
          exprs: [
            { k: 'ip', field: 'saddr', op: '==', value: ctx.clusterCIDR },
            { k: 'goto', chain: clusterPolicyChain },
          ],
          comment: 'short-circuit pod traffic',
        });
      }
      ext.push({
        exprs: [{ k: 'fib-local', field: 'saddr' }, jumpMasq],
        comment: 'masquerade local traffic',
      });
      ext.push({
        exprs: [
          { k: 'fib-local', field: 'saddr' },
          { k: 'goto', chain: clusterPolicyChain },
        ],
        comment: 'short-circuit local traffic',
      });
    }
    if (hasExternalEndpoints) ext.push({ exprs: [{ k: 'goto', chain: externalPolicyChain }] });
  }

  if (usesFWChain) {
    const sources = [...sp.loadBalancerSourceRanges];
    // VIP-like load balancers loop node-originated requests back with the VIP as source.
    if (sp.loadBalancerSourceRanges.some((c) => cidrContainsText(c, ctx.nodeIP)))
      sources.push(...sp.loadBalancerVIPs);
    chain(fwChain).push({
      exprs: [{ k: 'ip-anon', field: 'saddr', op: '!=', values: sources }, { k: 'drop' }],
    });
  }

  if (sp.sessionAffinityClientIP) {
    for (const ep of allReachableEndpoints) {
      f.affinitySets.push({
        kind: 'set',
        name: AFFINITY_SET_PREFIX + endpointChainBase(sp, ep),
        type: 'ipv4_addr',
        flags: ['dynamic', 'timeout'],
        timeoutSeconds: sp.stickyMaxAgeSeconds,
        elements: [],
      });
    }
  }
  if (usesClusterPolicyChain) chain(clusterPolicyChain).push(...serviceToEndpointRules(sp, clusterEndpoints));
  if (usesLocalPolicyChain) chain(localPolicyChain).push(...serviceToEndpointRules(sp, localEndpoints));

  for (const ep of allReachableEndpoints) {
    const base = endpointChainBase(sp, ep);
    const rules = chain(ENDPOINT_CHAIN_PREFIX + base);
    rules.push({ exprs: [{ k: 'ip', field: 'saddr', op: '==', value: ep.ip }, jumpMasq] });
    if (sp.sessionAffinityClientIP) rules.push({ exprs: [{ k: 'update', set: AFFINITY_SET_PREFIX + base }] });
    rules.push({
      exprs: [
        { k: 'l4proto', proto },
        { k: 'dnat', to: ep.endpoint },
      ],
    });
  }
  return f;
}

function serviceToEndpointRules(sp: ServicePortInfo, endpoints: readonly EndpointInfo[]): NftRule[] {
  const rules: NftRule[] = [];
  if (sp.sessionAffinityClientIP) {
    for (const ep of endpoints) {
      const base = endpointChainBase(sp, ep);
      rules.push({
        exprs: [
          { k: 'ip-in-set', field: 'saddr', set: AFFINITY_SET_PREFIX + base },
          { k: 'goto', chain: ENDPOINT_CHAIN_PREFIX + base },
        ],
      });
    }
  }
  rules.push({
    exprs: [
      { k: 'numgen', targets: endpoints.map((ep) => ENDPOINT_CHAIN_PREFIX + endpointChainBase(sp, ep)) },
    ],
  });
  return rules;
}
