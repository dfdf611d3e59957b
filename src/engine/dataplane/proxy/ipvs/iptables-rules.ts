/**
 * The iptables rules IPVS-mode kube-proxy still writes (`writeIptablesRules`, `iptablesJumpChain`,
 * `ipsetWithIptablesChain` and `acceptIPVSTraffic` in `pkg/proxy/ipvs/proxier.go`): masquerade marks
 * driven by ipset matches, NodePort and load-balancer handling, the source-range firewall and the
 * KUBE-IPVS-FILTER that keeps host ports unreachable through service addresses (kubernetes#72236).
 * A rule matching an ipset is written only when the set has entries, as upstream does.
 */
import type { IptablesRule, IptablesTableName, Match } from '../../netfilter/rule.ts';
import { comment, jump } from '../../netfilter/rule.ts';
import type { ChainWrite, IptablesRestore, JumpRule } from '../../netfilter/iptables-restore.ts';
import { MASQUERADE_MARK } from '../proxy-input.ts';
import {
  IPSETS,
  KUBE_CLUSTER_IP,
  KUBE_EXTERNAL_IP,
  KUBE_EXTERNAL_IP_LOCAL,
  KUBE_HEALTH_CHECK_NODE_PORT,
  KUBE_IPVS_IPS,
  KUBE_LOAD_BALANCER,
  KUBE_LOAD_BALANCER_FW,
  KUBE_LOAD_BALANCER_LOCAL,
  KUBE_LOAD_BALANCER_SOURCE_CIDR,
  KUBE_LOAD_BALANCER_SOURCE_IP,
  KUBE_LOOP_BACK,
  KUBE_NODE_PORT_LOCAL_SCTP,
  KUBE_NODE_PORT_LOCAL_TCP,
  KUBE_NODE_PORT_LOCAL_UDP,
  KUBE_NODE_PORT_SCTP,
  KUBE_NODE_PORT_TCP,
  KUBE_NODE_PORT_UDP,
  type IpsetState,
} from './ipsets.ts';

const KUBE_SERVICES = 'KUBE-SERVICES';
const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
const KUBE_NODE_PORT = 'KUBE-NODE-PORT';
const KUBE_LOAD_BALANCER_CHAIN = 'KUBE-LOAD-BALANCER';
const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
const KUBE_FORWARD = 'KUBE-FORWARD';
const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
const KUBE_SOURCE_RANGES_FIREWALL = 'KUBE-SOURCE-RANGES-FIREWALL';
const KUBE_IPVS_FILTER = 'KUBE-IPVS-FILTER';
const KUBE_IPVS_OUT_FILTER = 'KUBE-IPVS-OUT-FILTER';

/** Every chain IPVS mode writes, in `iptablesChains` order (also what its cleanup removes). */
export const IPVS_IPTABLES_CHAINS: readonly [IptablesTableName, string][] = [
  ['nat', KUBE_SERVICES],
  ['nat', KUBE_POSTROUTING],
  ['nat', KUBE_NODE_PORT],
  ['nat', KUBE_LOAD_BALANCER_CHAIN],
  ['nat', KUBE_MARK_MASQ],
  ['filter', KUBE_FORWARD],
  ['filter', KUBE_NODE_PORT],
  ['filter', KUBE_PROXY_FIREWALL],
  ['filter', KUBE_SOURCE_RANGES_FIREWALL],
  ['filter', KUBE_IPVS_FILTER],
  ['filter', KUBE_IPVS_OUT_FILTER],
];

const JUMPS: readonly [IptablesTableName, string, string, string][] = [
  ['nat', 'OUTPUT', KUBE_SERVICES, 'kubernetes service portals'],
  ['nat', 'PREROUTING', KUBE_SERVICES, 'kubernetes service portals'],
  ['nat', 'POSTROUTING', KUBE_POSTROUTING, 'kubernetes postrouting rules'],
  ['filter', 'FORWARD', KUBE_FORWARD, 'kubernetes forwarding rules'],
  ['filter', 'INPUT', KUBE_NODE_PORT, 'kubernetes health check rules'],
  ['filter', 'INPUT', KUBE_PROXY_FIREWALL, 'kube-proxy firewall rules'],
  ['filter', 'FORWARD', KUBE_PROXY_FIREWALL, 'kube-proxy firewall rules'],
  ['filter', 'INPUT', KUBE_IPVS_FILTER, 'kubernetes ipvs access filter'],
  ['filter', 'OUTPUT', KUBE_IPVS_OUT_FILTER, 'kubernetes ipvs access filter'],
];

/** [set, table, from, to, match flags, -p] in `ipsetWithIptablesChain` order. */
const SET_RULES: readonly [string, IptablesTableName, string, string, string, ('tcp' | 'udp' | 'sctp')?][] = [
  [KUBE_LOOP_BACK, 'nat', KUBE_POSTROUTING, 'MASQUERADE', 'dst,dst,src'],
  [KUBE_LOAD_BALANCER, 'nat', KUBE_SERVICES, KUBE_LOAD_BALANCER_CHAIN, 'dst,dst'],
  [KUBE_LOAD_BALANCER_LOCAL, 'nat', KUBE_LOAD_BALANCER_CHAIN, 'RETURN', 'dst,dst'],
  [KUBE_NODE_PORT_LOCAL_TCP, 'nat', KUBE_NODE_PORT, 'RETURN', 'dst', 'tcp'],
  [KUBE_NODE_PORT_TCP, 'nat', KUBE_NODE_PORT, KUBE_MARK_MASQ, 'dst', 'tcp'],
  [KUBE_NODE_PORT_LOCAL_UDP, 'nat', KUBE_NODE_PORT, 'RETURN', 'dst', 'udp'],
  [KUBE_NODE_PORT_UDP, 'nat', KUBE_NODE_PORT, KUBE_MARK_MASQ, 'dst', 'udp'],
  [KUBE_NODE_PORT_LOCAL_SCTP, 'nat', KUBE_NODE_PORT, 'RETURN', 'dst,dst', 'sctp'],
  [KUBE_NODE_PORT_SCTP, 'nat', KUBE_NODE_PORT, KUBE_MARK_MASQ, 'dst,dst', 'sctp'],
  [KUBE_LOAD_BALANCER_FW, 'filter', KUBE_PROXY_FIREWALL, KUBE_SOURCE_RANGES_FIREWALL, 'dst,dst'],
  [KUBE_LOAD_BALANCER_SOURCE_CIDR, 'filter', KUBE_SOURCE_RANGES_FIREWALL, 'RETURN', 'dst,dst,src'],
  [KUBE_LOAD_BALANCER_SOURCE_IP, 'filter', KUBE_SOURCE_RANGES_FIREWALL, 'RETURN', 'dst,dst,src'],
];

function setMatch(name: string, flags: string): Match {
  return { kind: 'set', name, flags };
}

function commentOf(set: string): Match {
  return comment(IPSETS.find((s) => s.name === set)?.comment ?? set);
}

function target(to: string): IptablesRule['target'] {
  return to === 'RETURN' || to === 'ACCEPT' || to === 'DROP'
    ? { kind: to }
    : to === 'MASQUERADE'
      ? { kind: 'MASQUERADE' }
      : jump(to);
}

export function ipvsIptablesRestore(
  sets: IpsetState,
  clusterCIDR: string | undefined,
  masqueradeAll: boolean,
): IptablesRestore {
  const rules = new Map<string, IptablesRule[]>(IPVS_IPTABLES_CHAINS.map(([t, c]) => [`${t}/${c}`, []]));
  const push = (table: IptablesTableName, chain: string, r: IptablesRule) =>
    rules.get(`${table}/${chain}`)?.push(r);
  const nonEmpty = (name: string) => (sets.get(name)?.size ?? 0) > 0;
  const mark = MASQUERADE_MARK;

  // Connections to localhost return early.
  push('nat', KUBE_SERVICES, { source: { cidr: '127.0.0.0/8' }, matches: [], target: { kind: 'RETURN' } });
  for (const [set, table, from, to, flags, proto] of SET_RULES) {
    if (!nonEmpty(set)) continue;
    push(table, from, {
      ...(proto ? { protocol: proto } : {}),
      matches: [commentOf(set), setMatch(set, flags)],
      target: target(to),
    });
  }
  if (nonEmpty(KUBE_CLUSTER_IP)) {
    const base = [commentOf(KUBE_CLUSTER_IP)];
    if (masqueradeAll)
      push('nat', KUBE_SERVICES, {
        matches: [...base, setMatch(KUBE_CLUSTER_IP, 'dst,dst')],
        target: jump(KUBE_MARK_MASQ),
      });
    else if (clusterCIDR) {
      push('nat', KUBE_SERVICES, {
        source: { cidr: clusterCIDR, negate: true },
        matches: [...base, setMatch(KUBE_CLUSTER_IP, 'dst,dst')],
        target: jump(KUBE_MARK_MASQ),
      });
    } else {
      // Without a local-traffic detector, masquerade node-originated traffic from a service VIP.
      push('nat', KUBE_SERVICES, {
        matches: [...base, setMatch(KUBE_CLUSTER_IP, 'src,dst')],
        target: jump(KUBE_MARK_MASQ),
      });
    }
  }
  const externalIPRules = (set: string) => {
    const base = [commentOf(set), setMatch(set, 'dst,dst')];
    push('nat', KUBE_SERVICES, {
      matches: [
        ...base,
        { kind: 'physdev', isIn: true, negate: true },
        { kind: 'addrtype', srcType: 'LOCAL', negate: true },
      ],
      target: { kind: 'ACCEPT' },
    });
    push('nat', KUBE_SERVICES, {
      matches: [...base, { kind: 'addrtype', dstType: 'LOCAL' }],
      target: { kind: 'ACCEPT' },
    });
  };
  if (nonEmpty(KUBE_EXTERNAL_IP)) {
    push('nat', KUBE_SERVICES, {
      matches: [commentOf(KUBE_EXTERNAL_IP), setMatch(KUBE_EXTERNAL_IP, 'dst,dst')],
      target: jump(KUBE_MARK_MASQ),
    });
    externalIPRules(KUBE_EXTERNAL_IP);
  }
  if (nonEmpty(KUBE_EXTERNAL_IP_LOCAL)) externalIPRules(KUBE_EXTERNAL_IP_LOCAL);
  push('nat', KUBE_SERVICES, {
    matches: [{ kind: 'addrtype', dstType: 'LOCAL' }],
    target: jump(KUBE_NODE_PORT),
  });
  push('nat', KUBE_LOAD_BALANCER_CHAIN, { matches: [], target: jump(KUBE_MARK_MASQ) });
  push('filter', KUBE_SOURCE_RANGES_FIREWALL, { matches: [], target: { kind: 'DROP' } });
  // acceptIPVSTraffic: must stay at the end of KUBE-SERVICES.
  for (const set of [KUBE_CLUSTER_IP, KUBE_LOAD_BALANCER]) {
    if (nonEmpty(set))
      push('nat', KUBE_SERVICES, { matches: [setMatch(set, 'dst,dst')], target: { kind: 'ACCEPT' } });
  }
  push('filter', KUBE_FORWARD, {
    matches: [comment('kubernetes forwarding rules'), { kind: 'mark', value: mark, mask: mark }],
    target: { kind: 'ACCEPT' },
  });
  push('filter', KUBE_FORWARD, {
    matches: [
      comment('kubernetes forwarding conntrack rule'),
      { kind: 'conntrack', ctstate: ['RELATED', 'ESTABLISHED'] },
    ],
    target: { kind: 'ACCEPT' },
  });
  push('filter', KUBE_NODE_PORT, {
    matches: [commentOf(KUBE_HEALTH_CHECK_NODE_PORT), setMatch(KUBE_HEALTH_CHECK_NODE_PORT, 'dst')],
    target: { kind: 'ACCEPT' },
  });
  for (const [set, flags] of [
    [KUBE_LOAD_BALANCER, 'dst,dst'],
    [KUBE_CLUSTER_IP, 'dst,dst'],
    [KUBE_EXTERNAL_IP, 'dst,dst'],
    [KUBE_EXTERNAL_IP_LOCAL, 'dst,dst'],
    [KUBE_HEALTH_CHECK_NODE_PORT, 'dst'],
  ] as const) {
    push('filter', KUBE_IPVS_FILTER, { matches: [setMatch(set, flags)], target: { kind: 'RETURN' } });
  }
  push('filter', KUBE_IPVS_FILTER, {
    matches: [{ kind: 'conntrack', ctstate: ['NEW'] }, setMatch(KUBE_IPVS_IPS, 'dst')],
    target: { kind: 'REJECT' },
  });
  push('nat', KUBE_POSTROUTING, {
    matches: [{ kind: 'mark', value: mark, mask: mark, negate: true }],
    target: { kind: 'RETURN' },
  });
  push('nat', KUBE_POSTROUTING, { matches: [], target: { kind: 'MARK', op: 'xor', value: mark } });
  push('nat', KUBE_POSTROUTING, {
    matches: [comment('kubernetes service traffic requiring SNAT')],
    target: { kind: 'MASQUERADE', randomFully: true },
  });
  push('nat', KUBE_MARK_MASQ, { matches: [], target: { kind: 'MARK', op: 'or', value: mark } });

  const jumps: JumpRule[] = JUMPS.map(([table, src, dst, c]) => ({
    table,
    srcChain: src,
    dstChain: dst,
    rule: { matches: [comment(c)], target: jump(dst) },
  }));
  const chains: ChainWrite[] = IPVS_IPTABLES_CHAINS.map(([table, chain]) => ({
    table,
    chain,
    rules: rules.get(`${table}/${chain}`) ?? [],
  }));
  return { jumps, ensureChains: [], chains };
}
