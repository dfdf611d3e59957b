import { describe, it, expect } from 'vitest';
import { Shell } from './shell.ts';
import { LabFiles } from './lab-files.ts';
import { MAX_TERMINAL_OUTPUT, OUTPUT_TRUNCATED_NOTICE } from './limits.ts';
import { outputOf, type CommandHandler, type ExecResult, type OutputChunk } from './types.ts';

/** `tool` writes a header to stderr, a body to stdout, then a trailer to stderr (as curl -v does). */
const tool: CommandHandler = () => ({
  stdout: 'body\n',
  stderr: '> GET /\n* left intact\n',
  output: [
    { stream: 'stderr', text: '> GET /\n' },
    { stream: 'stdout', text: 'body\n' },
    { stream: 'stderr', text: '* left intact\n' },
  ],
  exitCode: 0,
});

function makeShell(files: Record<string, string> = { 'a.txt': 'a\n' }): Shell {
  return new Shell({
    resolve: (name, context) => (context.kind === 'host' && name === 'tool' ? tool : undefined),
    files: new LabFiles(files),
    tick: () => {},
  });
}

/** What a terminal shows: every chunk, in order. */
function screen(r: ExecResult): string {
  return outputOf(r)
    .map((c) => c.text)
    .join('');
}

function joined(r: ExecResult, stream: OutputChunk['stream']): string {
  return outputOf(r)
    .filter((c) => c.stream === stream)
    .map((c) => c.text)
    .join('');
}

const LS_NOPE = "ls: cannot access '/nope': No such file or directory\n";

describe('stdout and stderr reach the terminal in write order', () => {
  // Each `screen` is what bash 5.2.15 prints for `bash -c LINE 2>&1` (coreutils 9.1 ls) unless noted.
  it.each([
    { line: 'echo a; ls /nope; echo b', screen: `a\n${LS_NOPE}b\n` },
    { line: 'x=$(ls /nope; echo in); echo $x', screen: `${LS_NOPE}in\n` },
    { line: 'echo a >&2; echo b; echo c >&2', screen: 'a\nb\nc\n' },
    { line: 'ls /nope | cat; echo b', screen: `${LS_NOPE}b\n` },
    { line: 'for i in 1 2; do echo out$i; echo err$i >&2; done', screen: 'out1\nerr1\nout2\nerr2\n' },
    { line: '(echo a; ls /nope) 2>/dev/null; echo b', screen: 'a\nb\n' },
    { line: 'ls /nope >/dev/null 2>&1; echo b', screen: 'b\n' },
    { line: 'echo a; ls /nope 2>&1 >/dev/null; echo b', screen: `a\n${LS_NOPE}b\n` },
    // GNU findutils 4.9 xargs on a tty (`script -qc`): -t's trace, then that command's output.
    { line: 'echo a b | xargs -n1 -t echo', screen: 'echo a\na\necho b\nb\n' },
    { line: "printf 'a.txt\\n/nope\\na.txt\\n' | xargs -n1 ls", screen: `a.txt\n${LS_NOPE}a.txt\n` },
  ])('$line', ({ line, screen: want }) => {
    const r = makeShell().run(line, { interactive: true });
    expect(screen(r)).toBe(want);
    expect(joined(r, 'stdout')).toBe(r.stdout);
    expect(joined(r, 'stderr')).toBe(r.stderr);
  });

  it('labels each chunk with its stream and merges consecutive writes to one stream', () => {
    expect(makeShell().run('echo a; echo b; ls /nope; echo c', { interactive: true }).output).toEqual([
      { stream: 'stdout', text: 'a\nb\n' },
      { stream: 'stderr', text: LS_NOPE },
      { stream: 'stdout', text: 'c\n' },
    ]);
  });

  it('leaves output out when the order is plain stdout then stderr', () => {
    const r = makeShell().run('echo a; ls /nope', { interactive: true });
    expect(r).toEqual({ stdout: 'a\n', stderr: LS_NOPE, exitCode: 2 });
  });

  it("relays a command's own ordering, to the terminal and through 2>&1 into a pipe", () => {
    const shell = makeShell();
    expect(screen(shell.run('tool', { interactive: true }))).toBe('> GET /\nbody\n* left intact\n');
    expect(shell.run('tool 2>&1 | cat', { interactive: true })).toEqual({
      stdout: '> GET /\nbody\n* left intact\n',
      stderr: '',
      exitCode: 0,
    });
    expect(shell.run('tool > a.txt; cat a.txt', { interactive: true }).output).toEqual([
      { stream: 'stderr', text: '> GET /\n* left intact\n' },
      { stream: 'stdout', text: 'body\n' },
    ]);
  });

  it('ignores an ordering that no longer adds up to the streams (a result copied and changed)', () => {
    const stale: ExecResult = {
      ...tool(['tool'], { stdin: '', env: {}, context: { kind: 'host' }, interactive: false }),
      stdout: 'other\n',
    };
    expect(outputOf(stale)).toEqual([
      { stream: 'stdout', text: 'other\n' },
      { stream: 'stderr', text: '> GET /\n* left intact\n' },
    ]);
  });

  it('keeps the order of a command run without a terminal (kubectl exec POD -- CMD)', () => {
    const r = makeShell().execIn({ kind: 'host' }, ['sh', '-c', 'ls /nope; echo a.txt']);
    expect(r?.stdout).toBe('a.txt\n');
    expect(r?.output).toEqual([
      { stream: 'stderr', text: LS_NOPE },
      { stream: 'stdout', text: 'a.txt\n' },
    ]);
  });

  it('clears what the line printed before `clear`, on both streams', () => {
    const r = makeShell().run('ls /nope; echo a; clear; echo b', { interactive: true });
    expect(r).toEqual({ stdout: 'b\n', stderr: '', exitCode: 0, clear: true });
  });

  it('puts the truncation notice after the last chunk of its stream', () => {
    const shell = makeShell({ 'big.txt': 'x'.repeat(MAX_TERMINAL_OUTPUT + 10) });
    const r = shell.run('ls /nope; cat big.txt; ls /nope', { interactive: true });
    expect(r.stdout.endsWith(OUTPUT_TRUNCATED_NOTICE)).toBe(true);
    expect(r.output?.map((c) => c.stream)).toEqual(['stderr', 'stdout', 'stderr', 'stdout']);
    expect(r.output?.at(-1)).toEqual({ stream: 'stdout', text: OUTPUT_TRUNCATED_NOTICE });
    expect(joined(r, 'stdout')).toBe(r.stdout);
    expect(joined(r, 'stderr')).toBe(r.stderr);
  });
});
