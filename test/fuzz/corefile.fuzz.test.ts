/**
 * Fuzz: the Corefiles the engine ships (kubeadm's and k3s's), mutated. The parser either accepts the
 * file or answers with one CoreDNS-worded line (`/etc/coredns/Corefile:N - Error during parsing: …`,
 * `plugin/forward: …`); never another exception. Then a few cases go through the cluster: the coredns
 * ConfigMap replaced, CoreDNS restarted, a lookup from a pod: every answer still a tool's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorefile, validateCorefile } from '../../src/engine/dataplane/dns/corefile.ts';
import { corefiles, labs } from './corpus.ts';
import { guardedExec, labCluster, params } from './harness.ts';
import { mutatedText, type TextMutation } from './mutate.ts';
import { expectOneLineError, expectToolLike } from './oracle.ts';
import { applyText } from './mutate.ts';

const seeds = corefiles();

/** Corefile-aware mutations besides the generic ones: plugin names, braces, zones, ports, arguments. */
const COREFILE_WORDS = [
  'forward',
  'cache',
  'kubernetes',
  'hosts',
  'rewrite',
  'log',
  'errors',
  'health',
  'ready',
  'reload',
  'loop',
  'loadbalance',
  'prometheus',
  'import',
  'fallthrough',
  'pods insecure',
  'ttl',
  '{',
  '}',
  '.:53',
  '.:99999',
  'cluster.local:53',
  'in-addr.arpa',
  '/etc/resolv.conf',
  '8.8.8.8',
  '1.1.1.1:5353',
  '300',
  '-1',
  '0',
  'name regex (.*) {1}',
  'stop',
];

const mutated = fc.oneof(
  mutatedText(seeds, 6),
  fc
    .tuple(
      fc.constantFrom(...seeds),
      fc.array(
        fc.record({
          kind: fc.constant('word' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          word: fc.constantFrom(...COREFILE_WORDS),
        }),
        { minLength: 1, maxLength: 5 },
      ),
    )
    .map(([s, ms]) => applyText(s, ms as TextMutation[])),
);

describe('fuzz: Corefiles', { timeout: 600_000 }, () => {
  it('mutated kubeadm/k3s Corefiles parse or fail with one CoreDNS-worded line', () => {
    fc.assert(
      fc.property(mutated, (text) => {
        const v = validateCorefile(text);
        if (!v.ok) {
          expectOneLineError(v.error);
          // One line, except inside a quoted token: Caddy's lexer lets a quoted token span lines, and
          // CoreDNS quotes the token in its message as it was read.
          expect(v.error.replace(/'[^']*'/g, "''")).not.toContain('\n');
        } else expect(() => parseCorefile(text)).not.toThrow();
      }),
      params('corefile-parse', 400),
    );
  });

  it('a mutated Corefile in the coredns ConfigMap: CoreDNS restarts and lookups answer like the tools', () => {
    const lab = labs().find((l) => l.id === '08-ndots')!;
    fc.assert(
      fc.property(mutated, (text) => {
        const c = labCluster(lab);
        c.files.write('Corefile', text);
        for (const line of [
          'kubectl -n kube-system create configmap coredns --from-file=Corefile --dry-run=client -o yaml | kubectl apply -f -',
          'kubectl -n kube-system rollout restart deployment coredns',
          'kubectl exec deploy/client -- nslookup kubernetes.default',
          'kubectl -n kube-system logs deploy/coredns --tail=3',
        ]) {
          expectToolLike(guardedExec(c, line), text);
        }
      }),
      params('corefile-cluster', 15),
    );
  });
});
