/**
 * Fuzz: every lab's start and solution manifests, mutated structurally (fields deleted, duplicated,
 * retyped, scalars swapped for maps/lists, huge numbers, unicode, prototype keys) and textually, then
 * applied in that lab's cluster. The API server answers like the real one (`Error from server …`,
 * `The X "y" is invalid:`, kubectl's `error: error parsing …`), nothing leaks, nothing is polluted, and
 * the cluster still lists its objects afterwards.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labs, manifests } from './corpus.ts';
import { guardedExec, labCluster, params } from './harness.ts';
import { mutatedYaml } from './mutate.ts';
import { expectToolLike } from './oracle.ts';

const all = labs();
const files = manifests();

describe('fuzz: manifests', { timeout: 600_000 }, () => {
  it('mutated lab manifests through kubectl apply/create: tool-like answers, no pollution', () => {
    const cases = fc
      .nat({ max: files.length - 1 })
      .chain((i) =>
        fc.tuple(
          fc.constant(i),
          mutatedYaml([files[i]!.text]),
          fc.constantFrom('apply', 'create', 'apply --dry-run=server', 'replace --force'),
        ),
      );
    fc.assert(
      fc.property(cases, ([i, text, verb]) => {
        const f = files[i]!;
        const lab = all.find((l) => l.id === f.lab)!;
        const c = labCluster(lab);
        c.files.write('fuzz.yaml', text);
        const line = `kubectl ${verb} -f fuzz.yaml`;
        expectToolLike(guardedExec(c, line), text);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        const after = guardedExec(c, 'kubectl get all,cm,netpol -A -o name');
        expect(after.exitCode).toBe(0);
        expectToolLike(after, text);
      }),
      params('manifests-apply', 120),
    );
  });
});
