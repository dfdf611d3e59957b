/**
 * What `sh -c '…'` does in a container. The script is parsed by the interactive shell's parser
 * (shell/parser.ts, the one `kubectl exec -it … -- sh` uses), so quoting, redirections, `if`, loops
 * and pipes mean the same in both; the syntax tree is then compiled into timed steps
 * (process-model.ts) rather than run, because the container's time is the simulated clock: `sleep`
 * advances it, network clients (wget, nslookup, curl) become `tool` steps whose answers the runtime
 * gets from the dataplane as the script reaches them, and loops accumulate log lines round by round.
 *
 * Both of the process's streams go to the container log, as the CRI's log file records them. What
 * the compiler can decide (a status after `echo`, a test on strings) is decided then; what depends on
 * a tool's outcome (`$?`, the branch of an `if`, what `grep` keeps of a page) becomes a step the
 * runtime takes.
 *
 * Simplified: variables assigned inside a `while` body keep the value of its first round, a pipe
 * stage that is not a text utility (`| sh`, `| while read`) runs without its input, the files a
 * script tests or lists are not modelled (`[ -f x ]` on a path is false, `ls` prints nothing), and a
 * loop waiting on a tool (`until nslookup db`) ends, for the kubelet, after its fresh runs
 * (container-runtime.ts).
 */
import type { Filesystem } from '../shell/vfs.ts';
import { parseProgram, ShellSyntaxError } from '../shell/parser.ts';
import { syntaxErrorText } from '../shell/syntax-errors.ts';
import { expandWord, expandWords, ExpansionError, type ExpandContext } from '../shell/expand.ts';
import { evaluateTest, TestError } from '../shell/test-expression.ts';
import { TEXT_UTILITIES } from '../shell/utilities/index.ts';
import type { AndOr, Command, List, Pipeline, Redirect, Word } from '../shell/syntax.ts';
import { dateLine, type Dest, type Step } from './process-model.ts';

export interface ScriptContext {
  readonly env: Readonly<Record<string, string>>;
  readonly hostname: string;
  /** Turns one simple command (argv) into steps: servers, sleep, unknown commands… */
  readonly command: (argv: string[]) => Step[];
}

/** Stands for the output of `$(date)`, filled in with the simulated time when the line is printed. */
export const DATE_MARK = '\u0002date\u0002';

/** A `for` list or a brace expansion longer than this is cut: the log keeps bounded anyway. */
const MAX_FOR_VALUES = 1000;

const NO_FILES: Filesystem = {
  stat: () => undefined,
  read: () => ({ error: 'ENOENT' }),
  write: () => 'EROFS',
  remove: () => 'ENOENT',
  mkdir: () => 'EROFS',
  list: () => 'ENOENT',
};

interface Compiler {
  readonly ctx: ScriptContext;
  readonly vars: Map<string, string>;
  /** `$?` when the runtime substitutes it into a command compiled late. */
  status?: number;
}

/** Compiles a script into steps. */
export function compileScript(script: string, ctx: ScriptContext): Step[] {
  let list: List;
  try {
    list = parseProgram(script).list;
  } catch (e) {
    if (!(e instanceof ShellSyntaxError)) throw e;
    return [...textSteps(syntaxErrorText(e, { flavour: 'ash' }), 'err'), { op: 'exit', code: 2 }];
  }
  const vars = new Map<string, string>(Object.entries(ctx.env));
  vars.set('HOSTNAME', ctx.hostname);
  return compileList(list, { ctx, vars });
}

/** Text a command writes as it is (a last line without newline continues with the next write). */
export function textSteps(text: string, stream: 'out' | 'err' = 'out'): Step[] {
  if (text === '') return [];
  if (!text.includes(DATE_MARK)) return [{ op: 'write', text, stream }];
  return [{ op: 'write', text: (ms) => text.split(DATE_MARK).join(dateLine(ms)), stream }];
}

function compileList(list: List, c: Compiler): Step[] {
  const steps: Step[] = [];
  for (const item of list) steps.push(...compileAndOr(item, c));
  return steps;
}

/** `a && b || c`: each operator applies to the status the list so far left behind. */
function compileAndOr(item: AndOr, c: Compiler): Step[] {
  let steps = compilePipeline(item.first, c);
  for (const { op, pipeline } of item.rest) {
    const when = op === '&&' ? 'ok' : 'fail';
    const right = compilePipeline(pipeline, c);
    const known = staticStatus(steps);
    if (known === undefined) steps = [...steps, { op: 'if', when, body: right }];
    else if ((known === 0) === (when === 'ok')) steps = [...steps, ...right];
  }
  return steps;
}

function compilePipeline(p: Pipeline, c: Compiler): Step[] {
  const [first, ...rest] = p.commands;
  if (!first) return [];
  let steps: Step[];
  const stages = rest.map((cmd) => textStage(cmd, c));
  if (rest.length === 0) steps = compileCommand(first, c);
  else if (stages.every((s) => s !== undefined)) {
    const filters = stages as TextStage[];
    steps = [
      {
        op: 'io',
        body: compileCommand(first, c),
        out: 'pipe',
        err: p.pipeStderr[0] ? 'pipe' : 'err',
        then: (input) => runStages(filters, input),
      },
    ];
  } else {
    // The first command still runs (a server, a tool); the last one's output is what the log keeps.
    steps = [
      { op: 'io', body: compileCommand(first, c), out: 'null', err: 'err' },
      ...compileCommand(rest[rest.length - 1]!, c),
    ];
  }
  if (!p.negate) return steps;
  const known = staticStatus(steps);
  return [...steps, known === undefined ? { op: 'not' } : { op: 'status', code: known === 0 ? 1 : 0 }];
}

type TextStage = (input: string) => { output: Step[]; stdout: string; status: number };

/** A pipe stage the runtime can run on the text it receives (grep, tr, head, sed…). */
function textStage(cmd: Command, c: Compiler): TextStage | undefined {
  if (cmd.type !== 'simple' || cmd.redirects.length > 0) return undefined;
  const argv = expandArgv(cmd.words, c);
  if (!argv) return undefined;
  const name = argv[0] ?? '';
  const handler = TEXT_UTILITIES.get(name.slice(name.lastIndexOf('/') + 1));
  if (!handler) return undefined;
  return (input) => {
    const r = handler(argv, {
      stdin: input,
      env: Object.fromEntries(c.vars),
      context: { kind: 'host' },
      interactive: false,
    });
    const chunks = r.output ?? [
      { stream: 'stdout' as const, text: r.stdout },
      { stream: 'stderr' as const, text: r.stderr },
    ];
    const output = chunks.flatMap((ch) => textSteps(ch.text, ch.stream === 'stdout' ? 'out' : 'err'));
    return { output, stdout: r.stdout, status: r.exitCode };
  };
}

/** Runs the later stages of a pipe: each reads the previous one's stdout; the last one's output is written. */
function runStages(stages: readonly TextStage[], input: string): Step[] {
  const errors: Step[] = [];
  let text = input;
  for (let i = 0; i < stages.length; i++) {
    const r = stages[i]!(text);
    if (i === stages.length - 1) return [...errors, ...r.output, { op: 'status', code: r.status }];
    errors.push(...r.output.filter((s) => s.op === 'write' && s.stream === 'err'));
    text = r.stdout;
  }
  return [{ op: 'status', code: 0 }];
}

/** The status steps leave behind when it does not depend on the run (no tool or branch decides it). */
function staticStatus(steps: readonly Step[]): number | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if (s.op === 'status' || s.op === 'exit') return s.code;
    if (s.op === 'io') return s.then ? undefined : staticStatus(s.body);
    if (['tool', 'if', 'not', 'loop', 'block', 'branch', 'while', 'late'].includes(s.op)) return undefined;
  }
  return undefined;
}

function compileCommand(cmd: Command, c: Compiler): Step[] {
  let body: Step[];
  switch (cmd.type) {
    case 'simple':
      body = compileSimple(cmd.words, cmd.assigns, c);
      break;
    case 'group':
      body = compileList(cmd.body, c);
      break;
    case 'if':
      body = compileIf(cmd.clauses, cmd.otherwise, c);
      break;
    case 'for':
      body = compileFor(cmd.name, cmd.items, cmd.body, c);
      break;
    case 'while':
      body = compileWhile(cmd.until, cmd.cond, cmd.body, c);
      break;
  }
  return withRedirects(body, cmd.redirects, c);
}

/**
 * Where fd 1 and 2 go after the redirections, relative to the enclosing output: `>&2` and `2>&1`
 * keep everything in the container log, `> /dev/null` drops it, `> file` creates the file.
 */
function withRedirects(body: Step[], redirects: readonly Redirect[], c: Compiler): Step[] {
  const fds: Record<1 | 2, Dest> = { 1: 'out', 2: 'err' };
  const files: Step[] = [];
  for (const r of redirects) {
    if (r.op === '<' || r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<>') continue;
    const fd = r.fd ?? 1;
    if (fd !== 1 && fd !== 2) continue;
    const target = expandOne(r.target, c) ?? '';
    if ((r.op === '>&' || r.op === '<&') && /^\d+$|^-$/.test(target)) {
      fds[fd] = target === '1' ? fds[1] : target === '2' ? fds[2] : 'null';
      continue;
    }
    const dest: Dest = target === '/dev/stdout' ? fds[1] : target === '/dev/stderr' ? fds[2] : 'null';
    if (!target.startsWith('/dev/')) files.push({ op: 'file', path: target, exists: true });
    if (r.op === '&>' || r.op === '&>>' || r.op === '>&') fds[1] = fds[2] = dest;
    else fds[fd] = dest;
  }
  if (fds[1] === 'out' && fds[2] === 'err') return [...files, ...body];
  return [...files, { op: 'io', body, out: fds[1], err: fds[2] }];
}

function compileSimple(
  words: readonly Word[],
  assigns: readonly { name: string; value: Word }[],
  c: Compiler,
): Step[] {
  // A command that reads `$?` is compiled when the runtime reaches it and knows the status.
  if (c.status === undefined && [...words, ...assigns.map((a) => a.value)].some(readsStatus)) {
    return [
      {
        op: 'late',
        build: (status) => compileSimple(words, assigns, { ...c, vars: new Map(c.vars), status }),
      },
    ];
  }
  const argv = expandArgv(words, c);
  if (!argv) return [...textSteps('sh: bad substitution\n', 'err'), { op: 'status', code: 2 }];
  if (argv.length === 0) {
    for (const a of assigns) c.vars.set(a.name, expandOne(a.value, c) ?? '');
    return [{ op: 'status', code: 0 }];
  }
  const name = argv[0]!;
  switch (name) {
    case 'export':
    case 'readonly':
    case 'local':
      for (const a of argv.slice(1)) {
        const eq = a.indexOf('=');
        if (eq > 0) c.vars.set(a.slice(0, eq), a.slice(eq + 1));
      }
      return [{ op: 'status', code: 0 }];
    case 'unset':
      for (const a of argv.slice(1)) c.vars.delete(a);
      return [{ op: 'status', code: 0 }];
    case 'cd':
    case 'set':
    case 'shift':
    case 'wait':
    case 'umask':
    case 'ulimit':
      return [{ op: 'status', code: 0 }];
    case 'exec':
      return argv.length > 1 ? c.ctx.command(argv.slice(1)) : [{ op: 'status', code: 0 }];
    case 'test':
    case '[':
      return testSteps(argv);
  }
  return c.ctx.command(argv);
}

function testSteps(argv: string[]): Step[] {
  let args = argv.slice(1);
  if (argv[0] === '[') {
    if (args[args.length - 1] !== ']')
      return [...textSteps('sh: missing ]\n', 'err'), { op: 'status', code: 2 }];
    args = args.slice(0, -1);
  }
  try {
    return [{ op: 'status', code: evaluateTest(args, NO_FILES, (p) => p) ? 0 : 1 }];
  } catch (e) {
    if (!(e instanceof TestError)) throw e;
    return [...textSteps(`sh: ${e.message}\n`, 'err'), { op: 'status', code: 2 }];
  }
}

function readsStatus(w: Word): boolean {
  return w.parts.some(
    (p) =>
      (p.type === 'param' && p.name === '?') ||
      (p.type === 'arith' && readsStatus(p.expr)) ||
      (p.type === 'param' && p.arg !== undefined && readsStatus(p.arg)),
  );
}

function compileIf(
  clauses: readonly { cond: List; body: List }[],
  otherwise: List | undefined,
  c: Compiler,
): Step[] {
  const [clause, ...more] = clauses;
  // No condition held and there is no `else`: the status is 0 (XCU 2.9.4.4).
  if (!clause) return otherwise ? compileList(otherwise, c) : [{ op: 'status', code: 0 }];
  const cond = compileList(clause.cond, c);
  const known = staticStatus(cond);
  if (known === 0) return [...cond, ...compileList(clause.body, c)];
  const rest = compileIf(more, otherwise, c);
  if (known !== undefined) return [...cond, ...rest];
  return [...cond, { op: 'branch', then: compileList(clause.body, c), else: rest }];
}

function compileFor(name: string, items: readonly Word[], body: List, c: Compiler): Step[] {
  const values = (expandArgv(items, c) ?? []).slice(0, MAX_FOR_VALUES);
  const steps: Step[] = [];
  for (const v of values) {
    c.vars.set(name, v);
    steps.push(...compileList(body, c));
  }
  return steps.length > 0 ? steps : [{ op: 'status', code: 0 }];
}

function compileWhile(until: boolean, condList: List, bodyList: List, c: Compiler): Step[] {
  const cond = compileList(condList, c);
  const known = staticStatus(cond);
  const body = compileList(bodyList, c);
  if (known === undefined) return [{ op: 'while', until, cond, body }];
  // A condition that never holds: the body never runs and the loop's status is 0.
  if ((known === 0) === until) return [...cond, { op: 'status', code: 0 }];
  return [{ op: 'loop', body: [...cond, ...body] }];
}

function expandContext(c: Compiler): ExpandContext {
  return {
    get: (name) => {
      if (name === '?') return String(c.status ?? 0);
      if (name === '$') return '1';
      if (name === '#') return '0';
      if (name === '0') return 'sh';
      return c.vars.get(name);
    },
    set: (name, value) => {
      c.vars.set(name, value);
    },
    substitute: (body) => substitute(body, c),
    home: c.vars.get('HOME') ?? '/root',
    cwd: '/',
    fs: NO_FILES,
  };
}

/** `$(…)`: what its commands print when that is known now; `$(date)` is filled in when printed. */
function substitute(body: List, c: Compiler): string {
  const first = body[0]?.first.commands[0];
  if (first?.type === 'simple' && first.words[0]?.raw === 'date' && body.length === 1) return DATE_MARK;
  const stage = first && body.length === 1 && body[0]!.first.commands.length === 1 && textStage(first, c);
  if (stage) return stage('').stdout.replace(/\n+$/, '');
  const steps = compileList(body, { ctx: c.ctx, vars: new Map(c.vars), status: c.status });
  let out = '';
  for (const s of steps)
    if (s.op === 'write' && s.stream === 'out') out += typeof s.text === 'string' ? s.text : DATE_MARK;
    else if (s.op === 'log' && s.stream !== 'err') out += `${typeof s.text === 'string' ? s.text : ''}\n`;
  return out.replace(/\n+$/, '');
}

function expandArgv(words: readonly Word[], c: Compiler): string[] | undefined {
  try {
    return expandWords(words, expandContext(c));
  } catch (e) {
    if (e instanceof ExpansionError) return undefined;
    throw e;
  }
}

function expandOne(word: Word, c: Compiler): string | undefined {
  try {
    return expandWord(word, expandContext(c));
  } catch (e) {
    if (e instanceof ExpansionError) return undefined;
    throw e;
  }
}
