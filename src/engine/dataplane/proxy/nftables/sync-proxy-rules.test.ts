import { describe, expect, it } from 'vitest';
import type { NftExpr, NftRule, NftTable } from '../../netfilter/nft-model.ts';
import { nftListTable } from '../../netfilter/nft-list.ts';
import { makeEndpointSlice, makeProxyInput, makeService, myappFixture } from '../test-helpers.ts';
import {
  hashAndTruncate,
  servicePortChainNameBase,
  servicePortEndpointChainNameBase,
} from './chain-names.ts';
import { renderNftables } from './sync-proxy-rules.ts';

describe('nftables names (kubernetes-facts §2.1)', () => {
  it.each([
    [servicePortChainNameBase('ns1', 'svc1', 'tcp', 'p80'), 'ULMVA6XW-ns1/svc1/tcp/p80'],
    [
      servicePortEndpointChainNameBase('ns1', 'svc1', 'tcp', 'p80', '10.180.0.1:80'),
      '5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80',
    ],
    [servicePortChainNameBase('default', 'myapp', 'tcp', ''), '6QYGQ5L4-default/myapp/tcp/'],
    [
      servicePortEndpointChainNameBase('default', 'myapp', 'tcp', '', '10.244.1.5:8080'),
      'XJT6HD5R-default/myapp/tcp/__10.244.1.5/8080',
    ],
    [
      servicePortChainNameBase('kube-system', 'kube-dns', 'udp', 'dns'),
      'FY5PMXPG-kube-system/kube-dns/udp/dns',
    ],
    [
      servicePortChainNameBase('kube-system', 'kube-dns', 'tcp', 'dns-tcp'),
      'NWBZK7IH-kube-system/kube-dns/tcp/dns-tcp',
    ],
    [
      servicePortChainNameBase('default', 'kubernetes', 'tcp', 'https'),
      '2QRHZV4L-default/kubernetes/tcp/https',
    ],
    // real listings (nft list table ip kube-proxy on a kubeadm and a k3s node)
    [
      servicePortChainNameBase('kube-system', 'kube-dns', 'tcp', 'metrics'),
      'AS2KJYAD-kube-system/kube-dns/tcp/metrics',
    ],
    [
      servicePortEndpointChainNameBase('default', 'kubernetes', 'tcp', 'https', '10.128.0.16:6443'),
      '573J25N3-default/kubernetes/tcp/https__10.128.0.16/6443',
    ],
  ])('%s', (got, want) => expect(got).toBe(want));

  it('truncates names longer than 240 characters with "..."', () => {
    const long = hashAndTruncate('x'.repeat(300));
    expect(long).toHaveLength(240);
    expect(long.endsWith('...')).toBe(true);
  });
});

/** knftables' transaction syntax (what upstream's fake records), to compare with its tests. */
function knftExpr(e: NftExpr): string {
  switch (e.k) {
    case 'ct-state-new':
      return 'ct state new';
    case 'ip':
      return `ip ${e.field} ${e.op === '!=' ? '!= ' : ''}${e.value}`;
    case 'ip-anon':
      return `ip ${e.field} ${e.op === '!=' ? '!= ' : ''}{ ${e.values.join(' , ')} }`;
    case 'ip-in-set':
      return `ip ${e.field} @${e.set}`;
    case 'fib-local':
      return `fib ${e.field} type local`;
    case 'l4proto':
      return `meta l4proto ${e.proto}`;
    case 'mark-unset':
      return `mark and 0x${e.mask.toString(16)} == 0`;
    case 'jump':
    case 'goto':
      return `${e.k} ${e.chain}`;
    case 'vmap':
      return e.key === 'daddr-proto-port'
        ? `ip daddr . meta l4proto . th dport vmap @${e.map}`
        : `meta l4proto . th dport vmap @${e.map}`;
    case 'numgen':
      return `numgen random mod ${e.targets.length} vmap { ${e.targets.map((t, i) => `${i} : goto ${t}`).join(' , ')} }`;
    case 'masquerade':
      return 'masquerade fully-random';
    case 'dnat':
      return `dnat to ${e.to}`;
    case 'mark-set':
      return `mark set mark ${e.op} 0x${e.value.toString(16)}`;
    case 'update':
      return `update @${e.set} { ip saddr }`;
    default:
      return e.k;
  }
}

function knftDump(t: NftTable): string[] {
  const lines = [`add table ip kube-proxy { comment "rules for kube-proxy" ; }`];
  for (const s of t.sets) {
    const opts = [`type ${s.type}`];
    if (s.flags) opts.push(`flags ${s.flags.join(',')}`);
    if (s.timeoutSeconds !== undefined) opts.push(`timeout ${s.timeoutSeconds}s`);
    if (s.comment) opts.push(`comment "${s.comment}"`);
    lines.push(`add ${s.kind} ip kube-proxy ${s.name} { ${opts.join(' ; ')} ; }`);
    for (const e of s.elements) {
      const c = e.comment ? ` comment "${e.comment}"` : '';
      lines.push(
        `add element ip kube-proxy ${s.name} { ${e.key.join(' . ')}${c}${e.value ? ` : ${e.value}` : ''} }`,
      );
    }
  }
  for (const c of t.chains) {
    if (c.base)
      lines.push(
        `add chain ip kube-proxy ${c.name} { type ${c.base.type} hook ${c.base.hook} priority ${c.base.priority} ; }`,
      );
    else if (c.comment) lines.push(`add chain ip kube-proxy ${c.name} { comment "${c.comment}" ; }`);
    else lines.push(`add chain ip kube-proxy ${c.name}`);
    for (const r of c.rules as NftRule[]) {
      lines.push(
        `add rule ip kube-proxy ${c.name} ${r.exprs.map(knftExpr).join(' ')}${r.comment ? ` comment "${r.comment}"` : ''}`,
      );
    }
  }
  return lines;
}

// Expected output of TestOverallNFTablesRules, kubernetes/kubernetes pkg/proxy/nftables/proxier_test.go
// @ 81810de635aa13aa0a32992f6def3aa9d6025ebc (baseRules + the svc1…svc6 blocks).
const UPSTREAM_EXPECTED = `
add table ip kube-proxy { comment "rules for kube-proxy" ; }
add set ip kube-proxy cluster-ips { type ipv4_addr ; comment "Active ClusterIPs" ; }
add set ip kube-proxy nodeport-ips { type ipv4_addr ; comment "IPs that accept NodePort traffic" ; }
add map ip kube-proxy firewall-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "destinations that are subject to LoadBalancerSourceRanges" ; }
add map ip kube-proxy no-endpoint-nodeports { type inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to service nodeports with no endpoints" ; }
add map ip kube-proxy no-endpoint-services { type ipv4_addr . inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to services with no endpoints" ; }
add map ip kube-proxy service-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "ClusterIP, ExternalIP and LoadBalancer IP traffic" ; }
add map ip kube-proxy service-nodeports { type inet_proto . inet_service : verdict ; comment "NodePort traffic" ; }
add chain ip kube-proxy cluster-ips-check
add chain ip kube-proxy filter-prerouting-pre-dnat { type filter hook prerouting priority -110 ; }
add chain ip kube-proxy filter-output-pre-dnat { type filter hook output priority -110 ; }
add chain ip kube-proxy filter-forward { type filter hook forward priority 0 ; }
add chain ip kube-proxy filter-input { type filter hook input priority 0 ; }
add chain ip kube-proxy filter-output { type filter hook output priority 0 ; }
add chain ip kube-proxy firewall-check
add chain ip kube-proxy mark-for-masquerade
add chain ip kube-proxy masquerading
add chain ip kube-proxy nat-output { type nat hook output priority -100 ; }
add chain ip kube-proxy nat-postrouting { type nat hook postrouting priority 100 ; }
add chain ip kube-proxy nat-prerouting { type nat hook prerouting priority -100 ; }
add chain ip kube-proxy nodeport-endpoints-check
add chain ip kube-proxy reject-chain { comment "helper for @no-endpoint-services / @no-endpoint-nodeports" ; }
add chain ip kube-proxy services
add chain ip kube-proxy service-endpoints-check
add rule ip kube-proxy cluster-ips-check ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"
add rule ip kube-proxy cluster-ips-check ip daddr { 172.30.0.0/16 } drop comment "Drop traffic to unallocated ClusterIPs"
add rule ip kube-proxy filter-prerouting-pre-dnat ct state new jump firewall-check
add rule ip kube-proxy filter-forward ct state new jump service-endpoints-check
add rule ip kube-proxy filter-forward ct state new jump cluster-ips-check
add rule ip kube-proxy filter-input ct state new jump nodeport-endpoints-check
add rule ip kube-proxy filter-input ct state new jump service-endpoints-check
add rule ip kube-proxy filter-output ct state new jump service-endpoints-check
add rule ip kube-proxy filter-output-pre-dnat ct state new jump firewall-check
add rule ip kube-proxy filter-output ct state new jump cluster-ips-check
add rule ip kube-proxy firewall-check ip daddr . meta l4proto . th dport vmap @firewall-ips
add rule ip kube-proxy mark-for-masquerade mark set mark or 0x4000
add rule ip kube-proxy masquerading mark and 0x4000 == 0 return
add rule ip kube-proxy masquerading mark set mark xor 0x4000
add rule ip kube-proxy masquerading masquerade fully-random
add rule ip kube-proxy nat-output jump services
add rule ip kube-proxy nat-postrouting jump masquerading
add rule ip kube-proxy nat-prerouting jump services
add rule ip kube-proxy nodeport-endpoints-check ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports
add rule ip kube-proxy reject-chain reject
add rule ip kube-proxy services ip daddr . meta l4proto . th dport vmap @service-ips
add rule ip kube-proxy services ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports
add element ip kube-proxy nodeport-ips { 192.168.0.2 }
add rule ip kube-proxy service-endpoints-check ip daddr . meta l4proto . th dport vmap @no-endpoint-services
add chain ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80
add rule ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80 ip daddr 172.30.0.41 ip saddr != 10.0.0.0/8 jump mark-for-masquerade
add rule ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80 numgen random mod 1 vmap { 0 : goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 }
add chain ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80
add rule ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 ip saddr 10.180.0.1 jump mark-for-masquerade
add rule ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 meta l4proto tcp dnat to 10.180.0.1:80
add element ip kube-proxy cluster-ips { 172.30.0.41 }
add element ip kube-proxy service-ips { 172.30.0.41 . tcp . 80 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
add chain ip kube-proxy service-42NFTM6N-ns2/svc2/tcp/p80
add rule ip kube-proxy service-42NFTM6N-ns2/svc2/tcp/p80 ip daddr 172.30.0.42 ip saddr != 10.0.0.0/8 jump mark-for-masquerade
add rule ip kube-proxy service-42NFTM6N-ns2/svc2/tcp/p80 numgen random mod 1 vmap { 0 : goto endpoint-SGOXE6O3-ns2/svc2/tcp/p80__10.180.0.2/80 }
add chain ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80
add rule ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80 ip saddr 10.0.0.0/8 goto service-42NFTM6N-ns2/svc2/tcp/p80 comment "short-circuit pod traffic"
add rule ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80 fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"
add rule ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80 fib saddr type local goto service-42NFTM6N-ns2/svc2/tcp/p80 comment "short-circuit local traffic"
add chain ip kube-proxy endpoint-SGOXE6O3-ns2/svc2/tcp/p80__10.180.0.2/80
add rule ip kube-proxy endpoint-SGOXE6O3-ns2/svc2/tcp/p80__10.180.0.2/80 ip saddr 10.180.0.2 jump mark-for-masquerade
add rule ip kube-proxy endpoint-SGOXE6O3-ns2/svc2/tcp/p80__10.180.0.2/80 meta l4proto tcp dnat to 10.180.0.2:80
add element ip kube-proxy cluster-ips { 172.30.0.42 }
add element ip kube-proxy service-ips { 172.30.0.42 . tcp . 80 : goto service-42NFTM6N-ns2/svc2/tcp/p80 }
add element ip kube-proxy service-ips { 192.168.99.22 . tcp . 80 : goto external-42NFTM6N-ns2/svc2/tcp/p80 }
add element ip kube-proxy service-ips { 1.2.3.4 . tcp . 80 : goto external-42NFTM6N-ns2/svc2/tcp/p80 }
add element ip kube-proxy service-nodeports { tcp . 3001 : goto external-42NFTM6N-ns2/svc2/tcp/p80 }
add element ip kube-proxy no-endpoint-nodeports { tcp . 3001 comment "ns2/svc2:p80" : drop }
add element ip kube-proxy no-endpoint-services { 1.2.3.4 . tcp . 80 comment "ns2/svc2:p80" : drop }
add element ip kube-proxy no-endpoint-services { 192.168.99.22 . tcp . 80 comment "ns2/svc2:p80" : drop }
add chain ip kube-proxy service-4AT6LBPK-ns3/svc3/tcp/p80
add rule ip kube-proxy service-4AT6LBPK-ns3/svc3/tcp/p80 ip daddr 172.30.0.43 ip saddr != 10.0.0.0/8 jump mark-for-masquerade
add rule ip kube-proxy service-4AT6LBPK-ns3/svc3/tcp/p80 numgen random mod 1 vmap { 0 : goto endpoint-UEIP74TE-ns3/svc3/tcp/p80__10.180.0.3/80 }
add chain ip kube-proxy external-4AT6LBPK-ns3/svc3/tcp/p80
add rule ip kube-proxy external-4AT6LBPK-ns3/svc3/tcp/p80 jump mark-for-masquerade
add rule ip kube-proxy external-4AT6LBPK-ns3/svc3/tcp/p80 goto service-4AT6LBPK-ns3/svc3/tcp/p80
add chain ip kube-proxy endpoint-UEIP74TE-ns3/svc3/tcp/p80__10.180.0.3/80
add rule ip kube-proxy endpoint-UEIP74TE-ns3/svc3/tcp/p80__10.180.0.3/80 ip saddr 10.180.0.3 jump mark-for-masquerade
add rule ip kube-proxy endpoint-UEIP74TE-ns3/svc3/tcp/p80__10.180.0.3/80 meta l4proto tcp dnat to 10.180.0.3:80
add element ip kube-proxy cluster-ips { 172.30.0.43 }
add element ip kube-proxy service-ips { 172.30.0.43 . tcp . 80 : goto service-4AT6LBPK-ns3/svc3/tcp/p80 }
add element ip kube-proxy service-nodeports { tcp . 3003 : goto external-4AT6LBPK-ns3/svc3/tcp/p80 }
add chain ip kube-proxy service-LAUZTJTB-ns4/svc4/tcp/p80
add rule ip kube-proxy service-LAUZTJTB-ns4/svc4/tcp/p80 ip daddr 172.30.0.44 ip saddr != 10.0.0.0/8 jump mark-for-masquerade
add rule ip kube-proxy service-LAUZTJTB-ns4/svc4/tcp/p80 numgen random mod 2 vmap { 0 : goto endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80 , 1 : goto endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80 }
add chain ip kube-proxy external-LAUZTJTB-ns4/svc4/tcp/p80
add rule ip kube-proxy external-LAUZTJTB-ns4/svc4/tcp/p80 jump mark-for-masquerade
add rule ip kube-proxy external-LAUZTJTB-ns4/svc4/tcp/p80 goto service-LAUZTJTB-ns4/svc4/tcp/p80
add chain ip kube-proxy endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80
add rule ip kube-proxy endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80 ip saddr 10.180.0.5 jump mark-for-masquerade
add rule ip kube-proxy endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80 meta l4proto tcp dnat to 10.180.0.5:80
add chain ip kube-proxy endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80
add rule ip kube-proxy endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80 ip saddr 10.180.0.4 jump mark-for-masquerade
add rule ip kube-proxy endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80 meta l4proto tcp dnat to 10.180.0.4:80
add element ip kube-proxy cluster-ips { 172.30.0.44 }
add element ip kube-proxy service-ips { 172.30.0.44 . tcp . 80 : goto service-LAUZTJTB-ns4/svc4/tcp/p80 }
add element ip kube-proxy service-ips { 192.168.99.33 . tcp . 80 : goto external-LAUZTJTB-ns4/svc4/tcp/p80 }
add set ip kube-proxy affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { type ipv4_addr ; flags dynamic,timeout ; timeout 10800s ; }
add chain ip kube-proxy service-HVFWP5L3-ns5/svc5/tcp/p80
add rule ip kube-proxy service-HVFWP5L3-ns5/svc5/tcp/p80 ip daddr 172.30.0.45 ip saddr != 10.0.0.0/8 jump mark-for-masquerade
add rule ip kube-proxy service-HVFWP5L3-ns5/svc5/tcp/p80 ip saddr @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 goto endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80
add rule ip kube-proxy service-HVFWP5L3-ns5/svc5/tcp/p80 numgen random mod 1 vmap { 0 : goto endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 }
add chain ip kube-proxy external-HVFWP5L3-ns5/svc5/tcp/p80
add rule ip kube-proxy external-HVFWP5L3-ns5/svc5/tcp/p80 jump mark-for-masquerade
add rule ip kube-proxy external-HVFWP5L3-ns5/svc5/tcp/p80 goto service-HVFWP5L3-ns5/svc5/tcp/p80
add chain ip kube-proxy endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80
add rule ip kube-proxy endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 ip saddr 10.180.0.3 jump mark-for-masquerade
add rule ip kube-proxy endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 update @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { ip saddr }
add rule ip kube-proxy endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 meta l4proto tcp dnat to 10.180.0.3:80
add chain ip kube-proxy firewall-HVFWP5L3-ns5/svc5/tcp/p80
add rule ip kube-proxy firewall-HVFWP5L3-ns5/svc5/tcp/p80 ip saddr != { 203.0.113.0/25 } drop
add element ip kube-proxy cluster-ips { 172.30.0.45 }
add element ip kube-proxy service-ips { 172.30.0.45 . tcp . 80 : goto service-HVFWP5L3-ns5/svc5/tcp/p80 }
add element ip kube-proxy service-ips { 5.6.7.8 . tcp . 80 : goto external-HVFWP5L3-ns5/svc5/tcp/p80 }
add element ip kube-proxy service-nodeports { tcp . 3002 : goto external-HVFWP5L3-ns5/svc5/tcp/p80 }
add element ip kube-proxy firewall-ips { 5.6.7.8 . tcp . 80 : goto firewall-HVFWP5L3-ns5/svc5/tcp/p80 }
add element ip kube-proxy cluster-ips { 172.30.0.46 }
add element ip kube-proxy no-endpoint-services { 172.30.0.46 . tcp . 80 comment "ns6/svc6:p80" : goto reject-chain }
`;

function upstreamFixture() {
  const svcs = [
    makeService('ns1', 'svc1', (s) => {
      s.spec = { clusterIP: '172.30.0.41', ports: [{ name: 'p80', port: 80, protocol: 'TCP' }] };
    }),
    makeService('ns2', 'svc2', (s) => {
      s.spec = {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        clusterIP: '172.30.0.42',
        ports: [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3001 }],
        externalIPs: ['192.168.99.22'],
        healthCheckNodePort: 30000,
      };
      s.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } };
    }),
    makeService('ns3', 'svc3', (s) => {
      s.spec = {
        type: 'NodePort',
        clusterIP: '172.30.0.43',
        ports: [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3003 }],
      };
    }),
    makeService('ns4', 'svc4', (s) => {
      s.spec = {
        type: 'NodePort',
        clusterIP: '172.30.0.44',
        externalIPs: ['192.168.99.33'],
        ports: [{ name: 'p80', port: 80, protocol: 'TCP', targetPort: 80 }],
      };
    }),
    makeService('ns5', 'svc5', (s) => {
      s.spec = {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Cluster',
        clusterIP: '172.30.0.45',
        ports: [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3002 }],
        healthCheckNodePort: 30000,
        loadBalancerSourceRanges: [' 203.0.113.0/25'],
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      };
      s.status = { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } };
    }),
    makeService('ns6', 'svc6', (s) => {
      s.spec = {
        type: 'ClusterIP',
        clusterIP: '172.30.0.46',
        ports: [{ name: 'p80', port: 80, protocol: 'TCP', targetPort: 80 }],
      };
    }),
  ];
  const ep = (ns: string, name: string, eps: { ip: string; node?: string }[]) =>
    makeEndpointSlice(ns, name, 1, (e) => {
      e.endpoints = eps.map((x) => ({ addresses: [x.ip], ...(x.node ? { nodeName: x.node } : {}) }));
      e.ports = [{ name: 'p80', port: 80, protocol: 'TCP' }];
    });
  const slices = [
    ep('ns1', 'svc1', [{ ip: '10.180.0.1' }]),
    ep('ns2', 'svc2', [{ ip: '10.180.0.2' }]),
    ep('ns3', 'svc3', [{ ip: '10.180.0.3' }]),
    ep('ns4', 'svc4', [{ ip: '10.180.0.4' }, { ip: '10.180.0.5', node: 'test-node' }]),
    ep('ns5', 'svc5', [{ ip: '10.180.0.3' }]),
  ];
  return makeProxyInput(svcs, slices);
}

describe('nftables mode against upstream TestOverallNFTablesRules', () => {
  const expected = UPSTREAM_EXPECTED.split('\n').filter((l) => l.trim() !== '');
  const got = knftDump(renderNftables(upstreamFixture()));

  it('produces exactly the same objects, rules and elements', () => {
    expect([...got].sort()).toEqual([...expected].sort());
  });

  it('keeps the rule order of every chain', () => {
    const rulesOf = (lines: string[], chain: string) =>
      lines.filter((l) => l.startsWith(`add rule ip kube-proxy ${chain} `));
    const chains = new Set(
      expected.filter((l) => l.startsWith('add chain')).map((l) => l.split(' ')[4] ?? ''),
    );
    for (const c of chains) expect(rulesOf(got, c)).toEqual(rulesOf(expected, c));
  });
});

describe('nft list table ip kube-proxy', () => {
  const table = renderNftables(myappFixture('NodePort'));
  const text = nftListTable(table);

  it('starts like a real listing: comment, then sets in creation order', () => {
    expect(
      text.startsWith(
        'table ip kube-proxy {\n\tcomment "rules for kube-proxy"\n\tset cluster-ips {\n\t\ttype ipv4_addr\n\t\tcomment "Active ClusterIPs"\n\t\telements = { 10.96.45.12 }\n\t}\n\n\tset nodeport-ips {\n',
      ),
    ).toBe(true);
    expect([...text.matchAll(/^\t(?:set|map) (\S+) \{/gm)].map((m) => m[1])).toEqual([
      'cluster-ips',
      'nodeport-ips',
      'no-endpoint-services',
      'no-endpoint-nodeports',
      'firewall-ips',
      'service-ips',
      'service-nodeports',
    ]);
  });

  it('prints the service dispatch map and the numgen rule like nft', () => {
    expect(text).toContain(
      '\tmap service-ips {\n\t\ttype ipv4_addr . inet_proto . inet_service : verdict\n\t\tcomment "ClusterIP, ExternalIP and LoadBalancer IP traffic"\n\t\telements = { 10.96.45.12 . tcp . 80 : goto service-6QYGQ5L4-default/myapp/tcp/ }\n\t}\n',
    );
    expect(text).toContain(
      '\t\tnumgen random mod 2 vmap { 0 : goto endpoint-XJT6HD5R-default/myapp/tcp/__10.244.1.5/8080, 1 : goto endpoint-',
    );
    expect(text).toContain('\t\tip daddr 10.96.45.12 ip saddr != 10.244.0.0/16 jump mark-for-masquerade\n');
    expect(text).toContain('\t\tmeta l4proto tcp dnat to 10.244.1.5:8080\n');
  });

  it('prints base chains with nft symbolic priorities', () => {
    expect(text).toContain(
      '\tchain filter-prerouting-pre-dnat {\n\t\ttype filter hook prerouting priority dstnat - 10; policy accept;\n\t\tct state new jump firewall-check\n\t}\n',
    );
    expect(text).toContain(
      '\tchain filter-input {\n\t\ttype filter hook input priority filter; policy accept;\n',
    );
    expect(text).toContain(
      '\tchain nat-output {\n\t\ttype nat hook output priority dstnat; policy accept;\n\t\tjump services\n\t}\n',
    );
    expect(text).toContain(
      '\tchain nat-postrouting {\n\t\ttype nat hook postrouting priority srcnat; policy accept;\n',
    );
    expect(text).toContain(
      '\tchain reject-chain {\n\t\tcomment "helper for @no-endpoint-services / @no-endpoint-nodeports"\n\t\treject\n\t}\n',
    );
    expect(text).toContain('\tchain mark-for-masquerade {\n\t\tmeta mark set meta mark | 0x00004000\n\t}\n');
    expect(text).toContain(
      '\tchain masquerading {\n\t\tmeta mark & 0x00004000 == 0x00000000 return\n\t\tmeta mark set meta mark ^ 0x00004000\n\t\tmasquerade fully-random\n\t}\n',
    );
    expect(text).toContain(
      '\t\tip daddr 10.96.0.0/12 drop comment "Drop traffic to unallocated ClusterIPs"\n',
    );
  });

  it('accepts NodePorts on the primary address only (nodeport-ips)', () => {
    expect(text).toContain(
      '\tset nodeport-ips {\n\t\ttype ipv4_addr\n\t\tcomment "IPs that accept NodePort traffic"\n\t\telements = { 172.18.0.3 }\n\t}\n',
    );
    expect(text).toContain('\t\tip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports\n');
    expect(text).toContain('elements = { tcp . 30080 : goto external-6QYGQ5L4-default/myapp/tcp/ }');
  });

  it('orders and wraps elements as real listings do', () => {
    // The k3s listing shows 10.43.0.10 tcp 53, udp 53, then 10.43.195.72 tcp 8000, 10.43.34.64 tcp 3001.
    const svc = (name: string, ip: string, ports: [string, number, 'TCP' | 'UDP'][]) =>
      makeService('kube-system', name, (s) => {
        s.spec = {
          clusterIP: ip,
          ports: ports.map(([n, p, proto]) => ({ name: n, port: p, protocol: proto })),
        };
      });
    const slice = (name: string, ports: [string, number, 'TCP' | 'UDP'][]) =>
      makeEndpointSlice('kube-system', name, 1, (e) => {
        e.endpoints = [{ addresses: ['10.42.0.5'] }];
        e.ports = ports.map(([n, p, proto]) => ({ name: n, port: p, protocol: proto }));
      });
    const dns: [string, number, 'TCP' | 'UDP'][] = [
      ['dns', 53, 'UDP'],
      ['dns-tcp', 53, 'TCP'],
    ];
    const input = makeProxyInput(
      [
        svc('kube-dns', '10.43.0.10', dns),
        svc('a', '10.43.195.72', [['', 8000, 'TCP']]),
        svc('b', '10.43.34.64', [['http', 3001, 'TCP']]),
      ],
      [slice('kube-dns', dns), slice('a', [['', 8000, 'TCP']]), slice('b', [['http', 3001, 'TCP']])],
    );
    const listing = nftListTable(renderNftables(input));
    const keys = [...listing.matchAll(/(\d+\.\d+\.\d+\.\d+ \. \w+ \. \d+) : goto service-/g)].map(
      (m) => m[1],
    );
    expect(keys).toEqual([
      '10.43.0.10 . tcp . 53',
      '10.43.0.10 . udp . 53',
      '10.43.195.72 . tcp . 8000',
      '10.43.34.64 . tcp . 3001',
    ]);
    expect(listing).toContain(
      'elements = { 10.43.0.10 . tcp . 53 : goto service-NWBZK7IH-kube-system/kube-dns/tcp/dns-tcp,\n\t\t\t     10.43.0.10 . udp . 53 : goto',
    );
    expect(listing).toContain('elements = { 10.43.0.10, 10.43.34.64,\n\t\t\t     10.43.195.72 }');
  });

  it('keeps the creation order of chains across renderings', () => {
    const first = renderNftables(myappFixture());
    const again = renderNftables(myappFixture('NodePort'), first);
    const names = again.chains.map((c) => c.name);
    expect(names.indexOf('external-6QYGQ5L4-default/myapp/tcp/')).toBe(names.length - 1);
    expect(names.slice(0, first.chains.length)).toEqual(first.chains.map((c) => c.name));
  });
});
