/**
 * `import` as coredns/caddy's parser does it (caddyfile/parse.go doImport, doSingleImport): a snippet
 * `(name) { … }` or a glob over the files the container has mounted, spliced in where the import stands
 * (inside a server block: directives; at the top: whole server blocks), files in Glob's sorted order; at
 * most one wildcard ("Glob pattern may only contain one wildcard (*), but has others: %s"); a glob that
 * matches nothing logs "[WARNING] No files matching import glob pattern: %s", a missing plain file fails
 * ("File to import not found: %s"); errors in an imported file name that file and its line.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { parseCorefile, validateCorefile } from './corefile.ts';
import { corefileFiles } from './coredns-files.ts';
import { apply, exec, pod } from '../network/test-helpers.ts';

const K3S_COREFILE = `.:53 {
    errors
    kubernetes cluster.local in-addr.arpa ip6.arpa {
      pods insecure
      fallthrough in-addr.arpa ip6.arpa
    }
    cache 30
    import /etc/coredns/custom/*.override
    forward . /etc/resolv.conf
}
import /etc/coredns/custom/*.server
`;

const files = (entries: Record<string, string>) => corefileFiles(new Map(Object.entries(entries)));

describe('Corefile import', () => {
  it('an empty glob only warns', () => {
    const c = parseCorefile(K3S_COREFILE, files({}));
    expect(c.servers.map((s) => s.zones)).toEqual([['.']]);
    expect(c.warnings).toEqual([
      '[WARNING] No files matching import glob pattern: /etc/coredns/custom/*.override',
      '[WARNING] No files matching import glob pattern: /etc/coredns/custom/*.server',
    ]);
  });

  it('*.override files add directives to the server block; *.server files add server blocks', () => {
    const c = parseCorefile(
      K3S_COREFILE,
      files({
        '/etc/coredns/custom/logging.override': 'log\n',
        '/etc/coredns/custom/b.server': 'b.test:53 {\n  forward . 8.8.8.8\n}\n',
        '/etc/coredns/custom/a.server': 'a.test:53 {\n  forward . 1.1.1.1\n}\n',
        '/etc/coredns/custom/notes.txt': 'not imported',
      }),
    );
    expect(c.servers[0]?.log).toBeDefined();
    expect(c.servers.map((s) => s.zones[0])).toEqual(['.', 'a.test.', 'b.test.']);
    expect(c.warnings).toBeUndefined();
  });

  it('an error inside an imported file names that file and line', () => {
    const v = validateCorefile(
      K3S_COREFILE,
      files({ '/etc/coredns/custom/bad.server': 'bad.test:53 {\n  forwardd . 8.8.8.8\n}\n' }),
    );
    expect(v).toEqual({
      ok: false,
      error: "/etc/coredns/custom/bad.server:2 - Error during parsing: Unknown directive 'forwardd'",
    });
    const plugin = validateCorefile(
      '.:53 {\n  import /etc/coredns/custom/*.override\n}\n',
      files({ '/etc/coredns/custom/x.override': '\nforward\n' }),
    );
    expect(plugin).toEqual({
      ok: false,
      error:
        "plugin/forward: /etc/coredns/custom/x.override:2 - Error during parsing: Wrong argument count or unexpected line ending after 'forward'",
    });
  });

  it('a missing plain file fails; two wildcards fail; extra arguments fail', () => {
    expect(validateCorefile('.:53 {\n  import custom/extra.conf\n}\n', files({}))).toEqual({
      ok: false,
      error: '/etc/coredns/Corefile:2 - Error during parsing: File to import not found: custom/extra.conf',
    });
    expect(validateCorefile('import /etc/*/x*.server\n', files({}))).toEqual({
      ok: false,
      error:
        '/etc/coredns/Corefile:1 - Error during parsing: Glob pattern may only contain one wildcard (*), but has others: /etc/*/x*.server',
    });
    expect(validateCorefile('.:53 {\n  import a b\n}\n', files({}))).toEqual({
      ok: false,
      error:
        '/etc/coredns/Corefile:2 - Error during parsing: Import takes only one argument (glob pattern or file)',
    });
  });

  it('a relative path is read from the Corefile directory', () => {
    const c = parseCorefile(
      '.:53 {\n  import extra.conf\n}\n',
      files({ '/etc/coredns/extra.conf': 'cache 10\n' }),
    );
    expect(c.servers[0]?.cache).toBeDefined();
  });

  it('a snippet is imported by name', () => {
    const c = parseCorefile(
      '(common) {\n  cache 30\n  log\n}\n.:53 {\n  import common\n  forward . 8.8.8.8\n}\n',
    );
    expect(c.servers).toHaveLength(1);
    expect(c.servers[0]?.log).toBeDefined();
    expect(c.servers[0]?.cache).toBeDefined();
  });
});

describe('k3s: the coredns-custom ConfigMap', () => {
  it('a *.server key adds a zone CoreDNS answers', () => {
    const cluster = createCluster(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
      { seed: 4 },
    );
    const node = cluster.store.list('nodes')[0]!.metadata.name;
    apply(cluster, [
      pod('cli', node, 'busybox', {}, { command: ['sleep', '3600'] }),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'coredns-custom', namespace: 'kube-system' },
        data: {
          'lab.server': 'exemplo.test:53 {\n    hosts {\n        192.0.2.99 web.exemplo.test\n    }\n}\n',
        },
      },
    ]);
    const r = exec(cluster, 'cli', 'nslookup web.exemplo.test');
    expect(r.stdout).toContain('Address: 192.0.2.99');
  });

  it("CoreDNS's log warns only about the glob that still matches nothing", () => {
    const cluster = createCluster(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
      { seed: 4 },
    );
    apply(cluster, [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'coredns-custom', namespace: 'kube-system' },
        data: { 'lab.server': 'exemplo.test:53 {\n    forward . 1.1.1.1\n}\n' },
      },
    ]);
    const log = cluster.execSync('kubectl logs -n kube-system deploy/coredns').stdout.split('\n');
    expect(log.filter((l) => l.startsWith('[WARNING]'))).toEqual([
      '[WARNING] No files matching import glob pattern: /etc/coredns/custom/*.override',
    ]);
    expect(log).toContain('exemplo.test.:53');
  });
});
