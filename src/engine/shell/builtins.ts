/**
 * Builtins: the commands a shell runs itself because they change the shell (cd, export, exit, …)
 * or because every shell has them (echo, printf, test). Messages follow bash's wording; in busybox
 * ash and dash sessions the prefix changes (`sh: …`, `sh: 1: …`), see `shellError`.
 */
import { ExitSignal, LoopSignal, resolveIn, type Builtin, type BuiltinContext } from './interpreter.ts';
import { formatPrintf, interpretEscapes } from './printf-format.ts';
import { evaluateTest, TestError } from './test-expression.ts';
import { shellError, type Frame } from './session.ts';
import { fileErrorText } from './vfs.ts';
import { RESERVED_WORDS } from './syntax.ts';
import { HELP_TOPICS, helpText } from './help.ts';
import { signalNumber } from './jobs.ts';

export interface BuiltinServices {
  history(): readonly string[];
  clearHistory(): void;
  /** Path of an external command in the frame's context, undefined when there is none. */
  commandPath(name: string, frame: Frame): string | undefined;
  /** Programs the session offers besides builtins (for `help`). */
  utilityNames(frame: Frame): readonly string[];
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function createBuiltins(services: BuiltinServices): ReadonlyMap<string, Builtin> {
  const table = new Map<string, Builtin>();
  const err = (c: BuiltinContext, name: string, message: string) =>
    c.err(shellError(c.rt.frame, `${name}: ${message}`));

  table.set(':', () => 0);
  table.set('true', () => 0);
  table.set('false', () => 1);

  table.set('echo', (argv, c) => {
    let newline = true;
    let escapes = c.rt.frame.flavour === 'dash';
    let i = 1;
    for (; i < argv.length; i++) {
      const a = argv[i]!;
      if (!/^-[neE]+$/.test(a) || (c.rt.frame.flavour === 'dash' && a !== '-n')) break;
      for (const f of a.slice(1)) {
        if (f === 'n') newline = false;
        else if (f === 'e') escapes = true;
        else escapes = false;
      }
    }
    let text = argv.slice(i).join(' ');
    if (escapes) {
      const r = interpretEscapes(text);
      text = r.text;
      if (r.stop) newline = false;
    }
    c.out(newline ? `${text}\n` : text);
    return 0;
  });

  table.set('printf', (argv, c) => {
    let args = argv.slice(1);
    if (args[0] === '--') args = args.slice(1);
    if (args.length === 0) {
      c.err(shellError(c.rt.frame, 'printf: usage: printf [-v var] format [arguments]'));
      return 2;
    }
    const r = formatPrintf(args[0]!, args.slice(1));
    c.out(r.text);
    for (const e of r.errors) err(c, 'printf', e);
    return r.errors.length > 0 ? 1 : 0;
  });

  const test: Builtin = (argv, c) => {
    let args = argv.slice(1);
    if (argv[0] === '[') {
      if (args[args.length - 1] !== ']') {
        err(c, '[', "missing `]'");
        return 2;
      }
      args = args.slice(0, -1);
    }
    try {
      return evaluateTest(args, c.rt.frame.fs, (p) => resolveIn(c.rt.frame, p)) ? 0 : 1;
    } catch (e) {
      if (!(e instanceof TestError)) throw e;
      err(c, argv[0]!, e.message);
      return 2;
    }
  };
  table.set('test', test);
  table.set('[', test);

  table.set('pwd', (_argv, c) => {
    c.out(`${c.rt.frame.cwd}\n`);
    return 0;
  });

  table.set('cd', (argv, c) => {
    const frame = c.rt.frame;
    const args = argv.slice(1).filter((a) => a !== '-L' && a !== '-P');
    if (args.length > 1) {
      err(c, 'cd', 'too many arguments');
      return 1;
    }
    let dir = args[0] ?? frame.vars.get('HOME')?.value ?? frame.home;
    let print = false;
    if (dir === '-') {
      const old = frame.vars.get('OLDPWD')?.value;
      if (old === undefined) {
        err(c, 'cd', 'OLDPWD not set');
        return 1;
      }
      dir = old;
      print = true;
    }
    const target = resolveIn(frame, dir);
    const kind = frame.fs.stat(target);
    const fail = (why: string) => {
      if (frame.flavour === 'bash') err(c, 'cd', `${dir}: ${why}`);
      else err(c, 'cd', `can't cd to ${dir}${frame.flavour === 'ash' ? `: ${why}` : ''}`);
      return 1;
    };
    if (kind === undefined) return fail(fileErrorText('ENOENT'));
    if (kind === 'file') return fail(fileErrorText('ENOTDIR'));
    // The host shell is confined to the lab's directory: everything else is out of bounds.
    if (frame.context.kind === 'host' && target !== frame.home && !target.startsWith(`${frame.home}/`)) {
      return fail(fileErrorText('EACCES'));
    }
    c.interp.setVar(frame, 'OLDPWD', frame.cwd);
    frame.cwd = target;
    c.interp.setVar(frame, 'PWD', target);
    if (print) c.out(`${target}\n`);
    return 0;
  });

  table.set('export', (argv, c) => {
    const frame = c.rt.frame;
    const args = argv.slice(1).filter((a) => a !== '-p');
    if (args.length === 0) {
      for (const [k, v] of [...frame.vars].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (v.exported) c.out(`declare -x ${k}="${v.value.replace(/(["\\$`])/g, '\\$1')}"\n`);
      }
      return 0;
    }
    let status = 0;
    for (const a of args) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq).replace(/\+$/, '');
      if (!NAME_RE.test(name)) {
        err(c, 'export', `\`${a}': not a valid identifier`);
        status = 1;
        continue;
      }
      const append = eq > 0 && a[eq - 1] === '+';
      const value =
        eq < 0
          ? frame.vars.get(name)?.value
          : (append ? (frame.vars.get(name)?.value ?? '') : '') + a.slice(eq + 1);
      if (value === undefined) frame.vars.set(name, { value: '', exported: true });
      else c.interp.setVar(frame, name, value, true);
    }
    return status;
  });

  table.set('unset', (argv, c) => {
    for (const a of argv.slice(1)) if (!a.startsWith('-')) c.rt.frame.vars.delete(a);
    return 0;
  });

  table.set('exit', (argv, c) => {
    const arg = argv[1];
    if (arg === undefined) throw new ExitSignal(c.rt.status);
    if (!/^[-+]?\d+$/.test(arg)) {
      err(c, 'exit', `${arg}: numeric argument required`);
      throw new ExitSignal(2);
    }
    if (argv.length > 2) {
      err(c, 'exit', 'too many arguments');
      return 1;
    }
    throw new ExitSignal(((Number(arg) % 256) + 256) % 256);
  });

  const loopControl =
    (kind: 'break' | 'continue'): Builtin =>
    (argv, c) => {
      const n = argv[1] === undefined ? 1 : Number(argv[1]);
      if (!Number.isInteger(n) || n < 1) {
        err(c, kind, `${argv[1]}: loop count out of range`);
        return 1;
      }
      if (c.rt.loops === 0) return 0;
      throw new LoopSignal(kind, Math.min(n, c.rt.loops));
    };
  table.set('break', loopControl('break'));
  table.set('continue', loopControl('continue'));

  table.set('alias', (argv, c) => {
    const aliases = c.rt.frame.aliases;
    const quote = (v: string) => `'${v.replace(/'/g, "'\\''")}'`;
    if (argv.length === 1 || argv[1] === '-p') {
      for (const [k, v] of [...aliases].sort(([a], [b]) => (a < b ? -1 : 1)))
        c.out(`alias ${k}=${quote(v)}\n`);
      return 0;
    }
    let status = 0;
    for (const a of argv.slice(1)) {
      const eq = a.indexOf('=');
      if (eq > 0) aliases.set(a.slice(0, eq), a.slice(eq + 1));
      else if (aliases.has(a)) c.out(`alias ${a}=${quote(aliases.get(a)!)}\n`);
      else {
        err(c, 'alias', `${a}: not found`);
        status = 1;
      }
    }
    return status;
  });

  table.set('unalias', (argv, c) => {
    let status = 0;
    for (const a of argv.slice(1)) {
      if (a === '-a') c.rt.frame.aliases.clear();
      else if (!c.rt.frame.aliases.delete(a)) {
        err(c, 'unalias', `${a}: not found`);
        status = 1;
      }
    }
    return status;
  });

  table.set('history', (argv, c) => {
    if (argv[1] === '-c') {
      services.clearHistory();
      return 0;
    }
    const all = services.history();
    let from = 0;
    if (argv[1] !== undefined) {
      if (!/^\d+$/.test(argv[1])) {
        err(c, 'history', `${argv[1]}: numeric argument required`);
        return 1;
      }
      from = Math.max(0, all.length - Number(argv[1]));
    }
    for (let i = from; i < all.length; i++) c.out(`${String(i + 1).padStart(5)}  ${all[i]}\n`);
    return 0;
  });

  const describe = (name: string, frame: Frame): { kind: string; text: string } | undefined => {
    if (frame.aliases.has(name))
      return { kind: 'alias', text: `${name} is aliased to \`${frame.aliases.get(name)}'` };
    if (RESERVED_WORDS.has(name)) return { kind: 'keyword', text: `${name} is a shell keyword` };
    if (table.has(name)) return { kind: 'builtin', text: `${name} is a shell builtin` };
    const path = services.commandPath(name, frame);
    return path === undefined ? undefined : { kind: 'file', text: `${name} is ${path}` };
  };

  table.set('type', (argv, c) => {
    const kindOnly = argv[1] === '-t';
    let status = 0;
    for (const name of argv.slice(kindOnly ? 2 : 1)) {
      const d = describe(name, c.rt.frame);
      if (!d) {
        if (!kindOnly) err(c, 'type', `${name}: not found`);
        status = 1;
      } else c.out(`${kindOnly ? d.kind : d.text}\n`);
    }
    return status;
  });

  table.set('command', (argv, c) => {
    if (argv[1] === '-v' || argv[1] === '-V') {
      let status = 0;
      for (const name of argv.slice(2)) {
        const d = describe(name, c.rt.frame);
        if (!d) {
          if (argv[1] === '-V') err(c, 'command', `${name}: not found`);
          status = 1;
        } else if (argv[1] === '-V') c.out(`${d.text}\n`);
        else if (d.kind === 'alias') c.out(`alias ${name}='${c.rt.frame.aliases.get(name)}'\n`);
        else c.out(`${d.kind === 'file' ? services.commandPath(name, c.rt.frame) : name}\n`);
      }
      return status;
    }
    if (argv.length < 2) return 0;
    return c.interp.execArgv(argv.slice(1), c.rt, c.io);
  });

  table.set('read', (argv, c) => {
    const names: string[] = [];
    let raw = false;
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '-r') raw = true;
      else if (a === '-p') i++;
      else names.push(a);
    }
    const got = c.io.stdin.readLine();
    if (names.length === 0) names.push('REPLY');
    let line = got?.line ?? '';
    if (!raw) line = line.replace(/\\(.)/g, '$1');
    const fields =
      names.length === 1 ? [line.replace(/^[ \t]+|[ \t]+$/g, '')] : splitFields(line, names.length);
    names.forEach((n, i) => c.interp.setVar(c.rt.frame, n, fields[i] ?? ''));
    return got === undefined || !got.complete ? 1 : 0;
  });

  const source: Builtin = (argv, c) => {
    const file = argv[1];
    if (file === undefined) {
      err(c, argv[0]!, 'filename argument required');
      return 2;
    }
    const read = c.rt.frame.fs.read(resolveIn(c.rt.frame, file));
    if ('error' in read) {
      c.err(shellError(c.rt.frame, `${file}: ${fileErrorText(read.error)}`));
      return 1;
    }
    return c.interp.runSource(read.content, c.rt, c.io);
  };
  table.set('source', source);
  table.set('.', source);

  table.set('eval', (argv, c) => c.interp.runSource(argv.slice(1).join(' '), c.rt, c.io));

  table.set('set', (argv, c) => {
    // `set -- A B…` replaces the positional parameters; options are accepted and ignored.
    const dashes = argv.indexOf('--');
    if (dashes > 0) c.rt.frame.args = argv.slice(dashes + 1);
    if (argv.length > 1) return 0;
    for (const [k, v] of [...c.rt.frame.vars].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      c.out(
        `${k}=${/^[A-Za-z0-9_./:=@,+-]*$/.test(v.value) ? v.value : `'${v.value.replace(/'/g, "'\\''")}'`}\n`,
      );
    }
    return 0;
  });

  table.set('shift', (argv, c) => {
    const params = c.rt.frame.args ?? [];
    const n = argv[1] === undefined ? 1 : Number(argv[1]);
    const bash = c.rt.frame.flavour === 'bash';
    if (!Number.isInteger(n) || n < 0) {
      err(c, 'shift', bash ? `${argv[1]}: numeric argument required` : `Illegal number: ${argv[1]}`);
      return bash ? 1 : 2;
    }
    // bash says nothing unless shopt shift_verbose; dash and ash complain.
    if (n > params.length) {
      if (!bash) err(c, 'shift', "can't shift that many");
      return bash ? 1 : 2;
    }
    c.rt.frame.args = params.slice(n);
    return 0;
  });
  table.set('wait', (_argv, c) =>
    c.interp.host.interactive && !c.rt.subshell ? c.interp.jobs.waitInteractive(c.io) : c.interp.finishJobs(),
  );
  table.set('jobs', (_argv, c) => {
    c.out(c.interp.jobs.listing());
    return 0;
  });
  table.set('kill', (argv, c) => killBuiltin(argv, c));

  table.set('help', (argv, c) => {
    const topic = argv[1];
    if (topic === undefined) {
      c.out(helpText([...table.keys()], services.utilityNames(c.rt.frame)));
      return 0;
    }
    const usage = HELP_TOPICS[topic];
    if (usage === undefined || !table.has(topic)) {
      err(
        c,
        'help',
        `no help topics match \`${topic}'.  Try \`help help' or \`man -k ${topic}' or \`info ${topic}'.`,
      );
      return 1;
    }
    c.out(`${topic}: ${usage}\n`);
    return 0;
  });

  return table;
}

/** `read a b`: IFS-whitespace fields; the last name takes the rest of the line. */
function splitFields(line: string, n: number): string[] {
  const out: string[] = [];
  let rest = line.replace(/^[ \t]+/, '');
  while (out.length < n - 1 && rest !== '') {
    const m = /^([^ \t]*)[ \t]*/.exec(rest)!;
    out.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  out.push(rest.replace(/[ \t]+$/, ''));
  return out;
}

/**
 * `kill [-s SIG | -SIG | -n NUM] %JOB|PID…`: ends a background job (what it prints on the way out,
 * tcpdump's summary, shows now; the next prompt reports it). PID 1, the container's main process,
 * ignores the signal as any PID 1 without a handler does. Other PIDs are no process this shell knows.
 * Wording per shell: bash's, BusyBox ash's and dash's, as each prints it.
 */
function killBuiltin(argv: readonly string[], c: BuiltinContext): number {
  const frame = c.rt.frame;
  const say = (bashText: string, ashText: string, dashText: string) =>
    c.err(
      frame.flavour === 'bash'
        ? `bash: kill: ${bashText}\n`
        : frame.flavour === 'ash'
          ? `sh: ${ashText}\n`
          : shellError(frame, `kill: ${dashText}`),
    );
  let signal = 15;
  let i = 1;
  const first = argv[1];
  if (first === '-s' || first === '-n') {
    const spec = argv[2];
    if (spec === undefined) {
      c.err(`bash: kill: ${first}: option requires an argument\n`);
      return 1;
    }
    const n = signalNumber(spec);
    if (n === undefined) {
      say(
        `${spec}: invalid signal specification`,
        `bad signal name '${spec}'`,
        `invalid signal number or name: ${spec}`,
      );
      return 1;
    }
    signal = n;
    i = 3;
  } else if (first !== undefined && /^-[A-Za-z0-9]+$/.test(first)) {
    const n = signalNumber(first.slice(1));
    if (n === undefined) {
      say(
        `${first.slice(1)}: invalid signal specification`,
        `bad signal name '${first.slice(1)}'`,
        `Illegal option -${first[1]}`,
      );
      return 1;
    }
    signal = n;
    i = 2;
  }
  const targets = argv.slice(i);
  if (targets.length === 0) {
    c.err('kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n');
    return 2;
  }
  let status = 0;
  for (const t of targets) {
    const job = c.interp.jobs.find(t);
    if (job) {
      c.interp.jobs.kill(job, signal, c.io);
      continue;
    }
    if (t === '1') continue;
    status = frame.flavour === 'ash' && t.startsWith('%') ? 2 : 1;
    if (t.startsWith('%'))
      say(
        `${t}: no such job`,
        `kill: ${c.interp.host.interactive && !c.rt.subshell ? '' : 'line 0: '}${t}: no such job`,
        `No such job: ${t}`,
      );
    else if (!/^\d+$/.test(t))
      say(`${t}: arguments must be process or job IDs`, `invalid number '${t}'`, `Illegal number: ${t}`);
    else say(`(${t}) - No such process`, `can't kill pid ${t}: No such process`, 'No such process');
  }
  return status;
}
