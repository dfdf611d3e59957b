/**
 * Fuzz: mutated shell lines in a lab's cluster. Seeds are every command of every lab (setup, solution,
 * the commands its steps and hints show) and every shell line of the chapters; each case runs in a
 * fresh copy of one lab's start cluster under the work guard.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { chapterCommands, labs } from './corpus.ts';
import { guardedExec, labCluster, params } from './harness.ts';
import { mutatedText } from './mutate.ts';
import { expectToolLike } from './oracle.ts';

const all = labs();
const chapters = chapterCommands();

describe('fuzz: shell lines', { timeout: 600_000 }, () => {
  it('mutated lab and chapter commands: no exception, bounded work, tool-like errors', () => {
    const cases = fc
      .nat({ max: all.length - 1 })
      .chain((i) => fc.tuple(fc.constant(i), mutatedText([...all[i]!.commands, ...chapters])));
    fc.assert(
      fc.property(cases, ([i, line]) => {
        const r = guardedExec(labCluster(all[i]!), line);
        expectToolLike(r, line);
      }),
      params('shell-mutated-lines', 150),
    );
  });

  it('random lines from shell syntax: no exception, bounded work, tool-like errors', () => {
    const token = fc.oneof(
      fc.constantFrom(
        'echo',
        'cat',
        'for i in 1 2 3; do',
        'while true; do',
        'done',
        'if',
        'then',
        'fi',
        '|',
        '||',
        '&&',
        ';',
        '$(',
        ')',
        '`',
        '"',
        "'",
        '<<EOF',
        'EOF',
        '>',
        'x.txt',
        '$((1/0))',
        '${x:?}',
        'kubectl',
        'get pods',
        'exec deploy/web --',
        'curl -m 1 http://api',
        'sh -c',
        'eval',
        'xargs',
        'head -c 5',
        'sleep 1',
        '\\',
        '\n',
      ),
      fc.string({ maxLength: 5 }),
    );
    const lab = all[0]!;
    fc.assert(
      fc.property(fc.array(token, { maxLength: 20 }), (tokens) => {
        const line = tokens.join(' ');
        expectToolLike(guardedExec(labCluster(lab), line), line);
      }),
      params('shell-random-lines', 100),
    );
  });
});
