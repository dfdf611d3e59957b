/**
 * The iptables chains of kube-router's network policy controller, which k3s runs inside its agent
 * (cloudnativelabs/kube-router `pkg/controllers/netpol`): hooks at position 1 of INPUT, FORWARD and
 * OUTPUT whose comments carry `addUUIDForRuleSpec`'s hash (base32 of sha256(chain + the rule's
 * arguments joined), 16 characters: `kube-router netpol - 4IA2OSFRMVNDXBVV` for INPUT), the
 * `KUBE-ROUTER-INPUT` exceptions for the Service range and NodePorts, `KUBE-NWPLCY-DEFAULT`, one
 * `KUBE-POD-FW-<hash>` chain per local pod a policy selects and one `KUBE-NWPLCY-<hash>` chain per
 * policy, both named by base32(sha256(namespace + name + syncVersion))[:16] (`podFirewallChainName`,
 * `networkPolicyChainName`), and the KUBE-SRC-/KUBE-DST- ipsets named the same way.
 *
 * The sync version is the time of kube-router's last full sync in nanoseconds, so real names change
 * after every resync. Not modelled: here a full sync happens at each 5-minute period (the default
 * `--iptables-sync-period`), so the names are stable between periods and the same for the same seed.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { NetworkPolicy, Pod } from '../../../api/objects.ts';
import { matchesLabelSelector } from '../../../api/labels.ts';
import { base32Encode, utf8Encode } from '../../../util/encoding.ts';
import { comment, type IptablesRule, type Match } from '../rule.ts';
import type { CniChainSet } from './chain-set.ts';

const SYNC_PERIOD_MS = 5 * 60_000;

function hash16(text: string): string {
  return base32Encode(sha256(utf8Encode(text))).slice(0, 16);
}

export function podFirewallChainName(namespace: string, pod: string, version: string): string {
  return `KUBE-POD-FW-${hash16(namespace + pod + version)}`;
}

export function networkPolicyChainName(namespace: string, policy: string, version: string): string {
  return `KUBE-NWPLCY-${hash16(namespace + policy + version)}`;
}

/** kube-router's `addUUIDForRuleSpec`: the comment gets ` - <hash of chain + args>`. */
export function ruleUuid(chain: string, args: readonly string[]): string {
  return hash16(chain + args.join(''));
}

/** The sync version at `nowMs`: the start of the current sync period, in nanoseconds. */
export function syncVersion(nowMs: number): string {
  return `${Math.floor(nowMs / SYNC_PERIOD_MS) * SYNC_PERIOD_MS}000000`;
}

function policyTypes(np: NetworkPolicy): string[] {
  return np.spec?.policyTypes ?? (np.spec?.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

const mark = (value: number, negate = false): Match => ({
  kind: 'mark',
  value,
  mask: value,
  ...(negate ? { negate: true } : {}),
});
const setMark = (text: string): IptablesRule['target'] => ({
  kind: 'text',
  text: `-j MARK --set-xmark ${text}`,
});

export interface KubeRouterInput {
  readonly nowMs: number;
  readonly serviceCIDR: string;
  /** Pods on this node with a pod IP (hostNetwork pods are never policed). */
  readonly pods: readonly Pod[];
  readonly policies: readonly NetworkPolicy[];
}

function ipsetName(prefix: string, text: string): string {
  return `${prefix}${hash16(text)}`;
}

/** The rules of one policy chain: accept marks for each rule's peers and ports (policy.go). */
function policyChain(np: NetworkPolicy): IptablesRule[] {
  const ns = np.metadata.namespace ?? 'default';
  const name = np.metadata.name;
  const out: IptablesRule[] = [];
  const dst = ipsetName('KUBE-DST-', `${ns}${name}IPv4`);
  const push = (
    text: string,
    src: string | undefined,
    dest: string | undefined,
    proto?: string,
    port?: number,
  ) => {
    const matches: Match[] = [comment(text)];
    if (src) matches.push({ kind: 'set', name: src, flags: 'src' });
    if (dest) matches.push({ kind: 'set', name: dest, flags: 'dst' });
    const l4: 'tcp' | 'udp' | 'sctp' | undefined =
      proto === 'tcp' || proto === 'udp' || proto === 'sctp' ? proto : undefined;
    if (l4 && port !== undefined) matches.push({ kind: 'l4', proto: l4, dport: port });
    const base = { ...(l4 ? { protocol: l4 } : {}), matches };
    out.push({ ...base, target: setMark('0x10000/0x10000') });
    out.push({ ...base, matches: [...matches, mark(0x10000)], target: { kind: 'RETURN' } });
  };
  (np.spec?.ingress ?? []).forEach((r, i) => {
    const ports = (r.ports ?? []).map((p) => ({
      proto: (p.protocol ?? 'TCP').toLowerCase(),
      port: typeof p.port === 'number' ? p.port : undefined,
    }));
    if (r.from && r.from.length > 0) {
      const src = ipsetName('KUBE-SRC-', `${ns}${name}ingressrule${i}IPv4pod`);
      const text = `rule to ACCEPT traffic from source pods to dest pods selected by policy name ${name} namespace ${ns}`;
      if (ports.length === 0) push(text, src, dst);
      for (const p of ports) push(text, src, dst, p.proto, p.port);
    } else {
      const text = `rule to ACCEPT traffic from all sources to dest pods selected by policy name: ${name} namespace ${ns}`;
      if (ports.length === 0) push(text, undefined, dst);
      for (const p of ports) push(text, undefined, dst, p.proto, p.port);
    }
  });
  (np.spec?.egress ?? []).forEach((r, i) => {
    const src = ipsetName('KUBE-SRC-', `${ns}${name}IPv4`);
    const ports = (r.ports ?? []).map((p) => ({
      proto: (p.protocol ?? 'TCP').toLowerCase(),
      port: typeof p.port === 'number' ? p.port : undefined,
    }));
    const to =
      r.to && r.to.length > 0 ? ipsetName('KUBE-DST-', `${ns}${name}egressrule${i}IPv4pod`) : undefined;
    const text = to
      ? `rule to ACCEPT traffic from source pods to dest pods selected by policy name ${name} namespace ${ns}`
      : `rule to ACCEPT traffic from source pods to all destinations selected by policy name: ${name} namespace ${ns}`;
    if (ports.length === 0) push(text, src, to);
    for (const p of ports) push(text, src, to, p.proto, p.port);
  });
  return out;
}

export function kubeRouterChains(cfg: KubeRouterInput): CniChainSet {
  const version = syncVersion(cfg.nowMs);
  const set: CniChainSet = [];
  const acceptMarked: IptablesRule = {
    matches: [comment('rule to explicitly ACCEPT traffic that comply to network policies'), mark(0x20000)],
    target: { kind: 'ACCEPT' },
  };
  for (const [builtin, own] of [
    ['INPUT', 'KUBE-ROUTER-INPUT'],
    ['FORWARD', 'KUBE-ROUTER-FORWARD'],
    ['OUTPUT', 'KUBE-ROUTER-OUTPUT'],
  ] as const) {
    const uuid = ruleUuid(builtin, ['-m', 'comment', '--comment', 'kube-router netpol', '-j', own]);
    set.push({
      table: 'filter',
      chain: builtin,
      position: 'insert',
      rules: [{ matches: [comment(`kube-router netpol - ${uuid}`)], target: { kind: 'jump', chain: own } }],
    });
  }

  const svcText = 'allow traffic to primary/secondary cluster IP range';
  const svcUuid = ruleUuid('KUBE-ROUTER-INPUT', [
    '-m',
    'comment',
    '--comment',
    svcText,
    '-d',
    cfg.serviceCIDR,
    '-j',
    'RETURN',
  ]);
  const nodePort = (proto: 'tcp' | 'udp'): IptablesRule => {
    const text = `allow LOCAL ${proto.toUpperCase()} traffic to node ports`;
    const uuid = ruleUuid('KUBE-ROUTER-INPUT', [
      '-p',
      proto,
      '-m',
      'comment',
      '--comment',
      text,
      '-m',
      'addrtype',
      '--dst-type',
      'LOCAL',
      '-m',
      'multiport',
      '--dports',
      '30000:32767',
      '-j',
      'RETURN',
    ]);
    return {
      protocol: proto,
      matches: [
        comment(`${text} - ${uuid}`),
        { kind: 'addrtype', dstType: 'LOCAL' },
        { kind: 'text', text: '-m multiport --dports 30000:32767' },
      ],
      target: { kind: 'RETURN' },
    };
  };

  const input: IptablesRule[] = [
    {
      destination: { cidr: cfg.serviceCIDR },
      matches: [comment(`${svcText} - ${svcUuid}`)],
      target: { kind: 'RETURN' },
    },
    nodePort('tcp'),
    nodePort('udp'),
  ];
  let forward: IptablesRule[] = [];
  const output: IptablesRule[] = [];
  const egressInput: IptablesRule[] = [];
  const egressForward: IptablesRule[] = [];
  const egressOutput: IptablesRule[] = [];

  const selecting = (pod: Pod, type: string) =>
    cfg.policies.filter(
      (np) =>
        np.metadata.namespace === pod.metadata.namespace &&
        policyTypes(np).includes(type) &&
        matchesLabelSelector(np.spec?.podSelector ?? {}, pod.metadata.labels ?? {}),
    );
  for (const pod of cfg.pods) {
    const ip = pod.status?.podIP;
    if (!ip) continue;
    const ns = pod.metadata.namespace ?? 'default';
    const name = pod.metadata.name;
    const ingress = selecting(pod, 'Ingress');
    const egress = selecting(pod, 'Egress');
    if (ingress.length === 0 && egress.length === 0) continue;
    const chain = podFirewallChainName(ns, name, version);
    const all = [...new Map([...ingress, ...egress].map((np) => [np.metadata.name, np])).values()];
    // `-I chain 1` in order: the last inserted comes first.
    const rules: IptablesRule[] = [
      {
        matches: [
          comment('rule for stateful firewall for pod'),
          { kind: 'conntrack', ctstate: ['RELATED', 'ESTABLISHED'] },
        ],
        target: { kind: 'ACCEPT' },
      },
      ...(ingress.length > 0
        ? [
            {
              destination: { cidr: ip },
              matches: [
                comment("rule to permit the traffic traffic to pods when source is the pod's local node"),
                { kind: 'addrtype', srcType: 'LOCAL' } as Match,
              ],
              target: { kind: 'ACCEPT' } as const,
            },
          ]
        : []),
      ...[...all].reverse().map(
        (np): IptablesRule => ({
          matches: [comment(`run through nw policy ${np.metadata.name}`)],
          target: { kind: 'jump', chain: networkPolicyChainName(ns, np.metadata.name, version) },
        }),
      ),
      {
        matches: [
          comment(`rule to log dropped traffic POD name:${name} namespace: ${ns}`),
          mark(0x10000, true),
          { kind: 'text', text: '-m limit --limit 10/min --limit-burst 10' },
        ],
        target: { kind: 'text', text: '-j NFLOG --nflog-group 100' },
      },
      {
        matches: [
          comment(`rule to REJECT traffic destined for POD name:${name} namespace: ${ns}`),
          mark(0x10000, true),
        ],
        target: { kind: 'REJECT' },
      },
      { matches: [], target: setMark('0x0/0x10000') },
      {
        matches: [comment('set mark to ACCEPT traffic that comply to network policies')],
        target: setMark('0x20000/0x20000'),
      },
    ];
    set.push({ table: 'filter', chain, position: 'own', rules });
    if (ingress.length > 0) {
      const text = `rule to jump traffic destined to POD name:${name} namespace: ${ns} to chain ${chain}`;
      const to = { destination: { cidr: ip }, target: { kind: 'jump', chain } as const };
      forward = [
        { ...to, matches: [{ kind: 'text', text: '-m physdev --physdev-is-bridged' }, comment(text)] },
        { ...to, matches: [comment(text)] },
        ...forward,
      ];
      output.unshift({ ...to, matches: [comment(text)] });
    }
    if (egress.length > 0) {
      const text = `rule to jump traffic from POD name:${name} namespace: ${ns} to chain ${chain}`;
      const from = {
        source: { cidr: ip },
        matches: [comment(text)],
        target: { kind: 'jump', chain } as const,
      };
      egressInput.push(from);
      egressForward.push(from);
      egressOutput.push(from);
    }
  }
  set.push({
    table: 'filter',
    chain: 'KUBE-ROUTER-INPUT',
    position: 'own',
    rules: [...input, ...egressInput, acceptMarked],
  });
  set.push({
    table: 'filter',
    chain: 'KUBE-ROUTER-FORWARD',
    position: 'own',
    rules: [...forward, ...egressForward, acceptMarked],
  });
  set.push({
    table: 'filter',
    chain: 'KUBE-ROUTER-OUTPUT',
    position: 'own',
    rules: [...output, ...egressOutput, acceptMarked],
  });
  set.push({
    table: 'filter',
    chain: 'KUBE-NWPLCY-DEFAULT',
    position: 'own',
    rules: [
      {
        matches: [comment('rule to mark traffic matching a network policy')],
        target: setMark('0x10000/0x10000'),
      },
    ],
  });
  // Every policy of the cluster gets its chain on every node (syncNetworkPolicyChains), used or not.
  for (const np of cfg.policies)
    set.push({
      table: 'filter',
      chain: networkPolicyChainName(np.metadata.namespace ?? 'default', np.metadata.name, version),
      position: 'own',
      rules: policyChain(np),
    });
  return set;
}
