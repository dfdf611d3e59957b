import { describe, expect, it } from 'vitest';
import { conntrackList, ConntrackTable, formatEntry } from './conntrack.ts';

describe('conntrack -L', () => {
  it('prints an established, DNATed TCP connection like conntrack-tools 1.4.7', () => {
    const t = new ConntrackTable();
    const e = t.create(
      {
        protocol: 'tcp',
        orig: { src: '10.244.1.3', dst: '10.96.45.12', sport: 43210, dport: 80 },
        dnat: '10.244.2.7:8080',
      },
      0,
    );
    t.replied(e, 0);
    // The format of the brief (and of `conntrack -L` on a node): 86398 s left two seconds later.
    expect(formatEntry(e, 2000)).toBe(
      'tcp      6 86398 ESTABLISHED src=10.244.1.3 dst=10.96.45.12 sport=43210 dport=80 src=10.244.2.7 dst=10.244.1.3 sport=8080 dport=43210 [ASSURED] mark=0 use=1',
    );
  });

  it('shows an unanswered UDP flow as [UNREPLIED] and the summary on stderr', () => {
    const t = new ConntrackTable();
    t.create(
      {
        protocol: 'udp',
        orig: { src: '10.244.1.3', dst: '10.96.0.10', sport: 51234, dport: 53 },
        dnat: '10.244.0.5:53',
      },
      0,
    );
    const out = conntrackList(t, 2000);
    expect(out.stdout).toBe(
      'udp      17 28 src=10.244.1.3 dst=10.96.0.10 sport=51234 dport=53 [UNREPLIED] src=10.244.0.5 dst=10.244.1.3 sport=53 dport=51234 mark=0 use=1\n',
    );
    expect(out.stderr).toBe('conntrack v1.4.7 (conntrack-tools): 1 flow entries have been shown.\n');
  });

  it('UDP as nf_conntrack_proto_udp: a lone answered query is neither UNREPLIED nor ASSURED; a stream is', () => {
    const t = new ConntrackTable();
    const dns = () =>
      t.create(
        {
          protocol: 'udp',
          orig: { src: '10.244.1.3', dst: '10.96.0.10', sport: 51234, dport: 53 },
          dnat: '10.244.0.5:53',
        },
        0,
      );
    const e = dns();
    t.replied(e, 5);
    // The first reply refreshes the unreplied timeout (30 s): IPS_SEEN_REPLY is set after udp_packet.
    expect(formatEntry(e, 2000)).toBe(
      'udp      17 28 src=10.244.1.3 dst=10.96.0.10 sport=51234 dport=53 src=10.244.0.5 dst=10.244.1.3 sport=53 dport=51234 mark=0 use=1',
    );
    // More traffic within two seconds of the first packet: still 30 s, not a stream.
    t.replied(e, 1500);
    expect(formatEntry(e, 1500)).toMatch(/^udp {6}17 30 .* sport=53 dport=51234 mark=0 use=1$/);
    // Traffic after the two seconds: the stream timeout (120 s) and ASSURED.
    t.replied(e, 2500);
    expect(formatEntry(e, 2500)).toMatch(/^udp {6}17 120 .* sport=53 dport=51234 \[ASSURED\] mark=0 use=1$/);
  });

  it('ICMP: an answered echo is not UNREPLIED and never ASSURED (30 s)', () => {
    const t = new ConntrackTable();
    const e = t.create(
      { protocol: 'icmp', orig: { src: '10.244.1.3', dst: '10.244.2.7', sport: 7, dport: 7 } },
      0,
    );
    t.replied(e, 0);
    t.replied(e, 5000);
    expect(formatEntry(e, 5000)).toBe(
      'icmp     1 30 src=10.244.1.3 dst=10.244.2.7 type=8 code=0 id=7 src=10.244.2.7 dst=10.244.1.3 type=0 code=0 id=7 mark=0 use=1',
    );
  });

  it('records masquerade in the reply tuple', () => {
    const t = new ConntrackTable();
    const e = t.create(
      {
        protocol: 'tcp',
        orig: { src: '203.0.113.2', dst: '172.18.0.3', sport: 40000, dport: 30080 },
        dnat: '10.244.2.7:8080',
        snat: '172.18.0.3',
      },
      0,
    );
    expect(formatEntry(e, 0)).toContain('src=10.244.2.7 dst=172.18.0.3 sport=8080 dport=40000');
    expect(formatEntry(e, 0)).toMatch(/^tcp      6 120 SYN_SENT /);
  });

  it('keeps a connection on its backend until the entry expires', () => {
    const t = new ConntrackTable();
    const orig = { src: '10.244.1.3', dst: '10.96.45.12', sport: 43210, dport: 80 };
    const e = t.create({ protocol: 'tcp', orig, dnat: '10.244.2.7:8080' }, 0);
    t.replied(e, 0);
    expect(t.lookup('tcp', orig, 3_600_000)?.dnat).toBe('10.244.2.7:8080');
    t.close(e, 3_600_000);
    expect(t.lookup('tcp', orig, 3_600_000 + 119_000)?.state).toBe('TIME_WAIT');
    expect(t.lookup('tcp', orig, 3_600_000 + 120_000)).toBeUndefined();
  });

  it('sorts entries and deletes by predicate (kube-proxy clearing stale UDP entries)', () => {
    const t = new ConntrackTable();
    t.create(
      {
        protocol: 'udp',
        orig: { src: '10.244.1.9', dst: '10.96.0.10', sport: 1000, dport: 53 },
        dnat: '10.244.0.5:53',
      },
      0,
    );
    t.create({ protocol: 'tcp', orig: { src: '10.244.1.10', dst: '10.96.0.1', sport: 2000, dport: 443 } }, 0);
    t.create({ protocol: 'tcp', orig: { src: '10.244.1.2', dst: '10.96.0.1', sport: 2000, dport: 443 } }, 0);
    expect(t.list(0).map((e) => `${e.protocol} ${e.orig.src}`)).toEqual([
      'tcp 10.244.1.2',
      'tcp 10.244.1.10',
      'udp 10.244.1.9',
    ]);
    expect(t.deleteWhere((e) => e.dnat === '10.244.0.5:53')).toBe(1);
    expect(t.size).toBe(2);
  });
});
