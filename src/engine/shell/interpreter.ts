/**
 * Runs syntax trees. Everything is synchronous and string-based: a pipeline runs its commands in
 * order, each reading the previous one's output; every element of a multi-command pipeline, every
 * `( … )` and every `$( … )` runs in a subshell (a copy of the frame), as bash does without lastpipe.
 */
import type { AndOr, Command, List, Pipeline, Redirect, SimpleCommand, Word } from './syntax.ts';
import {
  DEFAULT_TERMINAL_SIZE,
  outputOf,
  type CommandHandler,
  type CommandIO,
  type CommandResult,
  type CommandTerminal,
  type ExecResult,
  type Shows,
  type TerminalSize,
  type Sighting,
} from './types.ts';
import { expandWord, expandWordFields, ExpansionError, type ExpandContext } from './expand.ts';
import { parseProgram, ShellSyntaxError } from './parser.ts';
import { LimitError, MAX_COMMANDS, MAX_LOOP_ITERATIONS, MAX_PIPE_BYTES, MAX_SCRIPT_DEPTH } from './limits.ts';
import { OutputBuffer, OutputPair, Stdin, writeTo, type StdIo, type Target } from './streams.ts';
import { shellError, shellName, subshellOf, type Frame } from './session.ts';
import { JobTable } from './jobs.ts';
import { bindFiles, fileErrorText, isElfBinary } from './vfs.ts';
import { syntaxErrorText } from './syntax-errors.ts';

/** `exit N`: unwinds to the nearest subshell boundary or to the session. */
export class ExitSignal {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

/** An expansion error in an interactive shell abandons the rest of the line, as bash does. */
export class AbortLine {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

/** `break N` / `continue N`. */
export class LoopSignal {
  readonly kind: 'break' | 'continue';
  readonly levels: number;
  constructor(kind: 'break' | 'continue', levels: number) {
    this.kind = kind;
    this.levels = levels;
  }
}

export interface Runtime {
  frame: Frame;
  /** Inside `( … )`, a pipeline element or `$( … )`: `exit` ends only that, sessions cannot open. */
  readonly subshell: boolean;
  /** `$?` */
  status: number;
  readonly depth: number;
  /** Enclosing loops, for `break`/`continue` outside a loop. */
  loops: number;
}

export interface BuiltinContext {
  readonly rt: Runtime;
  readonly io: StdIo;
  readonly interp: Interpreter;
  out(text: string): void;
  err(text: string): void;
}

export type Builtin = (argv: readonly string[], ctx: BuiltinContext) => number;

/** What the interpreter needs from the shell that owns it. */
export interface InterpreterHost {
  readonly interactive: boolean;
  builtin(name: string): Builtin | undefined;
  /** An external command in the frame's context (resolver, then the shell's own utilities). */
  lookup(name: string, frame: Frame): CommandHandler | undefined;
  /** A command asked to open a session (`kubectl exec -it`). */
  enter(enter: NonNullable<CommandResult['enter']>, from: Frame): void;
  /** `clear` ran at the top level: the terminal drops what the line printed before it. */
  clear(): void;
  /** The terminal's stdout buffer (a command writing to it runs on a tty). */
  readonly terminalOut: OutputBuffer | undefined;
  /** The terminal's stderr buffer and its input (a command reading it reads the tty). */
  readonly terminalErr: OutputBuffer | undefined;
  readonly terminalIn: Stdin | undefined;
  /** The terminal's size, once the terminal has reported one. */
  readonly terminalSize: TerminalSize | undefined;
  /** Objects a command displayed reached the terminal (see sightings.ts). */
  saw(sightings: readonly Sighting[]): void;
}

const ASSIGN_WORD = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const DECLARATION_BUILTINS = new Set(['export', 'readonly', 'local', 'declare', 'alias']);

export class Interpreter {
  readonly host: InterpreterHost;
  private commands = 0;
  private readonly running: { rt: Runtime; io: StdIo }[] = [];
  readonly jobs = new JobTable();
  private backgrounded = false;
  /**
   * What a pipe carries toward the terminal: sightings of a command that wrote into it, delivered
   * when the command reading the pipe prints something itself (`kubectl get ep | grep api`).
   */
  private carried = new WeakMap<OutputBuffer, Sighting[]>();
  /** Buffers whose sightings count even if nothing was written (Shows.evenEmpty). */
  private carriedEvenEmpty = new WeakSet<OutputBuffer>();

  constructor(host: InterpreterHost) {
    this.host = host;
  }

  /** Which of a command's streams are the controlling terminal, and its size (stty, tput). */
  private terminalOf(io: StdIo): CommandTerminal {
    const h = this.host;
    return {
      ...(h.terminalSize ?? DEFAULT_TERMINAL_SIZE),
      sized: h.terminalSize !== undefined,
      stdin: io.stdin === h.terminalIn,
      stdout: io.out.kind === 'buffer' && io.out.buffer === h.terminalOut,
      stderr: io.err.kind === 'buffer' && io.err.buffer === h.terminalErr,
    };
  }

  /** Starts a new line: the per-line command budget is fresh. */
  reset(): void {
    this.commands = 0;
    this.running.length = 0;
  }

  /** The command being run right now (for programs that need the shell: `sh`, `which`, `sleep`). */
  current(): { rt: Runtime; io: StdIo } | undefined {
    return this.running[this.running.length - 1];
  }

  // ---- lists ---------------------------------------------------------------------------------

  runList(list: List, rt: Runtime, io: StdIo): number {
    for (const item of list) rt.status = this.runAndOr(item, rt, io);
    return rt.status;
  }

  runAndOr(item: AndOr, rt: Runtime, io: StdIo): number {
    if (item.background && !this.backgrounded) {
      // `cmd &`: a program that supports it keeps running (see BackgroundJob); others run to the end.
      this.backgrounded = true;
      try {
        this.runForeground(item, rt, io);
      } finally {
        this.backgrounded = false;
      }
      return 0;
    }
    return this.runForeground(item, rt, io);
  }

  /** Programs running in the background, in start order. */
  jobCount(): number {
    return this.jobs.size;
  }

  /** Waits for the jobs started since `from` (`wait`, or the end of the shell that started them). */
  finishJobs(from = 0, io?: StdIo): number {
    return this.jobs.finishFrom(from, io);
  }

  private runForeground(item: AndOr, rt: Runtime, io: StdIo): number {
    let status = this.runPipeline(item.first, rt, io);
    rt.status = status;
    for (const { op, pipeline } of item.rest) {
      if ((op === '&&') !== (status === 0)) continue;
      status = this.runPipeline(pipeline, rt, io);
      rt.status = status;
    }
    return status;
  }

  private runPipeline(p: Pipeline, rt: Runtime, io: StdIo): number {
    let status: number;
    if (p.commands.length === 1) {
      status = this.runCommand(p.commands[0]!, rt, io);
    } else {
      let stdin = io.stdin;
      let inbound: Sighting[] | undefined;
      let inboundEvenEmpty = false;
      status = 0;
      p.commands.forEach((cmd, i) => {
        const last = i === p.commands.length - 1;
        const pipe = last ? undefined : new OutputBuffer(false);
        const pipeTarget: Target | undefined = pipe && { kind: 'buffer', buffer: pipe };
        const elementIo: StdIo = {
          stdin,
          out: pipeTarget ?? io.out,
          err: p.pipeStderr[i] && pipeTarget ? pipeTarget : io.err,
        };
        const before = bufferLength(elementIo.out);
        status = this.inSubshell(rt, (sub) => this.runCommand(cmd, sub, elementIo));
        // A node-table listing grepped to nothing (`iptables-save | grep KUBE` under Cilium) was still read.
        if (inbound && (inboundEvenEmpty || bufferLength(elementIo.out) > before))
          this.deliver(inbound, elementIo.out, inboundEvenEmpty);
        inbound = pipe && this.carried.get(pipe);
        inboundEvenEmpty = pipe !== undefined && this.carriedEvenEmpty.has(pipe);
        stdin = new Stdin(pipe ? pipe.text() : '');
      });
    }
    return p.negate ? (status === 0 ? 1 : 0) : status;
  }

  /** Runs `fn` in a copy of the frame; `exit` and stray `break` end only the copy. */
  inSubshell(rt: Runtime, fn: (sub: Runtime) => number): number {
    const sub: Runtime = {
      frame: subshellOf(rt.frame),
      subshell: true,
      status: rt.status,
      depth: rt.depth,
      loops: 0,
    };
    try {
      return fn(sub);
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      if (e instanceof LoopSignal) return 0;
      throw e;
    }
  }

  // ---- commands -------------------------------------------------------------------------------

  private runCommand(cmd: Command, rt: Runtime, io: StdIo): number {
    if (cmd.type === 'simple') return this.runSimple(cmd, rt, io);
    const redirected = this.redirect(cmd.redirects, rt, io);
    if (typeof redirected === 'string') {
      writeTo(io.err, redirected);
      return 1;
    }
    switch (cmd.type) {
      case 'group':
        return cmd.subshell
          ? this.inSubshell(rt, (sub) => this.runList(cmd.body, sub, redirected))
          : this.runList(cmd.body, rt, redirected);
      case 'if': {
        for (const clause of cmd.clauses) {
          if (this.runList(clause.cond, rt, redirected) === 0)
            return this.runList(clause.body, rt, redirected);
        }
        return cmd.otherwise ? this.runList(cmd.otherwise, rt, redirected) : 0;
      }
      case 'for': {
        const ctx = this.expandContext(rt, redirected);
        let items: string[];
        try {
          items = cmd.items.flatMap((w) => expandWordFields(w, ctx));
        } catch (e) {
          return this.expansionFailed(e, rt, redirected);
        }
        return this.loop(rt, items.length, (i) => {
          this.setVar(rt.frame, cmd.name, items[i]!);
          return { proceed: true, status: () => this.runList(cmd.body, rt, redirected) };
        });
      }
      case 'while':
        return this.loop(rt, Infinity, () => {
          const c = this.runList(cmd.cond, rt, redirected);
          const proceed = cmd.until ? c !== 0 : c === 0;
          return { proceed, status: () => this.runList(cmd.body, rt, redirected) };
        });
    }
  }

  private loop(
    rt: Runtime,
    count: number,
    step: (i: number) => { proceed: boolean; status: () => number },
  ): number {
    let status = 0;
    rt.loops++;
    try {
      for (let i = 0; i < count; i++) {
        if (i >= MAX_LOOP_ITERATIONS)
          throw new LimitError(`stopped: a loop ran more than ${MAX_LOOP_ITERATIONS} times`);
        const s = step(i);
        if (!s.proceed) break;
        try {
          status = s.status();
        } catch (e) {
          if (!(e instanceof LoopSignal)) throw e;
          if (e.levels > 1) throw new LoopSignal(e.kind, e.levels - 1);
          if (e.kind === 'break') break;
        }
      }
    } finally {
      rt.loops--;
    }
    return status;
  }

  private runSimple(cmd: SimpleCommand, rt: Runtime, io: StdIo): number {
    if (++this.commands > MAX_COMMANDS)
      throw new LimitError(`stopped: the line ran more than ${MAX_COMMANDS} commands`);
    const ctx = this.expandContext(rt, io);
    let argv: string[];
    const assigns: [string, string, boolean][] = [];
    try {
      argv = this.expandArgv(cmd.words, rt.frame, ctx);
      for (const a of cmd.assigns) {
        const value = expandWord(a.value, ctx);
        assigns.push([a.name, a.append ? (ctx.get(a.name) ?? '') + value : value, a.append]);
      }
    } catch (e) {
      return this.expansionFailed(e, rt, io);
    }
    if (argv.length === 0) {
      for (const [name, value] of assigns) this.setVar(rt.frame, name, value);
      const redirected = this.redirect(cmd.redirects, rt, io);
      if (typeof redirected === 'string') {
        writeTo(io.err, redirected);
        return 1;
      }
      return ctx.substStatus ?? 0;
    }
    const redirected = this.redirect(cmd.redirects, rt, io);
    if (typeof redirected === 'string') {
      writeTo(io.err, redirected);
      return 1;
    }
    const extraEnv: Record<string, string> = {};
    for (const [name, value] of assigns) extraEnv[name] = value;
    return this.execArgv(argv, rt, redirected, extraEnv);
  }

  /** Expands a command's words; the first word may be an alias (only in the session that defined it). */
  private expandArgv(words: readonly Word[], frame: Frame, ctx: ExpandContext): string[] {
    const first = words[0];
    const alias = first && isPlain(first) ? frame.aliases.get(first.raw) : undefined;
    const declaration = first !== undefined && isPlain(first) && DECLARATION_BUILTINS.has(first.raw);
    const out: string[] = [];
    words.forEach((w, i) => {
      if (i === 0 && alias !== undefined) {
        out.push(...splitAlias(alias));
        return;
      }
      // `export A=$B` assigns $B whole, as bash treats declaration arguments like assignments.
      if (declaration && i > 0 && ASSIGN_WORD.test(w.raw)) out.push(expandWord(w, ctx));
      else out.push(...expandWordFields(w, ctx));
    });
    return out;
  }

  private expansionFailed(e: unknown, rt: Runtime, io: StdIo): number {
    if (!(e instanceof ExpansionError)) throw e;
    writeTo(io.err, shellError(rt.frame, e.message));
    if (rt.subshell) throw new ExitSignal(1);
    throw new AbortLine(1);
  }

  /** Runs one command by argv: a builtin, or an external command found for the frame's context. */
  execArgv(argv: readonly string[], rt: Runtime, io: StdIo, extraEnv: Record<string, string> = {}): number {
    const name = argv[0] ?? '';
    const builtin = this.host.builtin(name);
    if (builtin) {
      return builtin(argv, {
        rt,
        io,
        interp: this,
        out: (t) => writeTo(io.out, t),
        err: (t) => writeTo(io.err, t),
      });
    }
    const handler = this.host.lookup(name, rt.frame);
    if (!handler) return this.notFound(argv, rt, io);
    const result = this.callHandler(handler, argv, rt, io, extraEnv);
    if (result.clear && !rt.subshell && io.out.kind === 'buffer' && io.out.buffer === this.host.terminalOut)
      this.host.clear();
    for (const chunk of outputOf(result)) writeTo(chunk.stream === 'stdout' ? io.out : io.err, chunk.text);
    if (result.shows && (result.shows.evenEmpty === true || result[result.shows.stream] !== ''))
      this.deliver(
        result.shows.sightings,
        result.shows.stream === 'stdout' ? io.out : io.err,
        result.shows.evenEmpty === true,
      );
    if (result.job) {
      // At an interactive prompt (not inside a script or `sh -c`) the job outlives the line.
      const lasting = this.host.interactive && !rt.subshell && rt.depth === 0;
      const entry = this.jobs.add(result.job, io, argv.join(' '), rt.frame, lasting);
      if (lasting) writeTo(io.err, `[${entry.number}] ${entry.pid}\n`);
    }
    if (result.enter && !rt.subshell) this.host.enter(result.enter, rt.frame);
    return result.exitCode;
  }

  /**
   * Sightings written to `target`: the terminal has shown them (lines typed at the prompt only; setup
   * lines and checks see nothing); a pipe carries them on; a file or a `$( … )` capture keeps them.
   */
  private deliver(sightings: readonly Sighting[], target: Target, evenEmpty = false): void {
    if (!this.host.interactive || target.kind !== 'buffer' || sightings.length === 0) return;
    const { buffer } = target;
    if (buffer === this.host.terminalOut || buffer === this.host.terminalErr) this.host.saw(sightings);
    else {
      this.carried.set(buffer, [...(this.carried.get(buffer) ?? []), ...sightings]);
      if (evenEmpty) this.carriedEvenEmpty.add(buffer);
    }
  }

  private callHandler(
    handler: CommandHandler,
    argv: readonly string[],
    rt: Runtime,
    io: StdIo,
    extraEnv: Record<string, string>,
  ): CommandResult {
    let stdinText: string | undefined;
    const env: Record<string, string> = {};
    for (const [k, v] of rt.frame.vars) if (v.exported) env[k] = v.value;
    Object.assign(env, extraEnv);
    const frame = rt.frame;
    const interactive = this.host.interactive && !rt.subshell;
    const commandIo: CommandIO = {
      get stdin() {
        stdinText ??= io.stdin.readAll();
        return stdinText;
      },
      env,
      context: frame.context,
      interactive,
      // Only an interactive terminal is a tty; `run(line, {interactive: false})` is like `bash -c` into a pipe.
      tty: interactive && io.out.kind === 'buffer' && io.out.buffer === this.host.terminalOut,
      // A pipeline's elements and `$( … )` run in subshells that still have the line's terminal.
      ...(this.host.interactive ? { terminal: this.terminalOf(io) } : {}),
      files: bindFiles(frame.fs, frame.cwd, frame.home),
      run: (args, stdin) => this.runCaptured(rt, stdin, (sub, subIo) => this.execArgv(args, sub, subIo)),
      ...(this.backgrounded ? { background: true } : {}),
    };
    this.running.push({ rt, io });
    try {
      return handler(argv, commandIo);
    } catch (e) {
      if (
        e instanceof LimitError ||
        e instanceof ExitSignal ||
        e instanceof LoopSignal ||
        e instanceof AbortLine
      )
        throw e;
      const message = e instanceof Error ? e.message : String(e);
      return { stdout: '', stderr: `${argv[0]}: ${message}\n`, exitCode: 1 };
    } finally {
      this.running.pop();
    }
  }

  private notFound(argv: readonly string[], rt: Runtime, io: StdIo): number {
    const name = argv[0] ?? '';
    if (name.includes('/')) {
      const kind = rt.frame.fs.stat(resolveIn(rt.frame, name));
      if (kind === 'dir') {
        writeTo(io.err, shellError(rt.frame, `${name}: Is a directory`));
        return 126;
      }
      if (kind === 'file') {
        const read = rt.frame.fs.read(resolveIn(rt.frame, name));
        // A program no handler stands for here: another root's binary (a node's, under a debug pod's
        // /host), whose dynamic loader this root lacks, so execve fails with ENOENT.
        if ('content' in read && isElfBinary(read.content)) {
          const message =
            rt.frame.flavour === 'bash' ? 'cannot execute: required file not found' : 'not found';
          writeTo(io.err, shellError(rt.frame, `${name}: ${message}`));
          return 127;
        }
        return this.runScriptFile(resolveIn(rt.frame, name), name, argv.slice(1), rt, io);
      }
      writeTo(io.err, shellError(rt.frame, `${name}: ${fileErrorText('ENOENT')}`));
      return 127;
    }
    const message = rt.frame.flavour === 'bash' ? `${name}: command not found` : `${name}: not found`;
    writeTo(io.err, shellError(rt.frame, message));
    return 127;
  }

  // ---- scripts --------------------------------------------------------------------------------

  /** Parses and runs source text in `rt` (source, eval, `sh -c`); syntax errors print and return 2. */
  runSource(source: string, rt: Runtime, io: StdIo): number {
    if (rt.depth >= MAX_SCRIPT_DEPTH)
      throw new LimitError(`stopped: scripts nested more than ${MAX_SCRIPT_DEPTH} deep`);
    let list: List;
    try {
      list = parseProgram(source).list;
    } catch (e) {
      if (!(e instanceof ShellSyntaxError)) throw e;
      writeTo(io.err, syntaxErrorText(e, rt.frame));
      return 2;
    }
    const nested: Runtime = { ...rt, depth: rt.depth + 1 };
    const status = this.runList(list, nested, io);
    rt.frame = nested.frame;
    return status;
  }

  /** `sh FILE` / `./FILE`: the script runs in a child shell, so its `exit` and variables stay there. */
  runScriptFile(path: string, arg0: string, args: readonly string[], rt: Runtime, io: StdIo): number {
    const read = rt.frame.fs.read(path);
    if ('error' in read) {
      writeTo(io.err, shellError(rt.frame, `${path}: ${fileErrorText(read.error)}`));
      return read.error === 'ENOENT' ? 127 : 126;
    }
    return this.inSubshell(rt, (sub) => {
      sub.frame = { ...sub.frame, arg0, args };
      return this.runSource(read.content, sub, io);
    });
  }

  /** Runs something with fresh output buffers and returns what it printed, in order (xargs, `io.run`). */
  /**
   * Runs `fn` with both streams captured. What its output showed travels with the result (`shows`), so a
   * program that relays it (`chroot /host iptables-save`, `docker exec`, `kubectl exec`) shows it too.
   */
  runCaptured(rt: Runtime, stdin: string, fn: (sub: Runtime, io: StdIo) => number): CommandResult {
    const captured = new OutputPair(false);
    const io: StdIo = {
      stdin: new Stdin(stdin),
      out: { kind: 'buffer', buffer: captured.out },
      err: { kind: 'buffer', buffer: captured.err },
    };
    if (rt.depth >= MAX_SCRIPT_DEPTH)
      throw new LimitError(`stopped: commands nested more than ${MAX_SCRIPT_DEPTH} deep`);
    const exitCode = this.inSubshell({ ...rt, depth: rt.depth + 1 }, (sub) => fn(sub, io));
    const onOut = this.carried.get(captured.out);
    const onErr = this.carried.get(captured.err);
    const evenEmpty = this.carriedEvenEmpty.has(captured.out) || this.carriedEvenEmpty.has(captured.err);
    const shows: Shows | undefined = onOut
      ? { stream: 'stdout', sightings: onOut, ...(evenEmpty ? { evenEmpty } : {}) }
      : onErr && { stream: 'stderr', sightings: onErr, ...(evenEmpty ? { evenEmpty } : {}) };
    return { ...captured.result(), exitCode, ...(shows ? { shows } : {}) };
  }

  // ---- expansion and variables ----------------------------------------------------------------

  expandContext(rt: Runtime, io: StdIo): ExpandContext & { substStatus?: number } {
    const frame = rt.frame;
    const ctx: ExpandContext & { substStatus?: number } = {
      get: (name) => this.getVar(rt, name),
      params: () => rt.frame.args ?? [],
      set: (name, value) => this.setVar(rt.frame, name, value),
      substitute: (body) => {
        const out = new OutputBuffer(false);
        // Inherits stdin, as in bash: `echo hi | { x=$(cat); }` reads "hi", `$(stty size)` the tty.
        const subIo: StdIo = { stdin: io.stdin, out: { kind: 'buffer', buffer: out }, err: io.err };
        ctx.substStatus = this.inSubshell(rt, (sub) => this.runList(body, sub, subIo));
        rt.status = ctx.substStatus;
        return out.text();
      },
      home: frame.vars.get('HOME')?.value ?? frame.home,
      cwd: frame.cwd,
      fs: frame.fs,
    };
    return ctx;
  }

  getVar(rt: Runtime, name: string): string | undefined {
    switch (name) {
      case '?':
        return String(rt.status);
      case '$':
        return rt.frame.context.kind === 'host' ? '4242' : '7';
      case '#':
        return String(rt.frame.args?.length ?? 0);
      case '0':
        return rt.frame.arg0 ?? shellName(rt.frame);
      case '-':
        return rt.frame.flavour === 'bash' ? 'himBHs' : 'smi';
      case '!':
        return '';
      case '@':
      case '*':
        return (rt.frame.args ?? []).join(' ');
    }
    if (/^[0-9]+$/.test(name)) return rt.frame.args?.[Number(name) - 1];
    return rt.frame.vars.get(name)?.value;
  }

  setVar(frame: Frame, name: string, value: string, exported?: boolean): void {
    // `x="$x$x$x"` in a loop doubles memory each turn: stop it where a pipe would be stopped.
    if (value.length > MAX_PIPE_BYTES)
      throw new LimitError(`stopped: a variable held more than ${MAX_PIPE_BYTES / 1024 / 1024} MiB`);
    const existing = frame.vars.get(name);
    frame.vars.set(name, { value, exported: exported ?? existing?.exported ?? false });
  }

  // ---- redirections -----------------------------------------------------------------------------

  /** Applies redirections left to right; returns the new streams or the error text bash prints. */
  redirect(redirects: readonly Redirect[], rt: Runtime, io: StdIo): StdIo | string {
    if (redirects.length === 0) return io;
    let { stdin, out, err } = io;
    const frame = rt.frame;
    const ctx = this.expandContext(rt, io);
    for (const r of redirects) {
      let target: string;
      try {
        if (r.heredoc) {
          const body = r.heredoc.body;
          stdin = new Stdin(body === undefined ? '' : r.heredoc.expand ? expandWord(body, ctx) : body.raw);
          continue;
        }
        const fields = r.op === '<<<' ? [expandWord(r.target, ctx)] : expandWordFields(r.target, ctx);
        if (fields.length !== 1) return shellError(frame, `${r.target.raw}: ambiguous redirect`);
        target = fields[0]!;
      } catch (e) {
        if (e instanceof ExpansionError) return shellError(frame, e.message);
        throw e;
      }
      const fd = r.fd ?? (r.op.startsWith('<') ? 0 : 1);
      switch (r.op) {
        case '<<<':
          stdin = new Stdin(`${target}\n`);
          break;
        case '<':
        case '<>': {
          const read = frame.fs.read(resolveIn(frame, target));
          if ('error' in read) {
            if (r.op === '<>' && read.error === 'ENOENT') {
              const e = frame.fs.write(resolveIn(frame, target), '', false);
              if (e) return shellError(frame, `${target}: ${fileErrorText(e)}`);
              stdin = new Stdin('');
              break;
            }
            return shellError(frame, `${target}: ${fileErrorText(read.error)}`);
          }
          if (fd === 0) stdin = new Stdin(read.content);
          break;
        }
        case '>':
        case '>|':
        case '>>':
        case '&>':
        case '&>>': {
          const opened = this.openFile(frame, target, r.op === '>>' || r.op === '&>>');
          if (typeof opened === 'string') return opened;
          if (r.op === '&>' || r.op === '&>>') {
            out = opened;
            err = opened;
          } else if (fd === 1) out = opened;
          else if (fd === 2) err = opened;
          break;
        }
        case '>&':
        case '<&': {
          if (target === '-') break;
          if (/^[0-9]+$/.test(target)) {
            const from = Number(target);
            if (from > 2) return shellError(frame, `${from}: Bad file descriptor`);
            if (fd === 1) out = from === 2 ? err : out;
            else if (fd === 2) err = from === 1 ? out : err;
            break;
          }
          if (r.op === '<&' || r.fd !== undefined) return shellError(frame, `${target}: ambiguous redirect`);
          const opened = this.openFile(frame, target, false);
          if (typeof opened === 'string') return opened;
          out = opened;
          err = opened;
          break;
        }
      }
    }
    return { stdin, out, err };
  }

  private openFile(frame: Frame, target: string, append: boolean): Target | string {
    if (target === '') return shellError(frame, `: ${fileErrorText('ENOENT')}`);
    const path = resolveIn(frame, target);
    if (!append) {
      const e = frame.fs.write(path, '', false);
      if (e) return shellError(frame, `${target}: ${fileErrorText(e)}`);
    } else {
      const e = frame.fs.write(path, '', true);
      if (e) return shellError(frame, `${target}: ${fileErrorText(e)}`);
    }
    return {
      kind: 'file',
      path,
      write: (text) => {
        const e = frame.fs.write(path, text, true);
        if (e) throw new LimitError(`stopped: writing ${target} failed: ${fileErrorText(e)}`);
      },
    };
  }
}

export function resolveIn(frame: Frame, path: string): string {
  return bindFiles(frame.fs, frame.cwd, frame.home).resolve(path);
}

function isPlain(w: Word): boolean {
  return w.parts.length === 1 && w.parts[0]!.type === 'text' && !w.parts[0]!.quoted;
}

/** An alias value as words (quotes honoured, no expansion). */
function splitAlias(value: string): string[] {
  try {
    const list = parseProgram(value).list;
    const cmd = list[0]?.first.commands[0];
    if (cmd?.type === 'simple') {
      return cmd.words.map((w) => w.parts.map((p) => (p.type === 'text' ? p.value : '')).join(''));
    }
  } catch {
    // An alias that does not parse is used as a single word.
  }
  return [value];
}

/** What a target holds so far: a file counts as never growing (what goes there is not seen). */
function bufferLength(target: Target): number {
  return target.kind === 'buffer' ? target.buffer.length : 0;
}
