import { describe, expect, it } from 'vitest';
import { answer, type CoreDnsState } from './coredns.ts';
import type { QType } from './message.ts';
import { clusterFirstResolvConf, parseResolvConf } from './resolv-conf.ts';
import { bindSearch, resolve, type QueryFn, type Reply } from './resolver.ts';
import { makeNamespace, makeService } from './test-helpers.ts';

const cluster: CoreDnsState = {
  namespaces: ['default', 'other', 'prod', 'kube-system'].map((n) => makeNamespace(n)),
  services: [
    makeService('default', 'myapp', (s) => {
      s.spec!.clusterIP = '10.96.4.7';
      s.spec!.clusterIPs = ['10.96.4.7'];
    }),
    makeService('other', 'myapp', (s) => {
      s.spec!.clusterIP = '10.96.9.9';
      s.spec!.clusterIPs = ['10.96.9.9'];
    }),
    makeService('prod', 'web', (s) => {
      s.spec!.clusterIP = '10.96.7.7';
      s.spec!.clusterIPs = ['10.96.7.7'];
    }),
  ],
  endpointSlices: [],
  pods: [],
};
const coredns: QueryFn = (name, type) => answer({ name, type, client: '10.244.1.5' }, cluster);
const resolvConf = clusterFirstResolvConf('default', 'cluster.local', '10.96.0.10');
const sent = (r: { steps: readonly { name: string; type: QType }[] }) =>
  r.steps.map((s) => `${s.type} ${s.name}`);

describe('parseResolvConf', () => {
  it('reads the kubelet ClusterFirst file (kubernetes-facts §4.3)', () => {
    expect(resolvConf).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
    expect(parseResolvConf(resolvConf)).toEqual({
      nameservers: ['10.96.0.10'],
      search: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'],
      ndots: 5,
      timeout: 5,
      attempts: 2,
      options: ['ndots:5'],
    });
  });

  it.each([
    {
      name: 'ndots is capped at 15 (RES_MAXNDOTS)',
      text: 'options ndots:20',
      libc: 'glibc' as const,
      key: 'ndots' as const,
      want: 15,
    },
    {
      name: 'glibc caps attempts at 5',
      text: 'options attempts:9',
      libc: 'glibc' as const,
      key: 'attempts' as const,
      want: 5,
    },
    {
      name: 'musl caps attempts at 10',
      text: 'options attempts:12',
      libc: 'musl' as const,
      key: 'attempts' as const,
      want: 10,
    },
    {
      name: 'glibc caps timeout at 30',
      text: 'options timeout:45',
      libc: 'glibc' as const,
      key: 'timeout' as const,
      want: 30,
    },
    {
      name: 'default ndots is 1',
      text: 'nameserver 1.1.1.1',
      libc: 'glibc' as const,
      key: 'ndots' as const,
      want: 1,
    },
  ])('$name', ({ text, libc, key, want }) => {
    expect(parseResolvConf(text, libc)[key]).toBe(want);
  });

  it('lets the last search/domain line win and keeps three nameservers', () => {
    const c = parseResolvConf(
      'search a b\ndomain c\nnameserver 1.1.1.1\nnameserver 2.2.2.2\nnameserver 3.3.3.3\nnameserver 4.4.4.4\n',
    );
    expect(c.search).toEqual(['c']);
    expect(c.nameservers).toEqual(['1.1.1.1', '2.2.2.2', '3.3.3.3']);
  });
});

describe('glibc getaddrinfo (kubernetes-facts §4.4, fact-check #53/#77)', () => {
  const glibc = (name: string, conf = resolvConf, family: 'A' | 'both' = 'A') =>
    resolve(name, { resolvConf: conf, libc: 'glibc', family, query: coredns });

  it('api.exemplo.com from namespace default costs four A queries: three search domains, then as-is', () => {
    const r = glibc('api.exemplo.com');
    expect(sent(r)).toEqual([
      'A api.exemplo.com.default.svc.cluster.local.',
      'A api.exemplo.com.svc.cluster.local.',
      'A api.exemplo.com.cluster.local.',
      'A api.exemplo.com.',
    ]);
    expect(r.steps.map((s) => s.reply.rcode)).toEqual(['NXDOMAIN', 'NXDOMAIN', 'NXDOMAIN', 'NOERROR']);
    expect(r.addresses).toEqual(['198.51.100.20']);
  });

  it('with AF_UNSPEC each candidate costs an A and an AAAA query (8 in all)', () => {
    const r = glibc('api.exemplo.com', resolvConf, 'both');
    expect(r.steps).toHaveLength(8);
    expect(sent(r).slice(0, 2)).toEqual([
      'A api.exemplo.com.default.svc.cluster.local.',
      'AAAA api.exemplo.com.default.svc.cluster.local.',
    ]);
  });

  it('a trailing dot sends one query', () => {
    expect(sent(glibc('api.exemplo.com.'))).toEqual(['A api.exemplo.com.']);
  });

  it('dnsConfig ndots:2 sends the name as-is first, and that is the only query', () => {
    const conf = resolvConf.replace('ndots:5', 'ndots:2');
    expect(sent(glibc('api.exemplo.com', conf))).toEqual(['A api.exemplo.com.']);
  });

  it('myapp resolves on the first try', () => {
    const r = glibc('myapp');
    expect(sent(r)).toEqual(['A myapp.default.svc.cluster.local.']);
    expect(r.addresses).toEqual(['10.96.4.7']);
  });

  it('myapp.other resolves on the second try', () => {
    const r = glibc('myapp.other');
    expect(sent(r)).toEqual(['A myapp.other.default.svc.cluster.local.', 'A myapp.other.svc.cluster.local.']);
    expect(r.addresses).toEqual(['10.96.9.9']);
  });

  it('an unknown name ends in EAI_NONAME after the whole list', () => {
    const r = glibc('nothere');
    expect(r.steps).toHaveLength(4);
    expect(r.error).toEqual({ code: 'EAI_NONAME', message: 'Name or service not known' });
  });

  it('NODATA continues the search and is reported when nothing answers', () => {
    // kube-system.svc.cluster.local is a namespace name: NODATA, not NXDOMAIN.
    const r = glibc('kube-system');
    expect(r.steps.map((s) => s.reply.rcode)).toEqual(['NXDOMAIN', 'NOERROR', 'NXDOMAIN', 'NXDOMAIN']);
    expect(r.error?.code).toBe('EAI_NODATA');
  });

  it('dots ≥ ndots: as-is first, then the search list', () => {
    const conf = resolvConf.replace('ndots:5', 'ndots:1');
    const r = glibc('web.prod', conf);
    expect(sent(r)).toEqual([
      'A web.prod.',
      'A web.prod.default.svc.cluster.local.',
      'A web.prod.svc.cluster.local.',
    ]);
    expect(r.addresses).toEqual(['10.96.7.7']);
  });

  it('/etc/hosts answers before DNS', () => {
    const r = resolve('myapp', {
      resolvConf,
      libc: 'glibc',
      family: 'A',
      query: coredns,
      hosts: '127.0.0.1 localhost\n10.244.1.5 myapp\n',
    });
    expect(r.steps).toHaveLength(0);
    expect(r.addresses).toEqual(['10.244.1.5']);
  });
});

describe('musl (kubernetes-facts §4.5)', () => {
  const musl = (name: string, conf = resolvConf, query: QueryFn = coredns) =>
    resolve(name, { resolvConf: conf, libc: 'musl', family: 'A', query });

  it('uses the search list like glibc for names with few dots', () => {
    expect(sent(musl('api.exemplo.com'))).toHaveLength(4);
    expect(musl('myapp').addresses).toEqual(['10.96.4.7']);
  });

  it('a NODATA in a search domain ends the lookup', () => {
    const r = musl('kube-system');
    expect(sent(r)).toEqual(['A kube-system.default.svc.cluster.local.', 'A kube-system.svc.cluster.local.']);
    expect(r.error).toEqual({ code: 'EAI_NODATA', message: 'Name has no usable address' });
  });

  it('dots ≥ ndots: only the name as-is, no search at all', () => {
    const conf = resolvConf.replace('ndots:5', 'ndots:1');
    const r = musl('web.prod', conf);
    expect(sent(r)).toEqual(['A web.prod.']);
    expect(r.error).toEqual({ code: 'EAI_NONAME', message: 'Name does not resolve' });
  });

  it('SERVFAIL stops the search with EAI_AGAIN (glibc keeps going)', () => {
    const flaky: QueryFn = (name) =>
      ({
        rcode: name.startsWith('x.default.')
          ? 'SERVFAIL'
          : name === 'x.cluster.local.'
            ? 'NOERROR'
            : 'NXDOMAIN',
        answer: name === 'x.cluster.local.' ? [{ name, ttl: 5, type: 'A', address: '10.0.0.5' }] : [],
      }) satisfies Reply;
    expect(musl('x', resolvConf, flaky).error?.code).toBe('EAI_AGAIN');
    expect(resolve('x', { resolvConf, libc: 'glibc', family: 'A', query: flaky }).addresses).toEqual([
      '10.0.0.5',
    ]);
  });
});

describe('BIND tools search (dighost.c next_origin)', () => {
  it('dig +search tries the search list, then as-is, moving on only after NXDOMAIN', () => {
    const r = bindSearch('api.exemplo.com', 'A', resolvConf, coredns, true);
    expect(r.steps.map((s) => s.name)).toEqual([
      'api.exemplo.com.default.svc.cluster.local.',
      'api.exemplo.com.svc.cluster.local.',
      'api.exemplo.com.cluster.local.',
      'api.exemplo.com.',
    ]);
  });

  it('stops at NODATA', () => {
    expect(bindSearch('kube-system', 'A', resolvConf, coredns, true).steps).toHaveLength(2);
  });

  it('without +search sends the name as-is', () => {
    expect(bindSearch('myapp', 'A', resolvConf, coredns, false).steps.map((s) => s.name)).toEqual(['myapp.']);
  });
});
