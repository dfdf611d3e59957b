/**
 * Calico's iptables chains on a node, as felix (projectcalico/calico `felix/rules`, iptables dataplane,
 * default FelixConfiguration) writes them: hooks at the top of the built-in chains, `cali-INPUT`,
 * `cali-FORWARD`, `cali-OUTPUT`, the workload dispatch chains, one `cali-fw-<iface>` (from workload,
 * egress) and `cali-tw-<iface>` (to workload, ingress) per pod, the namespace/service-account profile
 * chains, one `cali-pi-`/`cali-po-` chain per NetworkPolicy, in nat `cali-POSTROUTING` with
 * `cali-nat-outgoing`, and the raw and mangle chains (`cali-PREROUTING`, `cali-OUTPUT`,
 * `cali-POSTROUTING`, the host endpoint dispatch chains, `cali-rpf-skip`).
 *
 * Every rule carries felix's `cali:` hash: `Chain.RuleHashes` chains sha224 over the chain name and each
 * rule rendered as `-A <chain> HASH <comments> <match> <action>` in felix's own syntax
 * (`--in-interface`, `-p 4`, `-m multiport --destination-ports`, `--jump MARK --set-mark 0/0x10000`),
 * base64url, first 16 characters. Rendered this way, the hooks and static chains reproduce the hashes
 * of real captures (`cali:Cz_u1IQiXIMmKD4c` for INPUT → cali-INPUT, the six of cali-FORWARD, a workload's
 * cali-tw chain), so each hash here is computed, not copied. Policy chain names are
 * `GetLengthLimitedID("cali-pi-", "<tier>/knp.default.<name>", 28)` (sha256, base64url), which
 * reproduces a captured `cali-pi-_tTE-E7yY40ogArNVgKt`.
 *
 * Not modelled, with stable stand-ins: the IP set of a policy peer is named from a hash of our own
 * rendering of the selector (felix hashes its canonical selector form); the two rules felix appends
 * to FORWARD carry the hashes of a real capture (their hashing differs from the inserted rules');
 * host endpoints, VXLAN-mode allow rules and dispatch trees for many endpoints are left out, and
 * felix ≥ 3.30's extra drop mark bit (which moves scratch0/scratch1 up) and 3.31's DSCP rule in mangle
 * cali-POSTROUTING are not rendered: every table keeps 3.29's mark layout.
 */
import { sha224, sha256 } from '@noble/hashes/sha2.js';
import type { NetworkPolicyPeer } from 'kubernetes-types/networking/v1';
import type { NetworkPolicy, Pod } from '../../../api/objects.ts';
import { matchesLabelSelector } from '../../../api/labels.ts';
import { cniPlugin } from '../../../node/cni/index.ts';
import { base64UrlEncode, utf8Encode } from '../../../util/encoding.ts';
import type { IptablesRule, IptablesTableName, Match, Target } from '../rule.ts';
import type { CniChainSet } from './chain-set.ts';

/** Felix's mark bits with the default IptablesMarkMask 0xffff0000. */
const ACCEPT = 0x10000;
const PASS = 0x20000;

/** One felix rule: felix's rendering (for the hash) and the rule as iptables-save prints it. */
export interface FelixRule {
  readonly felix: string;
  readonly rule: Omit<IptablesRule, 'matches'> & { readonly matches: readonly Match[] };
}

type Part =
  | { readonly in: string }
  | { readonly out: string }
  | { readonly proto: number }
  | { readonly src: string }
  | { readonly dst: string }
  | { readonly mark: number; readonly mask: number; readonly not?: boolean }
  | { readonly ct: readonly string[]; readonly not?: boolean }
  | { readonly set: string; readonly dir: 'src' | 'dst'; readonly not?: boolean }
  | { readonly addrtype: 'src' | 'dst'; readonly not?: boolean; readonly limitIfaceOut?: boolean }
  | { readonly dports: readonly number[] }
  /** felix `Protocol("udp").DestPort(n)`: the protocol by name, then a bare `--dport`. */
  | { readonly udpDport: number }
  /** felix `RPFCheckFailed()`. */
  | { readonly rpfFailed: true };

type Action =
  | { readonly jump: string }
  | { readonly goto: string }
  | { readonly verdict: 'ACCEPT' | 'DROP' | 'RETURN' }
  | { readonly setMark: number; readonly mask: number }
  | { readonly masquerade: true }
  | { readonly notrack: true };

const PROTO_NAMES: Record<number, 'tcp' | 'udp' | 'sctp' | 'icmp' | 'ipencap'> = {
  1: 'icmp',
  4: 'ipencap',
  6: 'tcp',
  17: 'udp',
  132: 'sctp',
};

/** Go's `%#x`: 0 prints as 0x0, but felix writes a cleared mark as the literal `0`. */
const hex = (n: number): string => `0x${n.toString(16)}`;

/** felix `MatchCriteria.Render` for one criterion. */
function felixPart(p: Part): string {
  if ('in' in p) return `--in-interface ${p.in}`;
  if ('out' in p) return `--out-interface ${p.out}`;
  if ('proto' in p) return `-p ${p.proto}`;
  if ('src' in p) return `--source ${p.src}`;
  if ('dst' in p) return `--destination ${p.dst}`;
  if ('mark' in p)
    return `-m mark ${p.not ? '! ' : ''}--mark ${p.mark === 0 ? '0' : hex(p.mark)}/${hex(p.mask)}`;
  if ('ct' in p) return `-m conntrack ${p.not ? '! ' : ''}--ctstate ${p.ct.join(',')}`;
  if ('set' in p) return `-m set ${p.not ? '! ' : ''}--match-set ${p.set} ${p.dir}`;
  if ('addrtype' in p)
    return `-m addrtype ${p.not ? '! ' : ''}--${p.addrtype}-type LOCAL${p.limitIfaceOut ? ' --limit-iface-out' : ''}`;
  if ('udpDport' in p) return `-p udp --dport ${p.udpDport}`;
  if ('rpfFailed' in p) return '-m rpfilter --invert --validmark';
  return `-m multiport --destination-ports ${p.dports.join(',')}`;
}

function felixAction(a: Action): string {
  if ('jump' in a) return `--jump ${a.jump}`;
  if ('goto' in a) return `--goto ${a.goto}`;
  if ('verdict' in a) return `--jump ${a.verdict}`;
  if ('setMark' in a)
    return `--jump MARK --set-mark ${a.setMark === 0 ? '0' : hex(a.setMark)}/${hex(a.mask)}`;
  if ('notrack' in a) return '--jump NOTRACK';
  // MASQFullyRandom: iptables ≥ 1.6.2 on a ≥ 3.14 kernel, as on every kind and k3s node.
  return '--jump MASQUERADE --random-fully';
}

function target(a: Action): Target {
  if ('jump' in a) return { kind: 'jump', chain: a.jump };
  if ('goto' in a) return { kind: 'goto', chain: a.goto };
  if ('verdict' in a) return { kind: a.verdict };
  if ('setMark' in a) return { kind: 'text', text: `-j MARK --set-xmark ${hex(a.setMark)}/${hex(a.mask)}` };
  if ('notrack' in a) return { kind: 'text', text: '-j NOTRACK' };
  return { kind: 'MASQUERADE', randomFully: true };
}

export function felixRule(
  parts: readonly Part[],
  action: Action,
  comments: readonly string[] = [],
): FelixRule {
  const felix = [
    ...comments.map((c) => `-m comment --comment "${c}"`),
    ...parts.map(felixPart),
    felixAction(action),
  ].join(' ');
  const matches: Match[] = comments.map((c) => ({ kind: 'comment', comment: c }));
  let rule: Omit<IptablesRule, 'matches'> = { target: target(action) };
  for (const p of parts) {
    if ('in' in p) rule = { ...rule, inInterface: p.in };
    else if ('out' in p) rule = { ...rule, outInterface: p.out };
    else if ('proto' in p) {
      const name = PROTO_NAMES[p.proto];
      if (name) rule = { ...rule, protocol: name };
    } else if ('src' in p) rule = { ...rule, source: { cidr: p.src } };
    else if ('dst' in p) rule = { ...rule, destination: { cidr: p.dst } };
    else if ('mark' in p)
      matches.push({ kind: 'mark', value: p.mark, mask: p.mask, ...(p.not ? { negate: true } : {}) });
    else if ('ct' in p)
      matches.push({ kind: 'conntrack', ctstate: p.ct, ...(p.not ? { negate: true } : {}) });
    else if ('set' in p)
      matches.push({ kind: 'set', name: p.set, flags: p.dir, ...(p.not ? { negate: true } : {}) });
    else if ('addrtype' in p) matches.push({ kind: 'text', text: felixPart(p) });
    else if ('udpDport' in p) {
      rule = { ...rule, protocol: 'udp' };
      matches.push({ kind: 'l4', proto: 'udp', dport: p.udpDport });
    } else if ('rpfFailed' in p)
      // libxt_rpfilter saves its flags in its own order: --validmark before --invert.
      matches.push({ kind: 'text', text: '-m rpfilter --validmark --invert' });
    else matches.push({ kind: 'text', text: `-m multiport --dports ${p.dports.join(',')}` });
  }
  return { felix, rule: { ...rule, matches } };
}

/** felix `Chain.RuleHashes`: each rule's 16-character hash, chained through the rules before it. */
export function felixRuleHashes(chain: string, rules: readonly FelixRule[]): string[] {
  let hash = sha224(utf8Encode(chain));
  return rules.map((r) => {
    const input = utf8Encode(`-A ${chain} HASH ${r.felix}`);
    const buf = new Uint8Array(hash.length + input.length);
    buf.set(hash);
    buf.set(input, hash.length);
    hash = sha224(buf);
    return base64UrlEncode(hash).slice(0, 16);
  });
}

/** felix hashutils `GetLengthLimitedID`: prefix + suffix, or prefix + `_` + sha256 when too long. */
export function lengthLimitedId(prefix: string, suffix: string, maxLength = 28): string {
  if (prefix.length + suffix.length > maxLength || suffix.startsWith('_'))
    return `${prefix}_${base64UrlEncode(sha256(utf8Encode(suffix))).slice(0, maxLength - prefix.length - 1)}`;
  return prefix + suffix;
}

/** The rules as iptables-save prints them, each with its `cali:` comment first. */
export function withHashes(chain: string, rules: readonly FelixRule[]): IptablesRule[] {
  const hashes = felixRuleHashes(chain, rules);
  return rules.map((r, i) => ({
    ...r.rule,
    matches: [{ kind: 'comment', comment: `cali:${hashes[i]}` }, ...r.rule.matches],
  }));
}

/** The k8s NetworkPolicy's chain (Calico names converted policies `knp.default.<name>` in tier default). */
export function policyChainName(direction: 'ingress' | 'egress', policyName: string): string {
  return lengthLimitedId(
    direction === 'ingress' ? 'cali-pi-' : 'cali-po-',
    `default/knp.default.${policyName}`,
  );
}

/** The Calico selector a k8s podSelector/namespaceSelector becomes (for the IP set's name). */
function peerSelector(namespace: string, peer: NetworkPolicyPeer): string {
  const terms = ["projectcalico.org/orchestrator == 'k8s'"];
  for (const [k, v] of Object.entries(peer.podSelector?.matchLabels ?? {})) terms.push(`${k} == '${v}'`);
  if (peer.namespaceSelector) {
    const ns = Object.entries(peer.namespaceSelector.matchLabels ?? {}).map(
      ([k, v]) => `pcns.${k} == '${v}'`,
    );
    terms.push(ns.length > 0 ? ns.join(' && ') : 'all()');
  } else terms.push(`projectcalico.org/namespace == '${namespace}'`);
  return terms.join(' && ');
}

function ipSetName(selector: string): string {
  return `cali40s:${base64UrlEncode(sha224(utf8Encode(selector))).slice(0, 23)}`;
}

const PROTO_NUMBERS: Record<string, number> = { TCP: 6, UDP: 17, SCTP: 132 };

/** felix's rules for one k8s NetworkPolicy direction: per peer × protocol, mark accept then return. */
function policyRules(np: NetworkPolicy, direction: 'ingress' | 'egress'): FelixRule[] {
  const ns = np.metadata.namespace ?? 'default';
  const rules = direction === 'ingress' ? (np.spec?.ingress ?? []) : (np.spec?.egress ?? []);
  const out: FelixRule[] = [];
  const setDir = direction === 'ingress' ? 'src' : 'dst';
  for (const r of rules) {
    const peers: (NetworkPolicyPeer | undefined)[] = (direction === 'ingress'
      ? 'from' in r && r.from
      : 'to' in r && r.to) || [undefined];
    const byProto = new Map<number, number[]>();
    for (const p of r.ports ?? []) {
      const proto = PROTO_NUMBERS[p.protocol ?? 'TCP'] ?? 6;
      const list = byProto.get(proto) ?? [];
      if (typeof p.port === 'number') list.push(p.port);
      byProto.set(proto, list);
    }
    const protos: [number | undefined, number[]][] = byProto.size > 0 ? [...byProto] : [[undefined, []]];
    for (const peer of peers)
      for (const [proto, ports] of protos) {
        const parts: Part[] = [];
        if (proto !== undefined) parts.push({ proto });
        if (peer?.ipBlock)
          parts.push(setDir === 'src' ? { src: peer.ipBlock.cidr } : { dst: peer.ipBlock.cidr });
        else if (peer) parts.push({ set: ipSetName(peerSelector(ns, peer)), dir: setDir });
        if (ports.length > 0) parts.push({ dports: ports });
        out.push(felixRule(parts, { setMark: ACCEPT, mask: ACCEPT }));
        out.push(felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'RETURN' }));
      }
  }
  return out;
}

function policyTypes(np: NetworkPolicy): string[] {
  return np.spec?.policyTypes ?? (np.spec?.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

export interface FelixInput {
  readonly node: string;
  readonly pods: readonly Pod[];
  readonly policies: readonly NetworkPolicy[];
  readonly encapsulation: 'ipip' | 'vxlan' | 'none' | 'geneve';
}

/** felix rules/endpoints.go: a workload chain, policies (if any select the pod) then its profiles. */
function workloadChain(
  pod: Pod,
  policies: readonly NetworkPolicy[],
  direction: 'ingress' | 'egress',
): FelixRule[] {
  const ns = pod.metadata.namespace ?? 'default';
  const sa = pod.spec?.serviceAccountName ?? 'default';
  const rules: FelixRule[] = [
    felixRule([{ ct: ['RELATED', 'ESTABLISHED'] }], { verdict: 'ACCEPT' }),
    felixRule([{ ct: ['INVALID'] }], { verdict: 'DROP' }),
    felixRule([], { setMark: 0, mask: ACCEPT }),
  ];
  if (direction === 'egress') {
    rules.push(
      felixRule([{ proto: 17 }, { dports: [4789] }], { verdict: 'DROP' }, [
        'Drop VXLAN encapped packets originating in pods',
      ]),
      felixRule([{ proto: 4 }], { verdict: 'DROP' }, ['Drop IPinIP encapped packets originating in pods']),
    );
  }
  const type = direction === 'ingress' ? 'Ingress' : 'Egress';
  const selecting = policies.filter(
    (np) =>
      np.metadata.namespace === ns &&
      policyTypes(np).includes(type) &&
      matchesLabelSelector(np.spec?.podSelector ?? {}, pod.metadata.labels ?? {}),
  );
  if (selecting.length > 0) {
    rules.push(felixRule([], { setMark: 0, mask: PASS }, ['Start of policies']));
    for (const np of [...selecting].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)))
      rules.push(
        felixRule([{ mark: 0, mask: PASS }], { jump: policyChainName(direction, np.metadata.name) }),
      );
    rules.push(
      felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'RETURN' }, ['Return if policy accepted']),
      felixRule([{ mark: 0, mask: PASS }], { verdict: 'DROP' }, ['Drop if no policies passed packet']),
    );
  }
  const pfx = direction === 'ingress' ? 'cali-pri-' : 'cali-pro-';
  for (const profile of [`kns.${ns}`, `ksa.${ns}.${sa}`]) {
    rules.push(felixRule([], { jump: lengthLimitedId(pfx, profile) }));
    rules.push(
      felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'RETURN' }, ['Return if profile accepted']),
    );
  }
  rules.push(felixRule([], { verdict: 'DROP' }, ['Drop if no profiles matched']));
  return rules;
}

type AddChain = (
  table: IptablesTableName,
  chain: string,
  position: 'insert' | 'append' | 'own',
  rules: FelixRule[],
) => void;

/**
 * felix rules/static.go StaticRawTableChains and StaticMangleTableChains (3.29: accept 0x10000, pass
 * 0x20000, scratch0 0x40000 and scratch1 0x80000 under the default mark mask, as the filter chains
 * above). raw: every packet's Calico mark bits are cleared, packets from a workload (`cali+`) get the
 * scratch0 mark and a strict reverse-path check (after `cali-rpf-skip`, empty without
 * allowedSourcePrefixes), other packets meet the untracked host endpoint policy; with VXLAN the tunnel's
 * UDP flows are not tracked. mangle: established flows and already-accepted packets are accepted, then
 * pre-DNAT host endpoint policy; in POSTROUTING, DNAT'd host traffic meets host endpoint policy. The
 * dispatch chains are empty without host endpoints; the failsafe chains are referenced only from host
 * endpoint chains, so felix does not program them.
 */
function rawAndMangleChains(add: AddChain, vxlan: boolean): void {
  const allMarks = 0xf0000;
  const fromWorkload = 0x40000;
  const notrack = vxlan ? [felixRule([{ udpDport: 4789 }], { notrack: true })] : [];
  for (const [table, chain] of [
    ['raw', 'PREROUTING'],
    ['raw', 'OUTPUT'],
    ['mangle', 'PREROUTING'],
    ['mangle', 'POSTROUTING'],
  ] as const)
    add(table, chain, 'insert', [felixRule([], { jump: `cali-${chain}` })]);
  add('raw', 'cali-PREROUTING', 'own', [
    felixRule([], { setMark: 0, mask: allMarks }),
    ...notrack,
    felixRule([{ in: 'cali+' }], { setMark: fromWorkload, mask: fromWorkload }),
    felixRule([{ mark: fromWorkload, mask: fromWorkload }], { jump: 'cali-rpf-skip' }),
    felixRule([{ mark: fromWorkload, mask: fromWorkload }, { rpfFailed: true }], { verdict: 'DROP' }),
    felixRule([{ mark: 0, mask: fromWorkload }], { jump: 'cali-from-host-endpoint' }),
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'ACCEPT' }),
  ]);
  add('raw', 'cali-OUTPUT', 'own', [
    felixRule([], { setMark: 0, mask: allMarks }),
    felixRule([], { jump: 'cali-to-host-endpoint' }),
    ...notrack,
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'ACCEPT' }),
  ]);
  add('mangle', 'cali-PREROUTING', 'own', [
    felixRule([{ ct: ['RELATED', 'ESTABLISHED'] }], { verdict: 'ACCEPT' }),
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'ACCEPT' }),
    felixRule([], { jump: 'cali-from-host-endpoint' }),
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'ACCEPT' }, [
      'Host endpoint policy accepted packet.',
    ]),
  ]);
  add('mangle', 'cali-POSTROUTING', 'own', [
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'RETURN' }),
    felixRule([], { setMark: 0, mask: allMarks }),
    felixRule([{ ct: ['DNAT'] }], { jump: 'cali-to-host-endpoint' }),
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'RETURN' }, [
      'Host endpoint policy accepted packet.',
    ]),
  ]);
  for (const table of ['raw', 'mangle'] as const)
    for (const empty of ['cali-from-host-endpoint', 'cali-to-host-endpoint']) add(table, empty, 'own', []);
  add('raw', 'cali-rpf-skip', 'own', []);
}

export function felixChains(input: FelixInput): CniChainSet {
  const set: CniChainSet = [];
  const add: AddChain = (table, chain, position, rules) =>
    set.push({ table, chain, position, rules: withHashes(chain, rules) });
  const ipip = input.encapsulation === 'ipip';
  const calico = cniPlugin('calico');

  // Hooks at the top of the built-in chains (felix's default ChainInsertMode "insert").
  for (const [table, chain] of [
    ['filter', 'INPUT'],
    ['filter', 'FORWARD'],
    ['filter', 'OUTPUT'],
    ['nat', 'PREROUTING'],
    ['nat', 'OUTPUT'],
    ['nat', 'POSTROUTING'],
  ] as const)
    add(table, chain, 'insert', [felixRule([], { jump: `cali-${chain}` })]);
  set.push({
    table: 'filter',
    chain: 'FORWARD',
    position: 'append',
    rules: [
      {
        matches: [
          { kind: 'comment', comment: 'cali:S93hcgKJrXEqnTfs' },
          { kind: 'comment', comment: 'Policy explicitly accepted packet.' },
          { kind: 'mark', value: ACCEPT, mask: ACCEPT },
        ],
        target: { kind: 'ACCEPT' },
      },
      {
        matches: [{ kind: 'comment', comment: 'cali:mp77cMpurHhyjLrM' }],
        target: { kind: 'text', text: '-j MARK --set-xmark 0x10000/0x10000' },
      },
    ],
  });

  add('filter', 'cali-FORWARD', 'own', [
    felixRule([], { setMark: 0, mask: 0xe0000 }),
    felixRule([{ mark: 0, mask: ACCEPT }], { jump: 'cali-from-hep-forward' }),
    felixRule([{ in: 'cali+' }], { jump: 'cali-from-wl-dispatch' }),
    felixRule([{ out: 'cali+' }], { jump: 'cali-to-wl-dispatch' }),
    felixRule([], { jump: 'cali-to-hep-forward' }),
    felixRule([], { jump: 'cali-cidr-block' }),
  ]);
  add('filter', 'cali-INPUT', 'own', [
    ...(ipip
      ? [
          felixRule(
            [{ proto: 4 }, { set: 'cali40all-hosts-net', dir: 'src' }, { addrtype: 'dst' }],
            { verdict: 'ACCEPT' },
            ['Allow IPIP packets from Calico hosts'],
          ),
          felixRule([{ proto: 4 }], { verdict: 'DROP' }, ['Drop IPIP packets from non-Calico hosts']),
        ]
      : []),
    felixRule([{ in: 'cali+' }], { goto: 'cali-wl-to-host' }),
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'ACCEPT' }),
    felixRule([], { setMark: 0, mask: 0xf0000 }),
    felixRule([], { jump: 'cali-from-host-endpoint' }),
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'ACCEPT' }, [
      'Host endpoint policy accepted packet.',
    ]),
  ]);
  add('filter', 'cali-OUTPUT', 'own', [
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'ACCEPT' }),
    felixRule([{ out: 'cali+' }], { verdict: 'RETURN' }),
    ...(ipip
      ? [
          felixRule(
            [{ proto: 4 }, { set: 'cali40all-hosts-net', dir: 'dst' }, { addrtype: 'src' }],
            { verdict: 'ACCEPT' },
            ['Allow IPIP packets to other Calico hosts'],
          ),
        ]
      : []),
    felixRule([], { setMark: 0, mask: 0xf0000 }),
    felixRule([{ ct: ['DNAT'], not: true }], { jump: 'cali-to-host-endpoint' }),
    felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'ACCEPT' }, [
      'Host endpoint policy accepted packet.',
    ]),
  ]);
  add('filter', 'cali-wl-to-host', 'own', [
    felixRule([], { jump: 'cali-from-wl-dispatch' }),
    felixRule([], { verdict: 'ACCEPT' }, ['Configured DefaultEndpointToHostAction']),
  ]);
  for (const empty of [
    'cali-cidr-block',
    'cali-from-hep-forward',
    'cali-from-host-endpoint',
    'cali-to-hep-forward',
    'cali-to-host-endpoint',
  ])
    add('filter', empty, 'own', []);

  // Workloads: dispatch by interface (sorted, as felix sorts them), then one chain per direction.
  const endpoints = input.pods
    .map((pod) => ({
      pod,
      iface: calico.hostInterface(pod.metadata.namespace ?? 'default', pod.metadata.name, ''),
    }))
    .sort((a, b) => (a.iface < b.iface ? -1 : a.iface > b.iface ? 1 : 0));
  add('filter', 'cali-from-wl-dispatch', 'own', [
    ...endpoints.map((e) => felixRule([{ in: e.iface }], { goto: `cali-fw-${e.iface}` })),
    felixRule([], { verdict: 'DROP' }, ['Unknown interface']),
  ]);
  add('filter', 'cali-to-wl-dispatch', 'own', [
    ...endpoints.map((e) => felixRule([{ out: e.iface }], { goto: `cali-tw-${e.iface}` })),
    felixRule([], { verdict: 'DROP' }, ['Unknown interface']),
  ]);
  const profiles = new Set<string>();
  const policies = new Map<string, NetworkPolicy>();
  for (const e of endpoints) {
    add('filter', `cali-fw-${e.iface}`, 'own', workloadChain(e.pod, input.policies, 'egress'));
    add('filter', `cali-tw-${e.iface}`, 'own', workloadChain(e.pod, input.policies, 'ingress'));
    const ns = e.pod.metadata.namespace ?? 'default';
    profiles.add(`kns.${ns}`);
    profiles.add(`ksa.${ns}.${e.pod.spec?.serviceAccountName ?? 'default'}`);
    for (const np of input.policies)
      if (
        np.metadata.namespace === ns &&
        matchesLabelSelector(np.spec?.podSelector ?? {}, e.pod.metadata.labels ?? {})
      )
        policies.set(`${ns}/${np.metadata.name}`, np);
  }
  // Profiles: a namespace's profile accepts (Calico's k8s namespace profiles allow all); a service
  // account's has no rules.
  for (const p of profiles) {
    for (const [pfx, dir] of [
      ['cali-pri-', 'ingress'],
      ['cali-pro-', 'egress'],
    ] as const) {
      const chain = lengthLimitedId(pfx, p);
      add(
        'filter',
        chain,
        'own',
        p.startsWith('kns.')
          ? [
              felixRule([], { setMark: ACCEPT, mask: ACCEPT }, [`Profile ${p} ${dir}`]),
              felixRule([{ mark: ACCEPT, mask: ACCEPT }], { verdict: 'RETURN' }),
            ]
          : [],
      );
    }
  }
  for (const np of policies.values()) {
    const types = policyTypes(np);
    if (types.includes('Ingress'))
      add('filter', policyChainName('ingress', np.metadata.name), 'own', policyRules(np, 'ingress'));
    if (types.includes('Egress'))
      add('filter', policyChainName('egress', np.metadata.name), 'own', policyRules(np, 'egress'));
  }

  rawAndMangleChains(add, input.encapsulation === 'vxlan');

  // nat: floating IPs (none) and outgoing NAT for the IP pools (calico.yaml's pool has natOutgoing).
  add('nat', 'cali-PREROUTING', 'own', [felixRule([], { jump: 'cali-fip-dnat' })]);
  add('nat', 'cali-OUTPUT', 'own', [felixRule([], { jump: 'cali-fip-dnat' })]);
  add('nat', 'cali-POSTROUTING', 'own', [
    felixRule([], { jump: 'cali-fip-snat' }),
    felixRule([], { jump: 'cali-nat-outgoing' }),
    ...(input.encapsulation === 'none'
      ? []
      : [
          felixRule(
            [
              { out: ipip ? 'tunl0' : 'vxlan.calico' },
              { addrtype: 'src', not: true, limitIfaceOut: true },
              { addrtype: 'src' },
            ],
            { masquerade: true },
          ),
        ]),
  ]);
  add('nat', 'cali-fip-dnat', 'own', []);
  add('nat', 'cali-fip-snat', 'own', []);
  add('nat', 'cali-nat-outgoing', 'own', [
    felixRule(
      [
        { set: 'cali40masq-ipam-pools', dir: 'src' },
        { set: 'cali40all-ipam-pools', dir: 'dst', not: true },
      ],
      { masquerade: true },
    ),
  ]);
  return set;
}
