/**
 * Fuzz: every lab.yaml, mutated structurally and textually, through the lab parser. It accepts the
 * lab or throws a LabError whose every line names the file (`labs/x/lab.yaml: checks[2].expect: …`),
 * as `packetpath lab validate` prints it; nothing else escapes, and prototype keys pollute nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { LabError, labContentHash, parseLab } from '../../src/grader/index.ts';
import { labs } from './corpus.ts';
import { params } from './harness.ts';
import { mutatedText, mutatedYaml } from './mutate.ts';
import { expectOneLineError } from './oracle.ts';

const texts = [...new Set(labs().map((l) => l.yamlText))];
const SOURCE = 'labs/fuzz/lab.yaml';

describe('fuzz: lab.yaml', { timeout: 600_000 }, () => {
  it('mutated lab.yaml files parse or fail with LabError lines naming the file', () => {
    fc.assert(
      fc.property(fc.oneof(mutatedYaml(texts), mutatedText(texts, 6)), (text) => {
        try {
          const loaded = parseLab(SOURCE, text);
          expect(labContentHash(loaded)).toMatch(/^sha256:/);
          // What parsed must serialise back (no cycles, no functions smuggled in).
          expect(() => stringify(loaded.lab)).not.toThrow();
        } catch (e) {
          expect(e).toBeInstanceOf(LabError);
          for (const line of (e as Error).message.split('\n')) {
            expect(line.startsWith(`${SOURCE}: `), line).toBe(true);
            expectOneLineError(line);
          }
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      params('lab-yaml-parse', 150),
    );
  });
});
