/**
 * The `portmap` CNI plugin's iptables rules (containernetworking/plugins v1.9.1
 * plugins/meta/portmap/portmap_iptables.go), chained by flannel's, Calico's and kindnet's conflists:
 * the kubelet passes a pod's `hostPort`s as `portMappings` at CNI ADD and portmap writes
 *
 * - CNI-HOSTPORT-DNAT, entered from PREROUTING and OUTPUT for LOCAL destinations, with one jump per
 *   pod sandbox (multiport over its host ports) into that sandbox's chain;
 * - CNI-DN-<hash> (utils.MustFormatChainNameWithPrefix: "CNI-DN-" + hex sha512(network name +
 *   container id), 28 characters), which marks hairpin and localhost traffic for masquerade and DNATs
 *   the host port to the pod;
 * - CNI-HOSTPORT-SETMARK / CNI-HOSTPORT-MASQ (SNAT defaults to true, markMasqBit 13 → 0x2000),
 *   entered first in POSTROUTING.
 */
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Pod } from '../../../api/objects.ts';
import { formatCidr, parseCidr } from '../../../util/ip.ts';
import { comment, type IptablesRule } from '../rule.ts';
import type { CniChainSet } from './chain-set.ts';

export const TOP_LEVEL_DNAT_CHAIN = 'CNI-HOSTPORT-DNAT';
export const SET_MARK_CHAIN = 'CNI-HOSTPORT-SETMARK';
export const MARK_MASQ_CHAIN = 'CNI-HOSTPORT-MASQ';
/** 1 << DefaultMarkBit (13), as `%#x/%#x`. */
const MASQ_MARK = '0x2000/0x2000';

export interface PortMapping {
  readonly hostPort: number;
  readonly containerPort: number;
  readonly protocol: 'tcp' | 'udp' | 'sctp';
  readonly hostIP?: string;
}

/** One sandbox's mappings, as the kubelet hands them to CNI ADD. */
export interface SandboxPorts {
  readonly containerId: string;
  /** The pod's address with the mask CNI ADD returned (`10.244.1.5/24` on a bridge, `/32` routed). */
  readonly podIP: string;
  readonly podPrefix: number;
  readonly mappings: readonly PortMapping[];
}

export function portMappings(pod: Pod): PortMapping[] {
  return (pod.spec?.containers ?? []).flatMap((c) =>
    (c.ports ?? [])
      .filter((p) => p.hostPort)
      .map((p) => ({
        hostPort: p.hostPort!,
        containerPort: p.containerPort,
        protocol: (p.protocol ?? 'TCP').toLowerCase() as PortMapping['protocol'],
        ...(p.hostIP ? { hostIP: p.hostIP } : {}),
      })),
  );
}

/** utils.MustFormatChainNameWithPrefix(netName, containerID, "DN-"). */
export function dnatChainName(network: string, containerId: string): string {
  return `CNI-DN-${bytesToHex(sha512(utf8ToBytes(network + containerId)))}`.slice(0, 28);
}

function ruleBase(
  m: PortMapping,
): Pick<IptablesRule, 'protocol' | 'destination'> & { l4: IptablesRule['matches'] } {
  const specific = m.hostIP !== undefined && m.hostIP !== '0.0.0.0';
  return {
    protocol: m.protocol,
    ...(specific ? { destination: { cidr: `${m.hostIP}/32` } } : {}),
    l4: [{ kind: 'l4', proto: m.protocol, dport: m.hostPort }],
  };
}

function sandboxRules(network: string, s: SandboxPorts): { entries: IptablesRule[]; rules: IptablesRule[] } {
  const chain = dnatChainName(network, s.containerId);
  const note = comment(`dnat name: "${network}" id: "${s.containerId}"`);
  const protos = [...new Set(s.mappings.map((m) => m.protocol))].sort();
  const entries: IptablesRule[] = protos.map((proto) => ({
    protocol: proto,
    matches: [
      note,
      {
        kind: 'text',
        text: `-m multiport --dports ${s.mappings
          .filter((m) => m.protocol === proto)
          .map((m) => m.hostPort)
          .join(',')}`,
      },
    ],
    target: { kind: 'jump', chain },
  }));
  const containerNet = parseCidr(`${s.podIP}/${s.podPrefix}`);
  const masqCidr = containerNet ? formatCidr(containerNet) : `${s.podIP}/32`;
  const rules: IptablesRule[] = s.mappings.flatMap((m) => {
    const { l4, ...base } = ruleBase(m);
    return [
      { ...base, source: { cidr: masqCidr }, matches: l4, target: { kind: 'jump', chain: SET_MARK_CHAIN } },
      {
        ...base,
        source: { cidr: '127.0.0.1/32' },
        matches: l4,
        target: { kind: 'jump', chain: SET_MARK_CHAIN },
      },
      { ...base, matches: l4, target: { kind: 'DNAT', to: `${s.podIP}:${m.containerPort}` } },
    ];
  });
  return { entries, rules };
}

/** portmap's chains on a node whose sandboxes map host ports; none while no sandbox does. */
export function portmapChains(network: string, sandboxes: readonly SandboxPorts[]): CniChainSet {
  const mapped = sandboxes.filter((s) => s.mappings.length > 0);
  if (mapped.length === 0) return [];
  const local: IptablesRule = {
    matches: [{ kind: 'addrtype', dstType: 'LOCAL' }],
    target: { kind: 'jump', chain: TOP_LEVEL_DNAT_CHAIN },
  };
  const per = mapped.map((s) => ({ s, ...sandboxRules(network, s) }));
  return [
    {
      table: 'nat',
      chain: 'POSTROUTING',
      position: 'insert',
      rules: [
        {
          matches: [comment('CNI portfwd requiring masquerade')],
          target: { kind: 'jump', chain: MARK_MASQ_CHAIN },
        },
      ],
    },
    { table: 'nat', chain: 'PREROUTING', position: 'append', rules: [local] },
    { table: 'nat', chain: 'OUTPUT', position: 'append', rules: [local] },
    {
      table: 'nat',
      chain: MARK_MASQ_CHAIN,
      position: 'own',
      rules: [
        {
          matches: [{ kind: 'text', text: `-m mark --mark ${MASQ_MARK}` }],
          target: { kind: 'MASQUERADE' },
        },
      ],
    },
    {
      table: 'nat',
      chain: SET_MARK_CHAIN,
      position: 'own',
      rules: [
        {
          matches: [comment('CNI portfwd masquerade mark')],
          target: { kind: 'text', text: `-j MARK --set-xmark ${MASQ_MARK}` },
        },
      ],
    },
    { table: 'nat', chain: TOP_LEVEL_DNAT_CHAIN, position: 'own', rules: per.flatMap((p) => p.entries) },
    ...per.map((p) => ({
      table: 'nat' as const,
      chain: dnatChainName(network, p.s.containerId),
      position: 'own' as const,
      rules: p.rules,
    })),
  ];
}

/** Where portmap's DNAT sends `destIP:destPort` arriving at this node, if a sandbox maps it. */
export function hostPortTarget(
  sandboxes: readonly SandboxPorts[],
  destIP: string,
  destPort: number,
  protocol: string,
): { readonly to: string; readonly sandbox: SandboxPorts } | undefined {
  const proto = protocol.toLowerCase();
  for (const s of sandboxes)
    for (const m of s.mappings)
      if (
        m.protocol === proto &&
        m.hostPort === destPort &&
        (m.hostIP === undefined || m.hostIP === '0.0.0.0' || m.hostIP === destIP)
      )
        return { to: `${s.podIP}:${m.containerPort}`, sandbox: s };
  return undefined;
}
