import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { defaultCorefileText, parseCorefile, serverFor, validateCorefile } from './corefile.ts';

// Every test here reads defaultCorefileText: it must be the Corefile a kubeadm cluster really installs.
describe('the installed Corefile', () => {
  it("is what a kubeadm cluster's coredns ConfigMap holds", () => {
    const c = createCluster(undefined, { seed: 1 });
    expect(c.config.distribution).toBe('kubeadm');
    const corefile = c.api.get('configmaps', 'kube-system', 'coredns')?.data?.Corefile;
    expect(corefile).toBe(defaultCorefileText(c.config.clusterDomain));
  });
});

describe('parseCorefile', () => {
  it("reads kubeadm's default Corefile (kubeadm manifests.go, kubernetes-facts §4.1)", () => {
    const c = parseCorefile(defaultCorefileText('cluster.local'));
    expect(c.servers).toHaveLength(1);
    const s = c.servers[0]!;
    expect(s.zones).toEqual(['.']);
    expect(s.port).toBe(53);
    expect(s.kubernetes).toEqual({
      zones: ['cluster.local.', 'in-addr.arpa.', 'ip6.arpa.'],
      pods: 'insecure',
      fallthrough: ['in-addr.arpa.', 'ip6.arpa.'],
      ttl: 30,
      endpointPodNames: false,
      namespaces: [],
    });
    expect(s.forward).toEqual({
      from: '.',
      to: ['/etc/resolv.conf'],
      except: [],
      maxConcurrent: 1000,
      policy: 'random',
    });
    expect(s.cache).toMatchObject({
      zones: ['.'],
      successTtl: 30,
      denialTtl: 30,
      disableSuccess: ['cluster.local.'],
      disableDenial: ['cluster.local.'],
    });
    expect([s.errors, s.health, s.ready, s.loop, s.reload, s.loadbalance]).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(s.prometheus).toBe(':9153');
    expect(s.log).toBeUndefined();
  });

  it('applies plugin defaults: kubernetes ttl 5, pods disabled, cache caps 3600/1800', () => {
    const s = parseCorefile('.:53 {\n  kubernetes cluster.local\n  cache\n}\n').servers[0]!;
    expect(s.kubernetes).toMatchObject({ ttl: 5, pods: 'disabled', fallthrough: [] });
    expect(s.cache).toMatchObject({
      successTtl: 3600,
      denialTtl: 1800,
      disableSuccess: [],
      disableDenial: [],
    });
  });

  it('parses log rules, hosts entries and rewrite rules', () => {
    const s = parseCorefile(
      [
        '.:53 {',
        '    log . {combined} {',
        '        class denial error',
        '    }',
        '    hosts {',
        '        192.0.2.99 legacy.internal',
        '        fallthrough',
        '    }',
        '    rewrite name exact db.local db.default.svc.cluster.local',
        '    kubernetes cluster.local',
        '}',
      ].join('\n'),
    ).servers[0]!;
    expect(s.log?.rules).toEqual([
      {
        nameScope: '.',
        format:
          '{remote}:{port} - {>id} "{type} {class} {name} {proto} {size} {>do} {>bufsize}" {rcode} {>rflags} {rsize} {duration} "{>opcode}"',
        classes: ['denial', 'error'],
      },
    ]);
    expect(s.hosts?.entries[0]).toEqual({ ip: '192.0.2.99', names: ['legacy.internal.'] });
    expect(s.hosts?.fallthrough).toEqual(['.']);
    expect(s.rewrite).toEqual([
      {
        mode: 'stop',
        field: 'name',
        match: 'exact',
        from: 'db.local.',
        to: 'db.default.svc.cluster.local.',
        auto: true,
      },
    ]);
  });

  it('routes a name to the server block with the longest matching zone', () => {
    const c = parseCorefile('.:53 {\n  forward . 8.8.8.8\n}\nexemplo.com:53 {\n  forward . 1.1.1.1\n}\n');
    expect(serverFor(c, 'api.exemplo.com.')?.forward?.to).toEqual(['1.1.1.1']);
    expect(serverFor(c, 'example.com.')?.forward?.to).toEqual(['8.8.8.8']);
  });

  it('ignores comments and accepts a block without braces', () => {
    const c = parseCorefile('# cluster DNS\n. {\n  forward . 8.8.8.8 # upstream\n}\n');
    expect(c.servers[0]?.forward?.to).toEqual(['8.8.8.8']);
  });
});

// Error texts: caddy's Dispenser (`%s:%d - Error during parsing: %s`, `Wrong argument count or unexpected line
// ending after '%s'`, `Unknown directive '%s'`, `Syntax error: Unexpected token '%s', expecting '%s'`) and each
// plugin's setup.go, wrapped by plugin.Error as `plugin/<name>: …`. CoreDNS is started with
// `-conf /etc/coredns/Corefile`.
describe('validateCorefile errors', () => {
  const cases: { name: string; text: string; error: string }[] = [
    {
      name: 'unknown directive',
      text: '.:53 {\n    errors\n    forwardd . /etc/resolv.conf\n}\n',
      error: "/etc/coredns/Corefile:3 - Error during parsing: Unknown directive 'forwardd'",
    },
    {
      name: 'ttl without a value',
      text: '.:53 {\n    kubernetes cluster.local {\n       pods insecure\n       ttl\n    }\n}\n',
      error:
        "plugin/kubernetes: /etc/coredns/Corefile:4 - Error during parsing: Wrong argument count or unexpected line ending after 'ttl'",
    },
    {
      name: 'ttl not a number',
      text: '.:53 {\n    kubernetes cluster.local {\n       ttl thirty\n    }\n}\n',
      error: 'plugin/kubernetes: strconv.Atoi: parsing "thirty": invalid syntax',
    },
    {
      name: 'ttl out of range',
      text: '.:53 {\n    kubernetes cluster.local {\n       ttl 5000\n    }\n}\n',
      error:
        'plugin/kubernetes: /etc/coredns/Corefile:3 - Error during parsing: ttl must be in range [0, 3600]: 5000',
    },
    {
      name: 'wrong pods mode',
      text: '.:53 {\n    kubernetes cluster.local {\n       pods secure\n    }\n}\n',
      error: 'plugin/kubernetes: wrong value for pods: secure,  must be one of: disabled, verified, insecure',
    },
    {
      name: 'pods with two values',
      text: '.:53 {\n    kubernetes cluster.local {\n       pods insecure verified\n    }\n}\n',
      error:
        "plugin/kubernetes: /etc/coredns/Corefile:3 - Error during parsing: Wrong argument count or unexpected line ending after 'verified'",
    },
    {
      name: 'unknown kubernetes property',
      text: '.:53 {\n    kubernetes cluster.local {\n       podz insecure\n    }\n}\n',
      error: "plugin/kubernetes: /etc/coredns/Corefile:3 - Error during parsing: unknown property 'podz'",
    },
    {
      name: 'only reverse zones',
      text: '.:53 {\n    kubernetes in-addr.arpa\n}\n',
      error: 'plugin/kubernetes: non-reverse zone name must be used',
    },
    {
      name: 'two kubernetes stanzas',
      text: '.:53 {\n    kubernetes cluster.local\n    kubernetes cluster.local\n}\n',
      error: 'plugin/kubernetes: this plugin can only be used once per Server Block',
    },
    {
      name: 'forward to a host name',
      text: '.:53 {\n    forward . dns.google\n}\n',
      error:
        'plugin/forward: not an IP address or file "dns.google": stat dns.google: no such file or directory',
    },
    {
      name: 'forward without upstream',
      text: '.:53 {\n    forward .\n}\n',
      error:
        "plugin/forward: /etc/coredns/Corefile:2 - Error during parsing: Wrong argument count or unexpected line ending after '.'",
    },
    {
      name: 'cache 0',
      text: '.:53 {\n    cache 0\n}\n',
      error: 'plugin/cache: cache TTL can not be zero or negative: 0',
    },
    {
      name: 'missing closing brace',
      text: '.:53 {\n    errors\n    loop\n',
      error: "/etc/coredns/Corefile:3 - Syntax error: Unexpected token 'loop', expecting '}'",
    },
    {
      name: 'same zone twice',
      text: '.:53 {\n    errors\n}\n.:53 {\n    errors\n}\n',
      error: 'cannot serve dns://.:53 - it is already defined',
    },
  ];
  it.each(cases)('$name', ({ text, error }) => {
    expect(validateCorefile(text)).toEqual({ ok: false, error });
  });

  it('accepts the default Corefile', () => {
    expect(validateCorefile(defaultCorefileText()).ok).toBe(true);
  });
});
