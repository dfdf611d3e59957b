/**
 * `&&`, `||`, `!`, `;` and exit statuses in a container's `sh -c` script, as POSIX sh runs them. The
 * expected output and status of each script were captured from `dash -c` (BusyBox ash's ancestor; both
 * implement the POSIX list grammar the same way for these forms).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/objects.ts';
import { podPrograms, runProgram } from './container-runtime.ts';
import type { Program, ToolOutcome } from './process-model.ts';

function program(script: string, image = 'busybox:1.36'): Program {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'u' },
    spec: { containers: [{ name: 'c', image, command: ['sh', '-c', script] }] },
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

// Parsed by the interactive shell's parser: redirections, `$?`, `if`, pipes and printf escapes as
// POSIX sh runs them. Outputs and statuses captured from `dash -c` (both streams to one log, `2>&1`).
describe('sh -c scripts parse as the interactive shell parses them (goldens from dash -c)', () => {
  it.each([
    { script: 'echo a; echo b >&2; echo c', out: 'a\nb\nc', code: 0 },
    { script: 'echo hello | tr a-z A-Z; printf "x\\ny\\n" | head -1', out: 'HELLO\nx', code: 0 },
    { script: 'false; echo "rc=$?"', out: 'rc=1', code: 0 },
    { script: 'if false; then echo up; else echo down; fi', out: 'down', code: 0 },
    { script: 'if true; then echo up; fi; echo $?', out: 'up\n0', code: 0 },
    { script: 'x=5; echo "x=$x"; for i in 1 2 3; do echo "i=$i"; done', out: 'x=5\ni=1\ni=2\ni=3', code: 0 },
    { script: 'echo a 2>&1 >/dev/null; echo b > /dev/null; echo c 1>&2', out: 'c', code: 0 },
    { script: 'printf "%s-%d\\n" a 3', out: 'a-3', code: 0 },
    { script: '[ "a" = "a" ] && echo same', out: 'same', code: 0 },
    { script: 'echo "$(echo inner) outer"', out: 'inner outer', code: 0 },
    { script: 'echo x | grep -q y; echo $?', out: '1', code: 0 },
    {
      script: 'for n in a b; do if [ $n = b ]; then echo B; else echo other; fi; done',
      out: 'other\nB',
      code: 0,
    },
    { script: 'until false; do echo once; exit 7; done', out: 'once', code: 7 },
    { script: 'for i in $(seq 1 3); do echo "n$i"; done | tail -1', out: 'n3', code: 0 },
  ])('$script', ({ script, out, code }) => {
    expect(run(program(script))).toEqual({ out, code });
  });
});

describe('a network tool inside pipes, redirections and if (busybox 1.36 wget, curl 8 -v)', () => {
  const bad: ToolOutcome = { stdout: '', stderr: "wget: bad address 'nope'\n", exitCode: 1, elapsedMs: 10 };
  const page: ToolOutcome = {
    stdout: '<title>Welcome to nginx!</title>\n<p>x</p>\n<h1>Welcome to nginx!</h1>\n',
    stderr: '',
    exitCode: 0,
    elapsedMs: 10,
  };
  const withTool = (script: string, outcome: ToolOutcome, image?: string) => ({
    ...program(script, image),
    tools: () => outcome,
  });

  it('2>&1 is a redirection and $? is the tool status', () => {
    expect(run(withTool('wget -qO- -T 2 http://nope 2>&1; echo "rc=$?"', bad))).toEqual({
      out: "wget: bad address 'nope'\nrc=1",
      code: 0,
    });
  });

  it('if decides on the tool status', () => {
    const script = 'if wget -q -T 2 -O /dev/null http://web; then echo up; else echo down; fi';
    const saved: ToolOutcome = { stdout: '', stderr: '', exitCode: 0, elapsedMs: 10 };
    expect(run(withTool(script, saved))).toEqual({ out: 'up', code: 0 });
    expect(run(withTool(script, bad))).toEqual({ out: "wget: bad address 'nope'\ndown", code: 0 });
  });

  it('a pipe filters what the tool printed', () => {
    expect(run(withTool('wget -qO- http://web | grep -o "Welcome to nginx"', page))).toEqual({
      out: 'Welcome to nginx\nWelcome to nginx',
      code: 0,
    });
  });

  it("the log keeps the tool's write order of stdout and stderr", () => {
    const verbose: ToolOutcome = {
      stdout: 'body\n',
      stderr: '* Host web:80 was resolved.\n< HTTP/1.1 200 OK\n* Connection #0 to host web left intact\n',
      output: [
        { stream: 'stderr', text: '* Host web:80 was resolved.\n< HTTP/1.1 200 OK\n' },
        { stream: 'stdout', text: 'body\n' },
        { stream: 'stderr', text: '* Connection #0 to host web left intact\n' },
      ],
      exitCode: 0,
      elapsedMs: 10,
    };
    expect(run(withTool('curl -sv http://web', verbose, 'curlimages/curl:8.11.1')).out).toBe(
      '* Host web:80 was resolved.\n< HTTP/1.1 200 OK\nbody\n* Connection #0 to host web left intact',
    );
    expect(run(withTool('curl -sv http://web 2>&1 | head -2', verbose, 'curlimages/curl:8.11.1')).out).toBe(
      '* Host web:80 was resolved.\n< HTTP/1.1 200 OK',
    );
  });

  it('until waits on the tool, round by round, until it succeeds', () => {
    let calls = 0;
    const prog = {
      ...program('until wget -q -O /dev/null http://db; do echo waiting; sleep 2; done; echo up'),
      tools: () => (++calls < 3 ? bad : { ...page, stdout: '' }),
    };
    const r = runProgram(prog, 0, Number.MAX_SAFE_INTEGER);
    expect(r.logs.map((l) => `${l.time} ${l.text}`)).toEqual([
      "10 wget: bad address 'nope'",
      '10 waiting',
      "2020 wget: bad address 'nope'",
      '2020 waiting',
      '4030 up',
    ]);
    expect(r.exit).toEqual({ at: 4030, code: 0 });
  });
});
