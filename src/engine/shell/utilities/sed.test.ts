/**
 * sed against GNU sed 4.9: each line of testdata/sed-goldens.json was run with the real sed (hold
 * space, multi-line commands, branches, `w`/`r` files, `l`, `q`/`Q` exit codes, `y`, joined -e
 * fragments, GNU's compile errors), and is replayed here through the simulated shell.
 */
import { describe, expect, it } from 'vitest';
import goldens from './testdata/sed-goldens.json' with { type: 'json' };
import { Shell } from '../shell.ts';
import { LabFiles } from '../lab-files.ts';

function makeShell(): Shell {
  return new Shell({ resolve: () => undefined, files: new LabFiles(goldens.files), tick: () => {} });
}

describe('sed lines replayed against GNU sed 4.9 goldens', () => {
  it.each(goldens.cases)('$line', ({ line, stdout, stderr, exitCode }) => {
    expect(makeShell().run(line, { interactive: true })).toEqual({ stdout, stderr, exitCode });
  });
});

describe('sed never hangs', () => {
  it.each([':a;ba', 'G;D', ':a;s/^/x/;ta'])('%s stops with a limit message', (script) => {
    const r = makeShell().run(`echo a | sed '${script}'`, { interactive: true });
    expect(r.stderr).toMatch(/^packetpath: stopped: /);
    expect(r.exitCode).toBe(1);
  });
});
