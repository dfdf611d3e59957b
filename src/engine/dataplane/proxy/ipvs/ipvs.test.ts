import { describe, expect, it } from 'vitest';
import { Rng } from '../../../util/rng.ts';
import { applyIptablesRestore } from '../../netfilter/iptables-restore.ts';
import { iptablesSave } from '../../netfilter/iptables-save.ts';
import { emptyRuleset } from '../../netfilter/ruleset.ts';
import type { Packet } from '../../netfilter/packet.ts';
import { makeEndpointSlice, makeProxyInput, makeService } from '../test-helpers.ts';
import { IPVS_DEPRECATION_WARNING, proxierStartupLog } from './deprecation.ts';
import { counterKey, ipvsadmList } from './ipvsadm.ts';
import { IpvsState } from './schedulers.ts';
import { renderIpvs } from './sync-proxy-rules.ts';
import { traceIpvs } from './trace-ipvs.ts';
import type { Service } from '../../../api/objects.ts';

describe('ipvsadm -Ln', () => {
  // kubernetes pkg/proxy/ipvs/README.md @ 054d429d (kubernetes-facts §3); docs strip trailing blanks.
  const readme = `IP Virtual Server version 1.2.1 (size=4096)
Prot LocalAddress:Port Scheduler Flags
  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn
TCP  10.0.0.1:443 rr persistent 10800
  -> 192.168.0.1:6443             Masq    1      1          0
TCP  10.0.0.10:53 rr
  -> 172.17.0.2:53                Masq    1      0          0
UDP  10.0.0.10:53 rr
  -> 172.17.0.2:53                Masq    1      0          0
`;
  const input = makeProxyInput(
    [
      makeService('kube-system', 'kube-dns', (s) => {
        s.spec = {
          clusterIP: '10.0.0.10',
          ports: [
            { name: 'dns', port: 53, protocol: 'UDP' },
            { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          ],
        };
      }),
      makeService('default', 'kubernetes', (s) => {
        s.spec = {
          clusterIP: '10.0.0.1',
          sessionAffinity: 'ClientIP',
          ports: [{ name: 'https', port: 443, protocol: 'TCP' }],
        };
      }),
    ],
    [
      makeEndpointSlice('kube-system', 'kube-dns', 1, (e) => {
        e.endpoints = [{ addresses: ['172.17.0.2'] }];
        e.ports = [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        ];
      }),
      makeEndpointSlice('default', 'kubernetes', 1, (e) => {
        e.endpoints = [{ addresses: ['192.168.0.1'] }];
        e.ports = [{ name: 'https', port: 6443, protocol: 'TCP' }];
      }),
    ],
  );
  const ipvs = renderIpvs(input);

  it('prints the README example (one active connection to the API server)', () => {
    const api = ipvs.virtualServers.find((v) => v.port === 443);
    const counters = new Map([
      [counterKey(api!, { address: '192.168.0.1', port: 6443 }), { active: 1, inactive: 0 }],
    ]);
    const out = ipvsadmList(ipvs.virtualServers, counters);
    expect(out.replace(/ +$/gm, '')).toBe(readme);
  });

  it("pads the last column like ipvsadm's printf (%-10u)", () => {
    expect(ipvsadmList(ipvs.virtualServers)).toContain(
      '  -> 172.17.0.2:53                Masq    1      0          0         \n',
    );
  });

  it('sorts by protocol number, then address, then port', () => {
    const lines = ipvsadmList([
      { protocol: 'UDP', address: '10.0.0.2', port: 1, scheduler: 'rr', realServers: [], service: 'a' },
      { protocol: 'SCTP', address: '10.0.0.1', port: 1, scheduler: 'rr', realServers: [], service: 'b' },
      { protocol: 'TCP', address: '10.0.0.10', port: 80, scheduler: 'rr', realServers: [], service: 'c' },
      { protocol: 'TCP', address: '10.0.0.9', port: 443, scheduler: 'rr', realServers: [], service: 'd' },
      { protocol: 'TCP', address: '10.0.0.9', port: 80, scheduler: 'rr', realServers: [], service: 'e' },
    ])
      .split('\n')
      .slice(3, 8);
    expect(lines).toEqual([
      'TCP  10.0.0.9:80 rr',
      'TCP  10.0.0.9:443 rr',
      'TCP  10.0.0.10:80 rr',
      'UDP  10.0.0.2:1 rr',
      'SCTP 10.0.0.1:1 rr',
    ]);
  });

  it('binds every ClusterIP to kube-ipvs0 and fills the ipsets', () => {
    expect(ipvs.dummyAddresses).toEqual(['10.0.0.1', '10.0.0.10']);
    expect([...(ipvs.ipsets.get('KUBE-CLUSTER-IP') ?? [])].sort()).toEqual([
      '10.0.0.1,tcp:443',
      '10.0.0.10,tcp:53',
      '10.0.0.10,udp:53',
    ]);
    expect([...(ipvs.ipsets.get('KUBE-IPVS-IPS') ?? [])]).toEqual(['10.0.0.1', '10.0.0.10']);
  });
});

function svc(name: string, spec: Service['spec']): Service {
  return makeService('default', name, (s) => {
    s.spec = spec;
  });
}

const web = svc('web', {
  type: 'NodePort',
  clusterIP: '10.96.0.50',
  ports: [{ port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }],
});
const empty = svc('empty', { clusterIP: '10.96.0.51', ports: [{ port: 80, protocol: 'TCP' }] });
const webSlice = makeEndpointSlice('default', 'web', 1, (e) => {
  e.endpoints = ['10.244.1.5', '10.244.2.7', '10.244.3.9'].map((ip, i) => ({
    addresses: [ip],
    nodeName: i === 0 ? 'test-node' : 'node2',
  }));
  e.ports = [{ name: '', port: 8080, protocol: 'TCP' }];
});
const input = makeProxyInput([web, empty], [webSlice], {
  clusterCIDR: '10.244.0.0/16',
  nodeIP: '172.18.0.3',
});

function setup(scheduler = '') {
  const ipvs = renderIpvs(input, { scheduler });
  const rs = emptyRuleset();
  applyIptablesRestore(rs, ipvs.iptables);
  return { ipvs, rs, state: new IpvsState() };
}

describe('IPVS mode iptables rules', () => {
  const { rs } = setup();
  const save = iptablesSave(rs);

  it('masquerades off-cluster traffic to ClusterIPs through the KUBE-CLUSTER-IP ipset', () => {
    expect(save).toContain(
      '-A KUBE-SERVICES ! -s 10.244.0.0/16 -m comment --comment "Kubernetes service cluster ip + port for masquerade purpose" -m set --match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ\n',
    );
    expect(save).toContain('-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT\n');
    expect(save).toContain('-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT\n');
  });

  it('handles NodePorts and hairpin with ipsets', () => {
    expect(save).toContain(
      '-A KUBE-NODE-PORT -p tcp -m comment --comment "Kubernetes nodeport TCP port for masquerade purpose" -m set --match-set KUBE-NODE-PORT-TCP dst -j KUBE-MARK-MASQ\n',
    );
    expect(save).toContain(
      '-A KUBE-POSTROUTING -m comment --comment "Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose" -m set --match-set KUBE-LOOP-BACK dst,dst,src -j MASQUERADE\n',
    );
    expect(save).toContain(
      '-A KUBE-IPVS-FILTER -m conntrack --ctstate NEW -m set --match-set KUBE-IPVS-IPS dst -j REJECT --reject-with icmp-port-unreachable\n',
    );
  });

  it('writes no KUBE-SVC or KUBE-SEP chains', () => {
    expect(save).not.toMatch(/KUBE-(SVC|SEP)-/);
  });
});

describe('IPVS packet flows', () => {
  const node = '172.18.0.3';
  const walk = (s: ReturnType<typeof setup>, p: Packet) =>
    traceIpvs(s.ipvs, s.rs, p, { localAddresses: [node], rng: new Rng(1), nowMs: 0, state: s.state });

  it.each([
    {
      name: 'pod to ClusterIP',
      p: { srcIP: '10.244.1.9', destIP: '10.96.0.50', destPort: 80, fromLocalPod: true },
      verdict: 'DNAT',
      masq: false,
    },
    {
      name: 'external to NodePort',
      p: { srcIP: '203.0.113.2', destIP: node, destPort: 30080, inboundInterface: 'eth0' },
      verdict: 'DNAT',
      masq: true,
    },
    {
      name: 'node to ClusterIP',
      p: { srcIP: node, destIP: '10.96.0.50', destPort: 80 },
      verdict: 'DNAT',
      masq: true,
    },
    {
      name: 'ClusterIP without endpoints is refused',
      p: { srcIP: '10.244.1.9', destIP: '10.96.0.51', destPort: 80, fromLocalPod: true },
      verdict: 'REJECT',
      masq: false,
    },
    {
      name: 'wrong port of a ClusterIP is rejected by KUBE-IPVS-FILTER',
      p: { srcIP: '10.244.1.9', destIP: '10.96.0.50', destPort: 22, fromLocalPod: true },
      verdict: 'REJECT',
      masq: false,
    },
  ])('$name', ({ p, verdict, masq }) => {
    const r = walk(setup(), { protocol: 'TCP', ...p });
    expect(r.verdict).toBe(verdict);
    expect(r.masquerade).toBe(masq);
  });

  it('hairpin: an endpoint reaching itself through the VIP is masqueraded (KUBE-LOOP-BACK)', () => {
    const s = setup();
    // rr starts with the first real server, 10.244.1.5 — the pod itself.
    const r = walk(s, {
      srcIP: '10.244.1.5',
      destIP: '10.96.0.50',
      destPort: 80,
      protocol: 'TCP',
      fromLocalPod: true,
    });
    expect(r.dnatTo).toBe('10.244.1.5:8080');
    expect(r.masquerade).toBe(true);
  });

  it('round-robins over the real servers in ipvsadm order', () => {
    const s = setup();
    const picks = Array.from(
      { length: 6 },
      () =>
        walk(s, {
          srcIP: '10.244.1.9',
          destIP: '10.96.0.50',
          destPort: 80,
          protocol: 'TCP',
          fromLocalPod: true,
        }).dnatTo,
    );
    expect(picks).toEqual([
      '10.244.1.5:8080',
      '10.244.2.7:8080',
      '10.244.3.9:8080',
      '10.244.1.5:8080',
      '10.244.2.7:8080',
      '10.244.3.9:8080',
    ]);
  });

  it('lc picks the real server with the fewest connections', () => {
    const s = setup('lc');
    const vs = s.ipvs.virtualServers.find((v) => v.address === '10.96.0.50')!;
    s.state.connect(vs, { address: '10.244.1.5', port: 8080, weight: 1 });
    s.state.connect(vs, { address: '10.244.2.7', port: 8080, weight: 1 });
    const r = walk(s, {
      srcIP: '10.244.1.9',
      destIP: '10.96.0.50',
      destPort: 80,
      protocol: 'TCP',
      fromLocalPod: true,
    });
    expect(r.dnatTo).toBe('10.244.3.9:8080');
    expect(ipvsadmList(s.ipvs.virtualServers, s.state.counters)).toContain(
      '  -> 10.244.1.5:8080              Masq    1      1          0         \n',
    );
  });

  it('sh keeps a client on one real server', () => {
    const s = setup('sh');
    const picks = new Set(
      Array.from(
        { length: 5 },
        () =>
          walk(s, {
            srcIP: '10.244.1.9',
            destIP: '10.96.0.50',
            destPort: 80,
            protocol: 'TCP',
            fromLocalPod: true,
          }).dnatTo,
      ),
    );
    expect(picks.size).toBe(1);
  });

  it('evaluates the same number of rules whatever the number of Services', () => {
    const many = (n: number) => {
      const svcs: Service[] = [];
      for (let i = 0; i < n; i++)
        svcs.push(svc(`s${i}`, { clusterIP: `10.96.1.${i + 1}`, ports: [{ port: 80, protocol: 'TCP' }] }));
      const ipvs = renderIpvs(
        makeProxyInput([...svcs, web], [webSlice], { clusterCIDR: '10.244.0.0/16', nodeIP: node }),
      );
      const rs = emptyRuleset();
      applyIptablesRestore(rs, ipvs.iptables);
      return traceIpvs(
        ipvs,
        rs,
        { srcIP: '10.244.1.9', destIP: '10.96.0.50', destPort: 80, protocol: 'TCP', fromLocalPod: true },
        {
          localAddresses: [node],
          rng: new Rng(1),
          nowMs: 0,
          state: new IpvsState(),
        },
      ).evaluatedRules;
    };
    expect(many(5)).toBe(many(200));
  });
});

describe('IPVS deprecation (v1.35, KEP-5495)', () => {
  it('logs the deprecation at error level after "Using ipvs Proxier"', () => {
    expect(proxierStartupLog('ipvs')).toEqual([
      { severity: 'I', source: 'server_linux.go:194', message: '"Using ipvs Proxier"' },
      { severity: 'E', source: 'server_linux.go:196', message: `"${IPVS_DEPRECATION_WARNING}"` },
      {
        severity: 'I',
        source: 'proxier.go:351',
        message: '"IPVS scheduler not specified, use rr by default" ipFamily="IPv4"',
      },
    ]);
    expect(IPVS_DEPRECATION_WARNING).toBe(
      "The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead.",
    );
    expect(proxierStartupLog('nftables').some((l) => l.message.includes('deprecated'))).toBe(false);
  });
});
