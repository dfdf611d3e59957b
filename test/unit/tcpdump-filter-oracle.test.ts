/**
 * The filter compiler against libpcap: every expression is run by Debian's tcpdump over a pcap of
 * mixed frames (DNS, TCP with HTTP, RST, ICMP echo/unreachable/frag-needed, ARP, VXLAN on 8472 and
 * 4789, IP-in-IP) and by ours; both must keep the same packets or fail with the same message.
 * Skipped, with one printed line, when tcpdump is not installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as w from '../../src/engine/dataplane/capture/wire.ts';
import { writePcap } from '../../src/engine/dataplane/capture/pcap.ts';
import { decodeFrame } from '../../src/engine/dataplane/capture/decode.ts';
import { compileFilter, FilterError } from '../../src/engine/dataplane/capture/filter.ts';

const haveTcpdump = spawnSync('tcpdump', ['--version'], { stdio: 'ignore' }).status === 0;
if (!haveTcpdump) console.log('tcpdump-filter-oracle: skipped, Debian tcpdump not installed');

const dir = mkdtempSync(join(tmpdir(), 'pp-filter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function mixedFrames(): Uint8Array[] {
  const A = '02:00:00:00:00:01',
    B = '02:00:00:00:00:02';
  const c = '10.244.1.5',
    s = '10.96.0.10',
    srv = '10.244.2.7';
  const frames: Uint8Array[] = [];
  const ip = (src: string, dst: string, proto: number, p: Uint8Array, df = true) =>
    w.ethernet(B, A, w.ETHERTYPE_IPV4, w.ipv4({ src, dst, protocol: proto, id: 4321, ttl: 64, df }, p));
  frames.push(
    ip(
      c,
      s,
      17,
      w.udp(c, s, 40000, 53, w.dnsQuery({ id: 1234, name: 'web.default.svc.cluster.local.', type: 'A' })),
    ),
  );
  frames.push(
    ip(
      s,
      c,
      17,
      w.udp(
        s,
        c,
        53,
        40000,
        w.dnsResponse({
          id: 1234,
          rcode: 'NOERROR',
          flags: { aa: true, tc: false, rd: true, ra: false },
          question: { name: 'web.default.svc.cluster.local.', type: 'A' },
          answer: [{ type: 'A', name: 'web.default.svc.cluster.local.', ttl: 30, address: '10.96.12.3' }],
          authority: [],
          additional: [],
          cached: false,
          source: 'kubernetes',
        }),
      ),
    ),
  );
  frames.push(
    ip(
      s,
      c,
      17,
      w.udp(
        s,
        c,
        53,
        40000,
        w.dnsResponse({
          id: 1235,
          rcode: 'NXDOMAIN',
          flags: { aa: true, tc: false, rd: true, ra: false },
          question: { name: 'web.svc.cluster.local.', type: 'AAAA' },
          answer: [],
          authority: [
            {
              type: 'SOA',
              name: 'cluster.local.',
              ttl: 30,
              mname: 'ns.dns.cluster.local.',
              rname: 'hostmaster.cluster.local.',
              serial: 1,
              refresh: 7200,
              retry: 1800,
              expire: 86400,
              minimum: 30,
            },
          ],
          additional: [],
          cached: false,
          source: 'kubernetes',
        }),
      ),
    ),
  );
  frames.push(
    ip(
      s,
      c,
      17,
      w.udp(
        s,
        c,
        53,
        40000,
        w.dnsResponse({
          id: 1236,
          rcode: 'NOERROR',
          flags: { aa: false, tc: false, rd: true, ra: true },
          question: { name: 'www.example.com.', type: 'A' },
          answer: [
            { type: 'CNAME', name: 'www.example.com.', ttl: 30, target: 'example.com.' },
            { type: 'A', name: 'example.com.', ttl: 30, address: '192.0.2.10' },
          ],
          authority: [],
          additional: [],
          cached: false,
          source: 'forward',
        }),
      ),
    ),
  );
  frames.push(
    ip(
      s,
      c,
      17,
      w.udp(
        s,
        c,
        53,
        40000,
        w.dnsResponse({
          id: 1237,
          rcode: 'NOERROR',
          flags: { aa: true, tc: false, rd: true, ra: false },
          question: { name: 'x.', type: 'AAAA' },
          answer: [{ type: 'AAAA', name: 'x.', ttl: 30, address: 'fd00::1:2' }],
          authority: [],
          additional: [],
          cached: false,
          source: 'forward',
        }),
      ),
    ),
  );
  const syn = { mss: 1410, tsval: 100, tsecr: 0, wscale: 7 };
  frames.push(
    ip(
      c,
      srv,
      6,
      w.tcp(
        c,
        srv,
        { sport: 40001, dport: 80, seq: 1000, ack: 0, flags: w.TCP_SYN, window: 64860, syn },
        new Uint8Array(),
      ),
    ),
  );
  frames.push(
    ip(
      srv,
      c,
      6,
      w.tcp(
        srv,
        c,
        {
          sport: 80,
          dport: 40001,
          seq: 5000,
          ack: 1001,
          flags: w.TCP_SYN | w.TCP_ACK,
          window: 64308,
          syn: { ...syn, tsval: 200, tsecr: 100 },
        },
        new Uint8Array(),
      ),
    ),
  );
  frames.push(
    ip(
      c,
      srv,
      6,
      w.tcp(
        c,
        srv,
        {
          sport: 40001,
          dport: 80,
          seq: 1001,
          ack: 5001,
          flags: w.TCP_ACK,
          window: 507,
          ts: { tsval: 101, tsecr: 200 },
        },
        new Uint8Array(),
      ),
    ),
  );
  const req = w.ascii('GET / HTTP/1.1\r\nHost: web\r\nUser-Agent: curl/8.14.1\r\nAccept: */*\r\n\r\n');
  frames.push(
    ip(
      c,
      srv,
      6,
      w.tcp(
        c,
        srv,
        {
          sport: 40001,
          dport: 80,
          seq: 1001,
          ack: 5001,
          flags: w.TCP_ACK | w.TCP_PSH,
          window: 507,
          ts: { tsval: 101, tsecr: 200 },
        },
        req,
      ),
    ),
  );
  frames.push(
    ip(
      srv,
      c,
      6,
      w.tcp(
        srv,
        c,
        {
          sport: 80,
          dport: 40001,
          seq: 5001,
          ack: 1001 + req.length,
          flags: w.TCP_ACK | w.TCP_PSH,
          window: 502,
          ts: { tsval: 201, tsecr: 101 },
        },
        w.ascii('HTTP/1.1 200 OK\r\nServer: nginx\r\n\r\nhi'),
      ),
    ),
  );
  frames.push(
    ip(
      c,
      srv,
      6,
      w.tcp(
        c,
        srv,
        {
          sport: 40001,
          dport: 80,
          seq: 1001 + req.length,
          ack: 5001 + 36,
          flags: w.TCP_ACK | w.TCP_FIN,
          window: 507,
          ts: { tsval: 102, tsecr: 201 },
        },
        new Uint8Array(),
      ),
    ),
  );
  frames.push(
    ip(
      srv,
      c,
      6,
      w.tcp(
        srv,
        c,
        { sport: 81, dport: 40002, seq: 0, ack: 1001, flags: w.TCP_ACK | w.TCP_RST, window: 0 },
        new Uint8Array(),
      ),
    ),
  );
  const echo = ip(c, srv, 1, w.icmpEcho(false, 7, 1, new Uint8Array(56)), true);
  frames.push(echo);
  frames.push(ip(srv, c, 1, w.icmpEcho(true, 7, 1, new Uint8Array(56)), false));
  const orig = w.ipv4(
    { src: c, dst: srv, protocol: 17, id: 1, ttl: 64, df: false },
    w.udp(c, srv, 40003, 9999, new Uint8Array(4)),
  );
  frames.push(ip(srv, c, 1, w.icmpUnreachable(3, orig), false));
  const big = w.ipv4(
    { src: c, dst: srv, protocol: 6, id: 1, ttl: 63, df: true },
    w.tcp(
      c,
      srv,
      { sport: 40001, dport: 80, seq: 1, ack: 1, flags: w.TCP_ACK, window: 5 },
      new Uint8Array(1400),
    ),
  );
  frames.push(ip('10.244.1.1', c, 1, w.icmpUnreachable(4, big, 1450), false));
  frames.push(
    w.ethernet(
      'ff:ff:ff:ff:ff:ff',
      A,
      w.ETHERTYPE_ARP,
      w.arp('request', A, c, '00:00:00:00:00:00', '10.244.1.1'),
    ),
  );
  frames.push(w.ethernet(A, B, w.ETHERTYPE_ARP, w.arp('reply', B, '10.244.1.1', A, c)));
  const inner = ip(
    c,
    srv,
    6,
    w.tcp(
      c,
      srv,
      { sport: 40001, dport: 80, seq: 1000, ack: 0, flags: w.TCP_SYN, window: 64860, syn },
      new Uint8Array(),
    ),
  );
  frames.push(
    ip(
      '172.18.0.2',
      '172.18.0.3',
      17,
      w.udp('172.18.0.2', '172.18.0.3', 51234, 8472, w.vxlan(1, inner)),
      false,
    ),
  );
  frames.push(
    ip(
      '172.18.0.2',
      '172.18.0.3',
      17,
      w.udp('172.18.0.2', '172.18.0.3', 51234, 4789, w.vxlan(4096, inner)),
      false,
    ),
  );
  frames.push(
    ip(
      '172.18.0.2',
      '172.18.0.3',
      4,
      w.ipv4(
        { src: c, dst: srv, protocol: 1, id: 9, ttl: 63, df: true },
        w.icmpEcho(false, 7, 2, new Uint8Array(56)),
      ),
    ),
  );
  frames.push(ip(c, '203.0.113.5', 17, w.udp(c, '203.0.113.5', 40005, 9000, new Uint8Array(10))));

  return frames;
}

const EXPRESSIONS: readonly string[] = [
  'port',
  'port 99999',
  'host',
  'hst 1.2.3.4',
  'host 1.2.3.256',
  'net 10.0.0.0/33',
  'tcp and',
  '(tcp',
  'portrange 10-5',
  'portrange 79-81',
  'udp port domain',
  'port http',
  'net 10.244.0.0/16 and not port 22',
  'src 10.244.1.5',
  '10.244.1.5',
  'host web',
  'tcp port 80 or arp',
  'net 10.244.1.5/16',
  'ip proto 17',
  'dst portrange 50-60',
  'port foo',
  'tcp port 80 and (host 10.244.1.5 or 10.96.0.10)',
  'net 10.244',
  'src or dst port 53',
  'not',
  'portrange a-b',
  'host 10.244.1.5 and',
  'tcp or',
  ')',
  'foo',
  'icmp',
  'arp',
  'ip',
  'udp',
  'tcp',
  'not tcp',
  '!udp && !arp',
  'src host 10.96.0.10',
  'dst host 10.96.0.10',
  'dst net 172.18.0.0/16',
  'src net 10.244.2.0/24 or dst port 9000',
  'udp port 8472',
  'udp port 4789 or udp port 8472',
  'tcp src port 80',
  'tcp dst port 80',
  'udp dst port 53',
  'host 10.244.1.1 and arp',
  'host 172.18.0.2 and host 172.18.0.3',
  'not (port 53 or port 80)',
  'tcp and not port 81',
  'port 53 or',
  'port 53 port 80',
  'host 10.244.1.5 or 10.244.2.7 or 10.244.1.1',
  'src 10.244.1.5 and dst 10.244.2.7',
  'icmp and src 10.244.2.7',
  'tcp port 80 and tcp port 40001',
  'proto 6',
  'ip proto tcp',
  'net 10.96.0.0/12',
  'ip proto \\udp',
];

describe.skipIf(!haveTcpdump)('pcap-filter expressions against libpcap', () => {
  const frames = mixedFrames();
  const file = join(dir, 'mixed.pcap');
  writeFileSync(
    file,
    writePcap({
      linktype: 1,
      snaplen: 262144,
      records: frames.map((data, i) => ({
        seconds: 1767268800 + i,
        micros: 0,
        data,
        originalLength: data.length,
      })),
    }),
  );
  for (const e of EXPRESSIONS)
    it(e, () => {
      let real: string;
      try {
        const out = execFileSync('tcpdump', ['-nn', '-tt', '-r', file, e], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        real = `n=${
          out
            .toString()
            .split('\n')
            .filter((l) => /^\d+\./.test(l)).length
        }`;
      } catch (x) {
        const stderr = (x as { stderr: Buffer }).stderr.toString().trim().split('\n');
        real = `error ${stderr[stderr.length - 1]}`;
      }
      let ours: string;
      try {
        const f = compileFilter(e);
        ours = `n=${frames.filter((b) => f(decodeFrame(1, b))).length}`;
      } catch (x) {
        if (!(x instanceof FilterError)) throw x;
        ours = `error tcpdump: ${x.message}`;
      }
      expect(ours).toBe(real);
    });
});
