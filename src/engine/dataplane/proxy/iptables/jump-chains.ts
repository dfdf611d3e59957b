/**
 * The fixed part of kube-proxy's iptables layout (`iptablesJumpChains` and friends in
 * `pkg/proxy/iptables/proxier.go`): which built-in chains jump to which KUBE-* chain, with which
 * comment, plus the canary chains `iptables.Monitor` keeps in mangle, nat and filter.
 */
import {
  comment,
  jump,
  type IptablesRule,
  type IptablesTableName,
  type Match,
} from '../../netfilter/rule.ts';
import type { JumpRule } from '../../netfilter/iptables-restore.ts';

export const KUBE_SERVICES = 'KUBE-SERVICES';
export const KUBE_EXTERNAL_SERVICES = 'KUBE-EXTERNAL-SERVICES';
export const KUBE_NODEPORTS = 'KUBE-NODEPORTS';
export const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
export const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
export const KUBE_FORWARD = 'KUBE-FORWARD';
export const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
export const KUBE_PROXY_CANARY = 'KUBE-PROXY-CANARY';
/** kubelet's anti-martian chain; kube-proxy keeps an identical copy of its rule. */
export const KUBE_FIREWALL = 'KUBE-FIREWALL';

const ctNew: Match = { kind: 'conntrack', ctstate: ['NEW'] };

interface JumpSpec {
  readonly table: IptablesTableName;
  readonly dst: string;
  readonly src: string;
  readonly comment: string;
  readonly ctNew: boolean;
}

const IPTABLES_JUMP_CHAINS: readonly JumpSpec[] = [
  {
    table: 'filter',
    dst: KUBE_EXTERNAL_SERVICES,
    src: 'INPUT',
    comment: 'kubernetes externally-visible service portals',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_EXTERNAL_SERVICES,
    src: 'FORWARD',
    comment: 'kubernetes externally-visible service portals',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_NODEPORTS,
    src: 'INPUT',
    comment: 'kubernetes health check service ports',
    ctNew: false,
  },
  { table: 'filter', dst: KUBE_SERVICES, src: 'FORWARD', comment: 'kubernetes service portals', ctNew: true },
  { table: 'filter', dst: KUBE_SERVICES, src: 'OUTPUT', comment: 'kubernetes service portals', ctNew: true },
  {
    table: 'filter',
    dst: KUBE_FORWARD,
    src: 'FORWARD',
    comment: 'kubernetes forwarding rules',
    ctNew: false,
  },
  {
    table: 'filter',
    dst: KUBE_PROXY_FIREWALL,
    src: 'INPUT',
    comment: 'kubernetes load balancer firewall',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_PROXY_FIREWALL,
    src: 'OUTPUT',
    comment: 'kubernetes load balancer firewall',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_PROXY_FIREWALL,
    src: 'FORWARD',
    comment: 'kubernetes load balancer firewall',
    ctNew: true,
  },
  { table: 'nat', dst: KUBE_SERVICES, src: 'OUTPUT', comment: 'kubernetes service portals', ctNew: false },
  {
    table: 'nat',
    dst: KUBE_SERVICES,
    src: 'PREROUTING',
    comment: 'kubernetes service portals',
    ctNew: false,
  },
  {
    table: 'nat',
    dst: KUBE_POSTROUTING,
    src: 'POSTROUTING',
    comment: 'kubernetes postrouting rules',
    ctNew: false,
  },
];

/**
 * The jump rules kube-proxy ensures on every full sync. kubelet's `-j KUBE-FIREWALL` rules come first:
 * kubelet appends them at its start-up, before kube-proxy runs, so on a real node they sit below
 * kube-proxy's prepended rules (`-A INPUT … KUBE-PROXY-FIREWALL`, …, `-A INPUT -j KUBE-FIREWALL`).
 */
export function iptablesJumpRules(): JumpRule[] {
  const kubelet: JumpRule[] = ['INPUT', 'OUTPUT'].map((src) => ({
    table: 'filter',
    srcChain: src,
    dstChain: KUBE_FIREWALL,
    rule: { matches: [], target: jump(KUBE_FIREWALL) },
  }));
  const proxy: JumpRule[] = IPTABLES_JUMP_CHAINS.map((j) => {
    const rule: IptablesRule = {
      matches: [...(j.ctNew ? [ctNew] : []), comment(j.comment)],
      target: jump(j.dst),
    };
    return { table: j.table, srcChain: j.src, dstChain: j.dst, rule };
  });
  return [...kubelet, ...proxy];
}

/** `iptables.Monitor` creates its canary chain in each of these tables. */
export const CANARY_TABLES: readonly IptablesTableName[] = ['mangle', 'nat', 'filter'];
