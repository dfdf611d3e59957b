/**
 * The iptables rules of one service port, as small pure functions in the order `syncProxyRules`
 * writes them (`pkg/proxy/iptables/proxier.go`, K-IPT). Each returns rule fragments for the shared
 * top-level chains (KUBE-SERVICES, KUBE-NODEPORTS, the filter chains) and the content of the service's
 * own chains (KUBE-SVC-, KUBE-SVL-, KUBE-EXT-, KUBE-FW-, KUBE-SEP-).
 */
import type { IptablesRule, Match, Target } from '../../netfilter/rule.ts';
import { comment, jump } from '../../netfilter/rule.ts';
import type { CategorizedEndpoints } from '../categorize-endpoints.ts';
import type { EndpointInfo } from '../endpoints-map.ts';
import {
  externallyAccessible,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type ServicePortInfo,
} from '../service-port-map.ts';
import {
  serviceExternalChainName,
  serviceFirewallChainName,
  servicePortEndpointChainName,
  servicePortPolicyClusterChain,
  servicePortPolicyLocalChainName,
} from './chain-names.ts';
import { KUBE_MARK_MASQ } from './jump-chains.ts';
import { computeProbability } from './probability.ts';
import { cidrContainsText } from '../../../util/ip.ts';

export interface ServiceRuleContext {
  readonly nodeIP: string;
  /** Cluster CIDR of the local-traffic detector, if one is configured. */
  readonly clusterCIDR?: string;
  readonly masqueradeAll: boolean;
  /** More than 1000 endpoints in total: kube-proxy drops per-endpoint comments. */
  readonly largeClusterMode: boolean;
}

export interface ServiceRuleFragments {
  readonly natServices: IptablesRule[];
  readonly natNodePorts: IptablesRule[];
  readonly filterServices: IptablesRule[];
  readonly filterExternalServices: IptablesRule[];
  readonly filterNodePorts: IptablesRule[];
  readonly filterFirewall: IptablesRule[];
  /** The service's own nat chains, in the order kube-proxy declares them. */
  readonly natChains: Map<string, IptablesRule[]>;
}

type Proto = 'tcp' | 'udp' | 'sctp';

function l4(proto: Proto, dport?: number): Match {
  return dport === undefined ? { kind: 'l4', proto } : { kind: 'l4', proto, dport };
}

function portRule(
  c: string,
  proto: Proto,
  dest: string | undefined,
  dport: number,
  target: Target,
  extra: Match[] = [],
): IptablesRule {
  return {
    ...(dest ? { destination: { cidr: dest } } : {}),
    protocol: proto,
    matches: [comment(c), ...extra, l4(proto, dport)],
    target,
  };
}

/** Endpoint chains of a service port, keyed for lookups by the tracer. */
export function endpointChainName(sp: ServicePortInfo, ep: EndpointInfo): string {
  return servicePortEndpointChainName(sp.nameString, sp.protocol.toLowerCase(), ep.endpoint);
}

export function serviceRules(
  sp: ServicePortInfo,
  cat: CategorizedEndpoints,
  ctx: ServiceRuleContext,
): ServiceRuleFragments {
  const proto = sp.protocol.toLowerCase() as Proto;
  const name = sp.nameString;
  const clusterPolicyChain = servicePortPolicyClusterChain(name, proto);
  const localPolicyChain = servicePortPolicyLocalChainName(name, proto);
  const externalTrafficChain = serviceExternalChainName(name, proto);
  const fwChain = serviceFirewallChainName(name, proto);
  const { clusterEndpoints, localEndpoints, allReachableEndpoints, hasAnyEndpoints: hasEndpoints } = cat;

  const usesClusterPolicyChain = clusterEndpoints.length > 0 && usesClusterEndpoints(sp);
  const usesLocalPolicyChain = localEndpoints.length > 0 && usesLocalEndpoints(sp);
  const internalTrafficChain = sp.internalPolicyLocal ? localPolicyChain : clusterPolicyChain;
  const hasInternalEndpoints = hasEndpoints && !(sp.internalPolicyLocal && localEndpoints.length === 0);
  const externalPolicyChain = sp.externalPolicyLocal ? localPolicyChain : clusterPolicyChain;
  const hasExternalEndpoints = hasEndpoints && !(sp.externalPolicyLocal && localEndpoints.length === 0);
  const usesExternalTrafficChain = hasEndpoints && externallyAccessible(sp);
  const usesFWChain =
    hasEndpoints && sp.loadBalancerVIPs.length > 0 && sp.loadBalancerSourceRanges.length > 0;
  const loadBalancerTrafficChain = usesFWChain ? fwChain : externalTrafficChain;

  let internalFilter: { target: Target; comment: string } | undefined;
  let externalFilter: { target: Target; comment: string } | undefined;
  if (!hasEndpoints) {
    internalFilter = externalFilter = { target: { kind: 'REJECT' }, comment: `${name} has no endpoints` };
  } else {
    if (!hasInternalEndpoints)
      internalFilter = { target: { kind: 'DROP' }, comment: `${name} has no local endpoints` };
    if (!hasExternalEndpoints)
      externalFilter = { target: { kind: 'DROP' }, comment: `${name} has no local endpoints` };
  }

  const f: ServiceRuleFragments = {
    natServices: [],
    natNodePorts: [],
    filterServices: [],
    filterExternalServices: [],
    filterNodePorts: [],
    filterFirewall: [],
    natChains: new Map(),
  };

  // Capture the clusterIP.
  if (hasInternalEndpoints) {
    f.natServices.push(
      portRule(`${name} cluster IP`, proto, sp.clusterIP, sp.port, jump(internalTrafficChain)),
    );
  } else if (internalFilter) {
    f.filterServices.push(
      portRule(internalFilter.comment, proto, sp.clusterIP, sp.port, internalFilter.target),
    );
  }
  // Capture externalIPs.
  for (const ip of sp.externalIPs) {
    if (hasEndpoints)
      f.natServices.push(portRule(`${name} external IP`, proto, ip, sp.port, jump(externalTrafficChain)));
    if (externalFilter)
      f.filterExternalServices.push(
        portRule(externalFilter.comment, proto, ip, sp.port, externalFilter.target),
      );
  }
  // Capture load-balancer ingress.
  for (const ip of sp.loadBalancerVIPs) {
    if (hasEndpoints)
      f.natServices.push(
        portRule(`${name} loadbalancer IP`, proto, ip, sp.port, jump(loadBalancerTrafficChain)),
      );
    if (usesFWChain) {
      f.filterFirewall.push(
        portRule(`${name} traffic not accepted by ${fwChain}`, proto, ip, sp.port, { kind: 'DROP' }),
      );
    }
  }
  if (externalFilter) {
    for (const ip of sp.loadBalancerVIPs) {
      f.filterExternalServices.push(
        portRule(externalFilter.comment, proto, ip, sp.port, externalFilter.target),
      );
    }
  }
  // Capture nodeports.
  if (sp.nodePort !== 0) {
    if (hasEndpoints)
      f.natNodePorts.push(portRule(name, proto, undefined, sp.nodePort, jump(externalTrafficChain)));
    if (externalFilter) {
      f.filterExternalServices.push(
        portRule(externalFilter.comment, proto, undefined, sp.nodePort, externalFilter.target, [
          { kind: 'addrtype', dstType: 'LOCAL' },
        ]),
      );
    }
  }
  // Health check node ports are accepted whether or not this node has local endpoints.
  if (sp.healthCheckNodePort !== 0) {
    f.filterNodePorts.push(
      portRule(`${name} health check node port`, 'tcp', undefined, sp.healthCheckNodePort, {
        kind: 'ACCEPT',
      }),
    );
  }

  const chain = (n: string): IptablesRule[] => {
    let rules = f.natChains.get(n);
    if (!rules) f.natChains.set(n, (rules = []));
    return rules;
  };
  // The policy chains are declared first so the internal-traffic masquerade rule lands at their top.
  if (usesClusterPolicyChain) chain(clusterPolicyChain);
  if (usesLocalPolicyChain) chain(localPolicyChain);

  if (hasInternalEndpoints) {
    const masq = portRule(`${name} cluster IP`, proto, sp.clusterIP, sp.port, jump(KUBE_MARK_MASQ));
    if (ctx.masqueradeAll) chain(internalTrafficChain).push(masq);
    else if (ctx.clusterCIDR)
      chain(internalTrafficChain).push({ ...masq, source: { cidr: ctx.clusterCIDR, negate: true } });
  }

  if (usesExternalTrafficChain) {
    const ext = chain(externalTrafficChain);
    if (!sp.externalPolicyLocal) {
      ext.push({
        matches: [comment(`masquerade traffic for ${name} external destinations`)],
        target: jump(KUBE_MARK_MASQ),
      });
    } else {
      if (ctx.clusterCIDR) {
        ext.push({
          source: { cidr: ctx.clusterCIDR },
          matches: [comment(`pod traffic for ${name} external destinations`)],
          target: jump(clusterPolicyChain),
        });
      }
      ext.push({
        matches: [
          comment(`masquerade LOCAL traffic for ${name} external destinations`),
          { kind: 'addrtype', srcType: 'LOCAL' },
        ],
        target: jump(KUBE_MARK_MASQ),
      });
      ext.push({
        matches: [
          comment(`route LOCAL traffic for ${name} external destinations`),
          { kind: 'addrtype', srcType: 'LOCAL' },
        ],
        target: jump(clusterPolicyChain),
      });
    }
    if (hasExternalEndpoints) ext.push({ matches: [], target: jump(externalPolicyChain) });
  }

  if (usesFWChain) {
    const fw = chain(fwChain);
    const c = comment(`${name} loadbalancer IP`);
    let allowFromNode = false;
    for (const cidr of sp.loadBalancerSourceRanges) {
      fw.push({ source: { cidr }, matches: [c], target: jump(externalTrafficChain) });
      if (cidrContainsText(cidr, ctx.nodeIP)) allowFromNode = true;
    }
    // VIP-like load balancers loop node-originated requests back with the VIP as source.
    if (allowFromNode) {
      for (const ip of sp.loadBalancerVIPs)
        fw.push({ source: { cidr: ip }, matches: [c], target: jump(externalTrafficChain) });
    }
    fw.push({ matches: [comment(`other traffic to ${name} will be dropped by KUBE-PROXY-FIREWALL`)] });
  }

  if (usesClusterPolicyChain)
    chain(clusterPolicyChain).push(...serviceToEndpointRules(sp, clusterEndpoints, ctx));
  if (usesLocalPolicyChain) chain(localPolicyChain).push(...serviceToEndpointRules(sp, localEndpoints, ctx));

  for (const ep of allReachableEndpoints) {
    const sep = endpointChainName(sp, ep);
    const c: Match[] = ctx.largeClusterMode ? [] : [comment(name)];
    const rules = chain(sep);
    rules.push({ source: { cidr: ep.ip }, matches: c, target: jump(KUBE_MARK_MASQ) });
    const affinity: Match[] = sp.sessionAffinityClientIP ? [{ kind: 'recent', name: sep, mode: 'set' }] : [];
    rules.push({
      protocol: proto,
      matches: [...c, ...affinity, l4(proto)],
      target: { kind: 'DNAT', to: ep.endpoint },
    });
  }
  return f;
}

/** `writeServiceToEndpointRules`: affinity checks first, then one probabilistic jump per endpoint. */
function serviceToEndpointRules(
  sp: ServicePortInfo,
  endpoints: readonly EndpointInfo[],
  ctx: ServiceRuleContext,
): IptablesRule[] {
  const rules: IptablesRule[] = [];
  const note = (ep: EndpointInfo): Match[] =>
    ctx.largeClusterMode ? [] : [comment(`${sp.nameString} -> ${ep.endpoint}`)];
  if (sp.sessionAffinityClientIP) {
    for (const ep of endpoints) {
      const sep = endpointChainName(sp, ep);
      rules.push({
        matches: [
          ...note(ep),
          { kind: 'recent', name: sep, mode: 'rcheck', seconds: sp.stickyMaxAgeSeconds, reap: true },
        ],
        target: jump(sep),
      });
    }
  }
  const n = endpoints.length;
  endpoints.forEach((ep, i) => {
    const stat: Match[] = i < n - 1 ? [{ kind: 'statistic', probability: computeProbability(n - i) }] : [];
    rules.push({ matches: [...note(ep), ...stat], target: jump(endpointChainName(sp, ep)) });
  });
  return rules;
}
