/**
 * `&&`, `||`, `!`, `;` and exit statuses in a container's `sh -c` script, as POSIX sh runs them. The
 * expected output and status of each script were captured from `dash -c` (BusyBox ash's ancestor; both
 * implement the POSIX list grammar the same way for these forms).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/objects.ts';
import { podPrograms, runProgram } from './container-runtime.ts';
import type { Program, ToolOutcome } from './process-model.ts';

function program(script: string): Program {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'u' },
    spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', script] }] },
    status: { podIP: '10.244.1.5' },
  } as Pod;
  return podPrograms(pod).get('c')!.program;
}

function run(prog: Program): { out: string; code: number | undefined } {
  const r = runProgram(prog, 0, Number.MAX_SAFE_INTEGER);
  return { out: r.logs.map((l) => l.text).join('\n'), code: r.exit?.code };
}

describe('sh -c lists (goldens from dash -c)', () => {
  it.each([
    { script: 'echo a && echo b', out: 'a\nb', code: 0 },
    { script: 'false && echo a || echo b', out: 'b', code: 0 },
    { script: 'true || echo a && echo b', out: 'b', code: 0 },
    { script: 'false || false && echo no || echo yes', out: 'yes', code: 0 },
    { script: '! true; echo after', out: 'after', code: 0 },
    { script: '! false && echo neg', out: 'neg', code: 0 },
    { script: 'false; exit', out: '', code: 1 },
    { script: 'echo x && false || exit 3; echo unreached', out: 'x', code: 3 },
    { script: 'true && exit 4 || echo no', out: '', code: 4 },
    { script: 'false && exit 5; echo reached', out: 'reached', code: 0 },
    { script: 'false || ! true || echo last', out: 'last', code: 0 },
    { script: 'echo one; false', out: 'one', code: 1 },
    { script: 'true &&\necho nl', out: 'nl', code: 0 },
  ])('$script', ({ script, out, code }) => {
    expect(run(program(script))).toEqual({ out, code });
  });
});

describe('a network tool decides the branch when the script runs', () => {
  const failing: ToolOutcome = {
    stdout: '',
    stderr: "wget: bad address 'web'\n",
    exitCode: 1,
    elapsedMs: 10,
  };
  const page: ToolOutcome = { stdout: 'hello\n', stderr: '', exitCode: 0, elapsedMs: 10 };
  const withTool = (script: string, outcome: ToolOutcome) => ({ ...program(script), tools: () => outcome });
  const script = 'wget -qO- http://web && echo ok || echo fail';

  it('the request fails: only the || side runs', () => {
    expect(run(withTool(script, failing))).toEqual({ out: "wget: bad address 'web'\nfail", code: 0 });
  });

  it('the request succeeds: only the && side runs', () => {
    expect(run(withTool(script, page))).toEqual({ out: 'hello\nok', code: 0 });
  });

  it('! inverts the tool status and a bare exit returns it', () => {
    expect(run(withTool('! wget -q http://web && echo down', failing))).toEqual({
      out: "wget: bad address 'web'\ndown",
      code: 0,
    });
    expect(run(withTool('wget -q http://web; exit', failing))).toEqual({
      out: "wget: bad address 'web'",
      code: 1,
    });
  });

  it('a loop waits in its conditional sleep instead of spinning', () => {
    const prog = withTool('while true; do wget -q http://web || sleep 5; done', failing);
    const r = runProgram(prog, 0, 12_000);
    expect(r.logs.map((l) => l.time)).toEqual([10, 5020, 10030]);
  });
});
