import { describe, expect, it } from 'vitest';
import { answer, DnsCache, type CoreDnsState } from './coredns.ts';
import { defaultCorefileText, parseCorefile } from './corefile.ts';
import { rdataText, type RR } from './message.ts';
import { makeNamespace, makePod, makeService, makeSlice } from './test-helpers.ts';
import { Rng } from '../../util/rng.ts';

// Fixture of CoreDNS's plugin/kubernetes/handler_test.go (zone cluster.local, no `ttl` ⇒ the plugin default 5),
// restricted to IPv4. Expected answers are the test's own `test.A(...)`, `test.SRV(...)` strings.
const corefile = parseCorefile(
  '.:53 {\n  kubernetes cluster.local in-addr.arpa {\n    pods insecure\n  }\n}\n',
);
const objects = {
  namespaces: [makeNamespace('testns'), makeNamespace('podns'), makeNamespace('kube-system')],
  services: [
    makeService('testns', 'svc1', (s) => {
      s.spec!.clusterIP = '10.0.0.1';
      s.spec!.clusterIPs = ['10.0.0.1'];
    }),
    makeService('testns', 'svcempty', (s) => {
      s.spec!.clusterIP = '10.0.0.2';
      s.spec!.clusterIPs = ['10.0.0.2'];
    }),
    makeService('testns', 'hdls1', (s) => {
      s.spec!.clusterIP = 'None';
      s.spec!.clusterIPs = ['None'];
    }),
    makeService('testns', 'hdlsempty', (s) => {
      s.spec!.clusterIP = 'None';
      s.spec!.clusterIPs = ['None'];
    }),
    makeService('testns', 'external', (s) => {
      s.spec = {
        type: 'ExternalName',
        externalName: 'ext.interwebs.test',
        ports: [{ port: 80, name: 'http' }],
      };
    }),
  ],
  endpointSlices: [
    makeSlice('testns', 'svc1', [{ ip: '172.0.0.1', hostname: 'ep1a' }]),
    makeSlice('testns', 'hdls1', [
      { ip: '172.0.0.2' },
      { ip: '172.0.0.3' },
      { ip: '172.0.0.4' },
      { ip: '172.0.0.5' },
      { ip: '172.0.0.6', ready: false },
    ]),
  ],
  pods: [makePod('podns', 'p1', '10.240.0.1')],
};
const state: CoreDnsState = { ...objects, config: corefile, serial: 1499347823 };
const text = (rrs: readonly RR[]) => rrs.map((r) => `${r.name} ${r.ttl} IN ${r.type} ${rdataText(r)}`);
const ask = (name: string, type: Parameters<typeof answer>[0]['type'], s: CoreDnsState = state) =>
  answer({ name, type, client: '10.244.1.5' }, s);

describe('kubernetes plugin answers (handler_test.go cases)', () => {
  const cases: {
    name: string;
    qname: string;
    type: 'A' | 'AAAA' | 'SRV' | 'CNAME' | 'TXT' | 'NS' | 'PTR';
    rcode: string;
    answer: string[];
    extra?: string[];
  }[] = [
    {
      name: 'ClusterIP A',
      qname: 'svc1.testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NOERROR',
      answer: ['svc1.testns.svc.cluster.local. 5 IN A 10.0.0.1'],
    },
    {
      name: 'ClusterIP without endpoints still answers',
      qname: 'svcempty.testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NOERROR',
      answer: ['svcempty.testns.svc.cluster.local. 5 IN A 10.0.0.2'],
    },
    {
      name: 'headless: one A per ready endpoint',
      qname: 'hdls1.testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NOERROR',
      answer: ['172.0.0.2', '172.0.0.3', '172.0.0.4', '172.0.0.5'].map(
        (ip) => `hdls1.testns.svc.cluster.local. 5 IN A ${ip}`,
      ),
    },
    {
      name: 'headless without ready endpoints is NXDOMAIN',
      qname: 'hdlsempty.testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NXDOMAIN',
      answer: [],
    },
    {
      name: 'SRV with _port._proto',
      qname: '_http._tcp.svc1.testns.svc.cluster.local.',
      type: 'SRV',
      rcode: 'NOERROR',
      answer: ['_http._tcp.svc1.testns.svc.cluster.local. 5 IN SRV 0 100 80 svc1.testns.svc.cluster.local.'],
      extra: ['svc1.testns.svc.cluster.local. 5 IN A 10.0.0.1'],
    },
    {
      name: 'SRV without _port._proto',
      qname: 'svc1.testns.svc.cluster.local.',
      type: 'SRV',
      rcode: 'NOERROR',
      answer: ['svc1.testns.svc.cluster.local. 5 IN SRV 0 100 80 svc1.testns.svc.cluster.local.'],
      extra: ['svc1.testns.svc.cluster.local. 5 IN A 10.0.0.1'],
    },
    {
      name: 'headless SRV: targets are dashed IPs, weight floor(100/4)',
      qname: '_http._tcp.hdls1.testns.svc.cluster.local.',
      type: 'SRV',
      rcode: 'NOERROR',
      answer: ['172-0-0-2', '172-0-0-3', '172-0-0-4', '172-0-0-5'].map(
        (h) =>
          `_http._tcp.hdls1.testns.svc.cluster.local. 5 IN SRV 0 25 80 ${h}.hdls1.testns.svc.cluster.local.`,
      ),
      extra: ['172.0.0.2', '172.0.0.3', '172.0.0.4', '172.0.0.5'].map(
        (ip) => `${ip.replaceAll('.', '-')}.hdls1.testns.svc.cluster.local. 5 IN A ${ip}`,
      ),
    },
    {
      name: 'unknown SRV port is NXDOMAIN',
      qname: '_https._tcp.svc1.testns.svc.cluster.local.',
      type: 'SRV',
      rcode: 'NXDOMAIN',
      answer: [],
    },
    {
      name: 'endpoint by dashed IP',
      qname: '172-0-0-2.hdls1.testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NOERROR',
      answer: ['172-0-0-2.hdls1.testns.svc.cluster.local. 5 IN A 172.0.0.2'],
    },
    {
      name: 'endpoint by hostname of a ClusterIP Service',
      qname: 'ep1a.svc1.testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NOERROR',
      answer: ['ep1a.svc1.testns.svc.cluster.local. 5 IN A 172.0.0.1'],
    },
    {
      name: 'ExternalName CNAME',
      qname: 'external.testns.svc.cluster.local.',
      type: 'CNAME',
      rcode: 'NOERROR',
      answer: ['external.testns.svc.cluster.local. 5 IN CNAME ext.interwebs.test.'],
    },
    {
      name: 'AAAA of an IPv4 Service is NODATA',
      qname: 'svc1.testns.svc.cluster.local.',
      type: 'AAAA',
      rcode: 'NOERROR',
      answer: [],
    },
    {
      name: 'unknown Service is NXDOMAIN',
      qname: 'svc0.testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NXDOMAIN',
      answer: [],
    },
    {
      name: 'unknown namespace is NXDOMAIN',
      qname: 'svc0.svc-nons.svc.cluster.local.',
      type: 'A',
      rcode: 'NXDOMAIN',
      answer: [],
    },
    {
      name: 'unknown endpoint is NXDOMAIN',
      qname: 'bogusendpoint.hdls1.testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NXDOMAIN',
      answer: [],
    },
    { name: 'svc.zone is NODATA', qname: 'svc.cluster.local.', type: 'A', rcode: 'NOERROR', answer: [] },
    {
      name: 'namespace.svc.zone is NODATA',
      qname: 'testns.svc.cluster.local.',
      type: 'A',
      rcode: 'NOERROR',
      answer: [],
    },
    { name: 'pod.zone is NODATA', qname: 'pod.cluster.local.', type: 'A', rcode: 'NOERROR', answer: [] },
    {
      name: 'neither svc nor pod is NXDOMAIN',
      qname: 'foo.cluster.local.',
      type: 'NS',
      rcode: 'NXDOMAIN',
      answer: [],
    },
    {
      name: 'dns-version TXT',
      qname: 'dns-version.cluster.local.',
      type: 'TXT',
      rcode: 'NOERROR',
      answer: ['dns-version.cluster.local. 28800 IN TXT "1.1.0"'],
    },
    // handler_pod_insecure_test.go
    {
      name: 'pods insecure: dashed IP',
      qname: '10-240-0-1.podns.pod.cluster.local.',
      type: 'A',
      rcode: 'NOERROR',
      answer: ['10-240-0-1.podns.pod.cluster.local. 5 IN A 10.240.0.1'],
    },
    {
      name: 'pods insecure: not an IP',
      qname: 'blah.podns.pod.cluster.local.',
      type: 'A',
      rcode: 'NXDOMAIN',
      answer: [],
    },
    {
      name: 'pods insecure: namespace only',
      qname: 'podns.pod.cluster.local.',
      type: 'A',
      rcode: 'NOERROR',
      answer: [],
    },
    // reverse_test.go: ClusterIP → Service, endpoint IP → endpoint name
    {
      name: 'PTR of a ClusterIP',
      qname: '1.0.0.10.in-addr.arpa.',
      type: 'PTR',
      rcode: 'NOERROR',
      answer: ['1.0.0.10.in-addr.arpa. 5 IN PTR svc1.testns.svc.cluster.local.'],
    },
    {
      name: 'PTR of an endpoint',
      qname: '1.0.0.172.in-addr.arpa.',
      type: 'PTR',
      rcode: 'NOERROR',
      answer: ['1.0.0.172.in-addr.arpa. 5 IN PTR ep1a.svc1.testns.svc.cluster.local.'],
    },
    {
      name: 'PTR of an unknown IP',
      qname: '99.99.0.10.in-addr.arpa.',
      type: 'PTR',
      rcode: 'NXDOMAIN',
      answer: [],
    },
  ];
  it.each(cases)('$name', ({ qname, type, rcode, answer: want, extra }) => {
    const r = ask(qname, type);
    expect(r.rcode).toBe(rcode);
    expect(text(r.answer)).toEqual(want);
    if (extra) expect(text(r.additional)).toEqual(extra);
    expect(r.flags.aa).toBe(true);
    expect(r.flags.ra).toBe(false);
    expect(r.source).toBe('kubernetes');
  });

  it('puts the SOA of the zone in negative answers (backend_lookup.go SOA)', () => {
    const r = ask('svc0.testns.svc.cluster.local.', 'A');
    expect(text(r.authority)).toEqual([
      'cluster.local. 5 IN SOA ns.dns.cluster.local. hostmaster.cluster.local. 1499347823 7200 1800 86400 5',
    ]);
  });

  it('weights SRV records floor(100/n): two ports give 50 each', () => {
    const svc = makeService('testns', 'twoports', (s) => {
      s.spec!.clusterIP = '10.0.0.9';
      s.spec!.clusterIPs = ['10.0.0.9'];
      s.spec!.ports = [
        { name: 'http', port: 80, protocol: 'TCP' },
        { name: 'https', port: 443, protocol: 'TCP' },
      ];
    });
    const r = ask('twoports.testns.svc.cluster.local.', 'SRV', {
      ...state,
      services: [...objects.services, svc],
    });
    expect(r.answer.map(rdataText)).toEqual([
      '0 50 80 twoports.testns.svc.cluster.local.',
      '0 50 443 twoports.testns.svc.cluster.local.',
    ]);
  });

  it('pods disabled (the plugin default) answers NXDOMAIN for pod records', () => {
    const cfg = parseCorefile('.:53 {\n  kubernetes cluster.local\n}\n');
    expect(ask('10-240-0-1.podns.pod.cluster.local.', 'A', { ...state, config: cfg }).rcode).toBe('NXDOMAIN');
  });
});

describe('the kubeadm Corefile', () => {
  const kube: CoreDnsState = { ...objects, serial: 1, now: 0, cache: new DnsCache() };

  it('answers with TTL 30 (ttl 30 in the kubernetes stanza)', () => {
    expect(text(ask('svc1.testns.svc.cluster.local.', 'A', kube).answer)).toEqual([
      'svc1.testns.svc.cluster.local. 30 IN A 10.0.0.1',
    ]);
  });

  it('forwards names outside the cluster to the upstream, capping TTLs at cache 30', () => {
    const r = ask('api.stripe.com.', 'A', { ...kube, cache: new DnsCache() });
    expect(r.source).toBe('forward');
    expect(r.forwarded).toEqual({ upstream: '172.18.0.1', to: ['/etc/resolv.conf'] });
    expect(r.flags).toEqual({ aa: false, tc: false, rd: true, ra: true });
    // The internet says TTL 60; `cache 30` caps the first reply too.
    expect(text(r.answer)).toEqual(['api.stripe.com. 30 IN A 203.0.113.30']);
  });

  it('serves external names from the cache with the remaining TTL and the AA bit', () => {
    const cache = new DnsCache();
    ask('example.com.', 'A', { ...kube, cache, now: 0 });
    const hit = ask('example.com.', 'A', { ...kube, cache, now: 12_000 });
    expect(hit.cached).toBe(true);
    expect(hit.flags.aa).toBe(true);
    expect(text(hit.answer)).toEqual(['example.com. 18 IN A 192.0.2.10']);
    const expired = ask('example.com.', 'A', { ...kube, cache, now: 31_000 });
    expect(expired.cached).toBe(false);
  });

  it('never caches cluster.local (disable success/denial cluster.local)', () => {
    const cache = new DnsCache();
    ask('svc1.testns.svc.cluster.local.', 'A', { ...kube, cache });
    ask('nope.testns.svc.cluster.local.', 'A', { ...kube, cache });
    expect(cache.items.size).toBe(0);
  });

  it('falls through to the upstream for unknown reverse names (fallthrough in-addr.arpa)', () => {
    const r = ask('5.1.244.10.in-addr.arpa.', 'PTR', kube);
    expect(r.source).toBe('forward');
    expect(r.rcode).toBe('NXDOMAIN');
  });

  it('resolves an ExternalName target upstream and appends it after the CNAME', () => {
    const svc = makeService('testns', 'stripe', (s) => {
      s.spec = { type: 'ExternalName', externalName: 'api.stripe.com' };
    });
    const r = ask('stripe.testns.svc.cluster.local.', 'A', { ...kube, services: [...objects.services, svc] });
    expect(text(r.answer)).toEqual([
      'stripe.testns.svc.cluster.local. 30 IN CNAME api.stripe.com.',
      'api.stripe.com. 30 IN A 203.0.113.30',
    ]);
  });

  it('shuffles A records with loadbalance, deterministically per seed', () => {
    const order = (seed: number) =>
      ask('hdls1.testns.svc.cluster.local.', 'A', { ...kube, rng: new Rng(seed) }).answer.map(rdataText);
    expect(order(7)).toEqual(order(7));
    const seen = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((s) => order(s).join(',')));
    expect(seen.size).toBeGreaterThan(1);
    expect([...order(3)].sort()).toEqual(['172.0.0.2', '172.0.0.3', '172.0.0.4', '172.0.0.5']);
  });
});

describe('Corefile edits change answers', () => {
  it('writes the log line of the log plugin (Common Log Format)', () => {
    const cfg = parseCorefile(defaultCorefileText().replace('    errors\n', '    errors\n    log\n'));
    const r = answer(
      {
        name: 'api.exemplo.com.default.svc.cluster.local',
        type: 'A',
        client: '10.244.1.5',
        clientPort: 45678,
        id: 12345,
      },
      { ...objects, namespaces: [...objects.namespaces, makeNamespace('default')], config: cfg, serial: 1 },
    );
    // Sizes from a real kubeadm capture: 59-byte query without EDNS, 152-byte NXDOMAIN with the SOA.
    expect(r.log).toMatch(
      /^\[INFO\] 10\.244\.1\.5:45678 - 12345 "A IN api\.exemplo\.com\.default\.svc\.cluster\.local\. udp 59 false 512" NXDOMAIN qr,aa,rd 152 0\.\d+s$/,
    );
  });

  it('without the log plugin there is no log line', () => {
    expect(ask('svc1.testns.svc.cluster.local.', 'A', { ...objects }).log).toBeUndefined();
  });

  it('forward . 8.8.8.8 names that upstream', () => {
    const cfg = parseCorefile(
      defaultCorefileText().replace('forward . /etc/resolv.conf', 'forward . 8.8.8.8'),
    );
    expect(ask('example.com.', 'A', { ...objects, config: cfg }).forwarded?.upstream).toBe('8.8.8.8');
  });

  it('a hosts block without fallthrough answers SERVFAIL for everything else', () => {
    const cfg = parseCorefile(
      '.:53 {\n  hosts {\n    192.0.2.99 legacy.internal\n  }\n  forward . /etc/resolv.conf\n}\n',
    );
    const s = { ...objects, config: cfg };
    expect(text(ask('legacy.internal.', 'A', s).answer)).toEqual(['legacy.internal. 3600 IN A 192.0.2.99']);
    expect(ask('example.com.', 'A', s).rcode).toBe('SERVFAIL');
  });

  it('rewrite name maps a short name onto a Service and restores the question name in answers', () => {
    const cfg = parseCorefile(
      defaultCorefileText().replace(
        '    errors\n',
        '    errors\n    rewrite name db.local svc1.testns.svc.cluster.local\n',
      ),
    );
    expect(text(ask('db.local.', 'A', { ...objects, config: cfg }).answer)).toEqual([
      'db.local. 30 IN A 10.0.0.1',
    ]);
  });

  it('a zone without any server block is REFUSED', () => {
    const cfg = parseCorefile('cluster.local:53 {\n  kubernetes cluster.local\n}\n');
    expect(ask('example.com.', 'A', { ...objects, config: cfg }).rcode).toBe('REFUSED');
  });
});

describe('robustness', () => {
  it('answers any query name and type without throwing', async () => {
    const fc = (await import('fast-check')).default;
    const label = fc.stringMatching(/^[a-z0-9_-]{0,12}$/);
    const name = fc.array(label, { minLength: 0, maxLength: 7 }).map((ls) => ls.join('.'));
    const type = fc.constantFrom('A', 'AAAA', 'SRV', 'PTR', 'CNAME', 'TXT', 'NS', 'SOA', 'MX' as const);
    fc.assert(
      fc.property(
        fc.oneof(
          name,
          name.map((n) => `${n}.svc.cluster.local`),
          name.map((n) => `${n}.in-addr.arpa`),
        ),
        type,
        (n, t) => {
          const r = ask(n, t, { ...state, cache: new DnsCache(), now: 0 });
          return ['NOERROR', 'NXDOMAIN', 'SERVFAIL', 'REFUSED'].includes(r.rcode);
        },
      ),
    );
  });
});
