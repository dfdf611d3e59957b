/**
 * Goldens written from the tools' source (printf formats quoted in each module's header), not from our output:
 * busybox networking/nslookup.c @1_36_1, BIND bin/dig/{nslookup,dig,host}.c + lib/dns/masterdump.c @v9.18.50,
 * glibc nss/getent.c.
 */
import { describe, expect, it } from 'vitest';
import { answer, type CoreDnsState } from '../coredns.ts';
import { clusterFirstResolvConf } from '../resolv-conf.ts';
import type { QueryFn } from '../resolver.ts';
import type { DnsResponse, QType } from '../message.ts';
import { makeNamespace, makeService } from '../test-helpers.ts';
import { digLookup, digRecord, formatDig } from './dig.ts';
import { getentHosts, host } from './host.ts';
import { bindNslookup, busyboxNslookup, busyboxNslookupQueries } from './nslookup.ts';

const cluster: CoreDnsState = {
  namespaces: ['default', 'kube-system'].map((n) => makeNamespace(n)),
  services: [
    makeService('default', 'web', (s) => {
      s.spec!.clusterIP = '10.96.4.7';
      s.spec!.clusterIPs = ['10.96.4.7'];
    }),
  ],
  endpointSlices: [],
  pods: [],
};
const query: QueryFn = (name, type) => answer({ name, type, client: '10.244.1.5' }, cluster);
const resolvConf = clusterFirstResolvConf('default', 'cluster.local', '10.96.0.10');

describe('busybox nslookup', () => {
  it('applies the search list to a dotless name only, A then AAAA, never as-is', () => {
    expect(busyboxNslookupQueries('web', resolvConf).map((q) => `${q.type} ${q.name}`)).toEqual([
      'A web.default.svc.cluster.local.',
      'A web.svc.cluster.local.',
      'A web.cluster.local.',
      'AAAA web.default.svc.cluster.local.',
      'AAAA web.svc.cluster.local.',
      'AAAA web.cluster.local.',
    ]);
  });

  it('prints every reply; an authoritative NODATA is a bare blank line', () => {
    const r = busyboxNslookup({ name: 'web', resolvConf, query });
    expect(r.stdout).toBe(
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n' +
        'Name:\tweb.default.svc.cluster.local\nAddress: 10.96.4.7\n\n' +
        "** server can't find web.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find web.cluster.local: NXDOMAIN\n\n" +
        '\n' +
        "** server can't find web.svc.cluster.local: NXDOMAIN\n\n" +
        "** server can't find web.cluster.local: NXDOMAIN\n\n",
    );
    expect(r.exitCode).toBe(1);
  });

  it('does not search a name with a dot, whatever ndots says (fact-check #59)', () => {
    const r = busyboxNslookup({ name: 'web.default', resolvConf, query });
    expect(r.stdout).toBe(
      "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find web.default: NXDOMAIN\n\n** server can't find web.default: NXDOMAIN\n\n",
    );
  });

  it('marks forwarded answers non-authoritative', () => {
    const r = busyboxNslookup({ name: 'example.com', resolvConf, query });
    expect(r.stdout).toBe(
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nNon-authoritative answer:\nName:\texample.com\nAddress: 192.0.2.10\n\nNon-authoritative answer:\n\n',
    );
    expect(r.exitCode).toBe(0);
  });

  it('-debug prefixes each reply with its query number', () => {
    const r = busyboxNslookup({ name: 'web.default.svc.cluster.local', resolvConf, query, debug: true });
    expect(r.stdout).toContain(
      'Query #0 completed in 0ms:\nauthoritative answer:\nName:\tweb.default.svc.cluster.local\n',
    );
  });
});

describe('BIND nslookup', () => {
  it('prints the name found through the search list', () => {
    const r = bindNslookup({ name: 'web', resolvConf, query });
    expect(r.stdout).toBe(
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.4.7\n\n',
    );
    expect(r.queries.map((q) => `${q.type} ${q.name}`)).toEqual([
      'A web.default.svc.cluster.local.',
      'AAAA web.default.svc.cluster.local.',
    ]);
  });

  it('reports NXDOMAIN for the name as finally tried and exits 1', () => {
    const r = bindNslookup({ name: 'nothere', resolvConf, query });
    expect(r.stdout).toBe(
      "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n** server can't find nothere: NXDOMAIN\n\n",
    );
    expect(r.exitCode).toBe(1);
  });

  it('marks forwarded answers non-authoritative', () => {
    expect(bindNslookup({ name: 'api.exemplo.com', resolvConf, query }).stdout).toBe(
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nNon-authoritative answer:\nName:\tapi.exemplo.com\nAddress: 198.51.100.20\n\n',
    );
  });

  it('-debug shows every query of the search with its SOA', () => {
    const r = bindNslookup({ name: 'api.exemplo.com', resolvConf, query, debug: true });
    expect(r.stdout.match(/QUESTIONS:/g)).toHaveLength(5);
    expect(r.stdout).toContain(
      '------------\n    QUESTIONS:\n\tapi.exemplo.com.default.svc.cluster.local, type = A, class = IN\n    ANSWERS:\n    AUTHORITY RECORDS:\n    ->  cluster.local\n\torigin = ns.dns.cluster.local\n\tmail addr = hostmaster.cluster.local\n',
    );
    expect(r.stdout).toContain("** server can't find api.exemplo.com.default.svc.cluster.local: NXDOMAIN\n");
  });
});

describe('dig', () => {
  it('lays records out at columns 24/32/40/48 with tabs, one space once past a column', () => {
    expect(digRecord({ name: 'example.com.', ttl: 300, type: 'A', address: '192.0.2.10' })).toBe(
      'example.com.\t\t300\tIN\tA\t192.0.2.10',
    );
    expect(digRecord({ name: 'cluster.local.', ttl: 30, type: 'NS', target: 'ns.dns.cluster.local.' })).toBe(
      'cluster.local.\t\t30\tIN\tNS\tns.dns.cluster.local.',
    );
    expect(
      digRecord({ name: 'myapp.default.svc.cluster.local.', ttl: 30, type: 'A', address: '10.96.4.7' }),
    ).toBe('myapp.default.svc.cluster.local. 30 IN\tA\t10.96.4.7');
  });

  it('prints the full layout for a cluster name', () => {
    const response = answer(
      {
        name: 'web.default.svc.cluster.local',
        type: 'A',
        client: '10.244.1.5',
        id: 4242,
        edns: { udpSize: 1232, cookie: 'a1b2c3d4e5f60718' },
      },
      cluster,
    );
    const out = formatDig({
      args: ['web.default.svc.cluster.local'],
      response,
      server: '10.96.0.10',
      now: Date.UTC(2025, 10, 27, 10, 0, 0),
    });
    expect(out).toBe(
      [
        '',
        '; <<>> DiG 9.18.33-1~deb12u2-Debian <<>> web.default.svc.cluster.local',
        ';; global options: +cmd',
        ';; Got answer:',
        ';; WARNING: .local is reserved for Multicast DNS',
        ';; You are currently testing what happens when an mDNS query is leaked to DNS',
        ';; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 4242',
        ';; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1',
        ';; WARNING: recursion requested but not available',
        '',
        ';; OPT PSEUDOSECTION:',
        '; EDNS: version: 0, flags:; udp: 1232',
        '; COOKIE: a1b2c3d4e5f60718 (echoed)',
        ';; QUESTION SECTION:',
        ';web.default.svc.cluster.local.\tIN\tA',
        '',
        ';; ANSWER SECTION:',
        'web.default.svc.cluster.local. 30 IN\tA\t10.96.4.7',
        '',
        ';; Query time: 0 msec',
        ';; SERVER: 10.96.0.10#53(10.96.0.10) (UDP)',
        ';; WHEN: Thu Nov 27 10:00:00 UTC 2025',
        // 12 header + 35 question + 45 answer + 23 OPT with cookie (uncompressed)
        ';; MSG SIZE  rcvd: 115',
        '',
        '',
      ].join('\n'),
    );
  });

  it('+short prints only RDATA', () => {
    const response = answer({ name: 'www.example.com', type: 'A', client: '10.244.1.5' }, cluster);
    expect(
      formatDig({ args: ['+short', 'www.example.com'], response, server: '10.96.0.10', now: 0, short: true }),
    ).toBe('example.com.\n192.0.2.10\n');
  });

  it('shows the SOA in the authority section of an NXDOMAIN', () => {
    const response = answer(
      { name: 'nothere.default.svc.cluster.local', type: 'A', client: '10.244.1.5', id: 1 },
      { ...cluster, serial: 1700000000 },
    );
    const out = formatDig({
      args: ['nothere.default.svc.cluster.local'],
      response,
      server: '10.96.0.10',
      now: 0,
    });
    expect(out).toContain(
      ';; ->>HEADER<<- opcode: QUERY, status: NXDOMAIN, id: 1\n;; flags: qr aa rd; QUERY: 1, ANSWER: 0, AUTHORITY: 1, ADDITIONAL: 0\n',
    );
    expect(out).toContain(
      ';; AUTHORITY SECTION:\ncluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1700000000 7200 1800 86400 30\n\n',
    );
  });
});

describe('dig +search', () => {
  const ednsQuery = (name: string, type: QType): DnsResponse =>
    answer(
      { name, type, client: '10.244.1.5', id: 7, edns: { udpSize: 1232, cookie: '0102030405060708' } },
      cluster,
    );

  it('without +search dig asks for the name as typed', () => {
    const r = digLookup({ args: ['web'], name: 'web', type: 'A', resolvConf, query: ednsQuery, now: 0 });
    expect(r.queries.map((q) => q.name)).toEqual(['web.']);
    expect(r.stdout).toContain('status: NXDOMAIN');
  });

  it('+search walks the search list and prints the answer that ended it', () => {
    const r = digLookup({
      args: ['+search', 'web'],
      name: 'web',
      type: 'A',
      resolvConf,
      query: ednsQuery,
      search: true,
      now: 0,
    });
    expect(r.queries.map((q) => q.name)).toEqual(['web.default.svc.cluster.local.']);
    expect(r.stdout).toContain(';; ANSWER SECTION:\nweb.default.svc.cluster.local. 30 IN\tA\t10.96.4.7\n');
  });

  it('+search +showsearch prints each NXDOMAIN on the way', () => {
    const r = digLookup({
      args: ['+search', '+showsearch', 'api.exemplo.com'],
      name: 'api.exemplo.com',
      type: 'A',
      resolvConf,
      query: ednsQuery,
      search: true,
      showSearch: true,
      now: 0,
    });
    expect(r.stdout.match(/status: NXDOMAIN/g)).toHaveLength(3);
    expect(r.stdout).toContain('api.exemplo.com.\t30\tIN\tA\t198.51.100.20');
  });
});

describe('host and getent', () => {
  it('host prints "has address" for the name found', () => {
    expect(host({ name: 'web', resolvConf, query }).stdout).toBe(
      'web.default.svc.cluster.local has address 10.96.4.7\n',
    );
  });

  it('host reports NXDOMAIN with the name as typed', () => {
    const r = host({ name: 'nothere', resolvConf, query });
    expect(r.stdout).toBe('Host nothere not found: 3(NXDOMAIN)\n');
    expect(r.exitCode).toBe(1);
  });

  it('host follows CNAMEs: "is an alias for"', () => {
    expect(host({ name: 'www.example.com', resolvConf, query }).stdout).toBe(
      'www.example.com is an alias for example.com.\nexample.com has address 192.0.2.10\n',
    );
  });

  it('host of an address asks for the PTR', () => {
    expect(host({ name: '10.96.4.7', resolvConf, query }).stdout).toBe(
      '7.4.96.10.in-addr.arpa domain name pointer web.default.svc.cluster.local.\n',
    );
  });

  it('getent hosts asks AAAA through the whole search list before A', () => {
    const r = getentHosts({ key: 'web', resolvConf, query });
    expect(r.stdout).toBe('10.96.4.7       web.default.svc.cluster.local\n');
    expect(r.queries.map((q) => `${q.type} ${q.name}`)).toEqual([
      'AAAA web.default.svc.cluster.local.',
      'AAAA web.svc.cluster.local.',
      'AAAA web.cluster.local.',
      'AAAA web.',
      'A web.default.svc.cluster.local.',
    ]);
  });

  it('getent hosts exits 2 without output for an unknown name', () => {
    expect(getentHosts({ key: 'nothere', resolvConf, query })).toMatchObject({ stdout: '', exitCode: 2 });
  });
});
