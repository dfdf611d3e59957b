/**
 * The learner's shell: one `run()` per line (or pasted block) typed at the terminal. It keeps the
 * history, the session stack (host → `kubectl exec -it` pod → nested `bash`…), and hands every
 * command to a builtin, the command registry (`CommandResolver`) or its own utilities. `run()` never
 * throws: every failure comes back as stderr and an exit code worded like bash (or ash/dash in pods).
 */
import type { LabFiles } from './lab-files.ts';
import type {
  CommandHandler,
  CommandResolver,
  CommandResult,
  ExecResult,
  SessionContext,
  ShellFlavour,
  TerminalSize,
  Sighting,
} from './types.ts';
import { MAX_TERMINAL_CELLS } from './types.ts';
import {
  AbortLine,
  ExitSignal,
  Interpreter,
  type Builtin,
  type InterpreterHost,
  type Runtime,
} from './interpreter.ts';
import { createBuiltins } from './builtins.ts';
import { createPrograms } from './programs.ts';
import { TEXT_UTILITIES } from './utilities/index.ts';
import { parseProgram, ShellSyntaxError } from './parser.ts';
import { syntaxErrorText } from './syntax-errors.ts';
import { LimitError, MAX_HISTORY, MAX_INPUT_CHARS } from './limits.ts';
import { OutputBuffer, OutputPair, Stdin, type StdIo } from './streams.ts';
import {
  applyFrameState,
  frameState,
  hostCommandPath,
  hostFrame,
  promptFor,
  sessionFrame,
  shellError,
  subshellOf,
  type Frame,
  type FrameState,
} from './session.ts';
import { completeLine, type Completion } from './completion.ts';
import { isPlainObject } from '../util/json.ts';

export interface ShellOptions {
  readonly resolve: CommandResolver;
  readonly files: LabFiles;
  /** Advances the cluster's simulated clock (`sleep`). */
  readonly tick: (ms: number) => void;
  /** Told what a typed line's output showed on the terminal (sightings.ts). */
  readonly onSight?: (line: string, sightings: readonly Sighting[]) => void;
}

export const SHELL_STATE_VERSION = 1;

/** Plain JSON: survives `JSON.stringify` inside a cluster snapshot. */
export interface ShellState {
  readonly version: typeof SHELL_STATE_VERSION;
  readonly history: readonly string[];
  /** The session stack, host first. */
  readonly sessions: readonly FrameState[];
  /** `$?` of the last line. */
  readonly status: number;
}

export type { Completion };

export class Shell {
  private readonly resolver: CommandResolver;
  private readonly files: LabFiles;
  private readonly tick: (ms: number) => void;
  private frames: Frame[];
  private historyList: string[] = [];
  private status = 0;
  private interactive = false;
  private terminal: OutputPair | undefined;
  private terminalIn: Stdin | undefined;
  /** The terminal's size, once the terminal reported one (`setTerminalSize`): a pty's winsize. */
  private size: TerminalSize | undefined;
  private clearRequested = false;
  /** The line being run, as history records it. */
  private line = '';
  private readonly interp: Interpreter;
  private readonly builtins: ReadonlyMap<string, Builtin>;
  private readonly programs: ReadonlyMap<string, CommandHandler>;

  constructor(opts: ShellOptions) {
    this.resolver = opts.resolve;
    this.files = opts.files;
    this.tick = opts.tick;
    this.frames = [hostFrame(opts.files)];
    const self = this;
    const host: InterpreterHost = {
      get interactive() {
        return self.interactive;
      },
      get terminalOut() {
        return self.terminal?.out;
      },
      get terminalErr() {
        return self.terminal?.err;
      },
      get terminalIn() {
        return self.terminalIn;
      },
      get terminalSize() {
        return self.size;
      },
      saw: (sightings) => opts.onSight?.(this.line, sightings),
      builtin: (name) => this.builtins.get(name),
      lookup: (name, frame) => this.lookup(name, frame),
      enter: (enter, from) => this.enter(enter, from),
      clear: () => {
        this.terminal?.clear();
        this.clearRequested = true;
      },
    };
    this.interp = new Interpreter(host);
    this.builtins = createBuiltins({
      history: () => this.historyList,
      clearHistory: () => {
        this.historyList = [];
      },
      commandPath: (name, frame) => this.commandPath(name, frame),
      utilityNames: (frame) =>
        this.commandNames(frame).filter((n) => !this.builtins.has(n) && !frame.aliases.has(n)),
    });
    this.programs = createPrograms({
      interp: this.interp,
      tick: (ms) => this.tick(ms),
      flavourOf: (program, frame) => this.flavourOf(program, frame),
      commandPath: (name, frame) => this.commandPath(name, frame),
    });
  }

  /** Runs one line (or a pasted block of lines) as typed at the prompt. */
  run(line: string, opts: { interactive: boolean } = { interactive: false }): ExecResult {
    this.interactive = opts.interactive;
    this.clearRequested = false;
    if (typeof line !== 'string') line = String(line);
    if (line.length > MAX_INPUT_CHARS) {
      this.status = 2;
      return {
        stdout: '',
        stderr: `packetpath: input longer than ${MAX_INPUT_CHARS} characters\n`,
        exitCode: 2,
      };
    }
    this.record(line);
    this.line = line.replace(/\n+$/, '');
    const terminal = new OutputPair(true);
    const { out, err } = terminal;
    this.terminal = terminal;
    this.interp.reset();
    const io: StdIo = {
      stdin: (this.terminalIn = new Stdin('')),
      out: { kind: 'buffer', buffer: out },
      err: { kind: 'buffer', buffer: err },
    };
    let logout = false;
    try {
      const parsed = parseProgram(line);
      for (const w of parsed.heredocWarnings) {
        err.write(
          shellError(
            this.top(),
            `warning: here-document at line ${w.line} delimited by end-of-file (wanted \`${w.delimiter}')`,
          ),
        );
      }
      for (const item of parsed.list) {
        const frame = this.liveTop(err);
        const rt: Runtime = { frame, subshell: false, status: this.status, depth: 0, loops: 0 };
        try {
          this.status = this.interp.runAndOr(item, rt, io);
        } catch (e) {
          if (e instanceof AbortLine) {
            this.status = e.code;
            break;
          }
          if (!(e instanceof ExitSignal)) throw e;
          logout = this.exitSession(e.code, out, err);
          // The host shell cannot really end: after `logout` the rest of the line is dropped.
          if (logout) break;
        }
      }
      // Jobs of scripts end with them; a job started at an interactive prompt lasts (see jobs.ts).
      this.interp.jobs.settle(io, this.frames);
    } catch (e) {
      if (e instanceof ShellSyntaxError) {
        err.write(syntaxErrorText(e, this.top()));
        this.status = 2;
      } else if (e instanceof LimitError) {
        err.write(`packetpath: ${e.message}\n`);
        this.status = 1;
      } else if (e instanceof RangeError && /Invalid string length|Invalid array length/.test(e.message)) {
        // A word expanded past what JavaScript can hold (`"$x$x$x"` of a huge $x): a limit, not a bug.
        err.write('packetpath: stopped: a value grew larger than the lab shell can hold\n');
        this.status = 1;
      } else {
        err.write(`packetpath: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
        this.status = 1;
      }
    } finally {
      this.terminal = undefined;
      this.terminalIn = undefined;
    }
    return {
      ...terminal.result(),
      exitCode: this.status,
      ...(this.clearRequested ? { clear: true } : {}),
      ...(logout ? { logout: true } : {}),
    };
  }

  /**
   * Runs one command by argv in a context without opening a session: what `kubectl exec POD -- CMD`
   * needs. undefined when the command does not exist there (kubectl words that error itself).
   */
  execIn(context: SessionContext, argv: readonly string[], stdin = ''): CommandResult | undefined {
    const name = argv[0];
    if (name === undefined) return undefined;
    let frame: Frame;
    if (context.kind === 'host') frame = subshellOf(this.frames[0]!);
    else {
      const env = this.resolver.environment?.(context);
      if (!env) return undefined;
      frame = sessionFrame(context, env);
    }
    if (!this.builtins.has(name) && !this.lookup(name, frame)) return undefined;
    const saved = this.terminal;
    this.terminal = undefined;
    try {
      const rt: Runtime = { frame, subshell: true, status: 0, depth: 0, loops: 0 };
      return this.interp.runCaptured(rt, stdin, (sub, io) => this.interp.execArgv(argv, sub, io));
    } catch (e) {
      if (e instanceof LimitError) return { stdout: '', stderr: `packetpath: ${e.message}\n`, exitCode: 1 };
      return {
        stdout: '',
        stderr: `packetpath: internal error: ${e instanceof Error ? e.message : String(e)}\n`,
        exitCode: 1,
      };
    } finally {
      this.terminal = saved;
    }
  }

  prompt(): string {
    return promptFor(this.top());
  }

  /** The prompt bash shows while a line is incomplete (PS2). */
  continuationPrompt(): string {
    return '> ';
  }

  history(): string[] {
    return [...this.historyList];
  }

  context(): SessionContext {
    return this.top().context;
  }

  /** Tab completion for `line` with the cursor at `cursor`. */
  completions(line: string, cursor: number = line.length): Completion {
    try {
      const frame = this.top();
      return completeLine(line, cursor, {
        frame,
        commandNames: () => this.commandNames(frame),
        complete: (argv, current) => this.resolver.complete?.(argv, current, frame.context),
      });
    } catch {
      return { start: cursor, end: cursor, candidates: [] };
    }
  }

  /** The shell's implementation of a standard program (for the command registry's pod tables). */
  utility(name: string): CommandHandler | undefined {
    return this.programs.get(name) ?? TEXT_UTILITIES.get(name);
  }

  state(): ShellState {
    return {
      version: SHELL_STATE_VERSION,
      history: [...this.historyList],
      sessions: this.frames.map(frameState),
      status: this.status,
    };
  }

  /** Restores `state()` output; anything malformed falls back to a fresh host shell. */
  restore(state: ShellState | unknown): void {
    this.interp.jobs.clear();
    this.frames = [hostFrame(this.files)];
    this.historyList = [];
    this.status = 0;
    if (!isPlainObject(state) || state.version !== SHELL_STATE_VERSION) return;
    try {
      const s = state as unknown as ShellState;
      if (Array.isArray(s.history))
        this.historyList = s.history.filter((h): h is string => typeof h === 'string').slice(-MAX_HISTORY);
      if (typeof s.status === 'number' && Number.isInteger(s.status)) this.status = s.status;
      if (!Array.isArray(s.sessions) || s.sessions.length === 0) return;
      const [hostState, ...rest] = s.sessions;
      const host = hostFrame(
        this.files,
        Array.isArray(hostState?.dirs)
          ? (hostState.dirs as unknown[]).filter((d): d is string => typeof d === 'string')
          : [],
      );
      if (isFrameState(hostState)) applyFrameState(host, hostState);
      this.frames = [host];
      for (const fs of rest) {
        if (!isFrameState(fs) || fs.context.kind === 'host') break;
        const env = this.resolver.environment?.(fs.context);
        if (!env) break;
        const frame = {
          ...sessionFrame(fs.context, env, { overlay: fs.overlay, dirs: fs.dirs }),
          nested: fs.nested === true,
        };
        applyFrameState(frame, fs);
        this.frames.push(frame);
      }
    } catch {
      this.frames = [hostFrame(this.files)];
    }
  }

  // ---- internals ---------------------------------------------------------------------------------

  private top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  private record(line: string): void {
    const entry = line.replace(/\n+$/, '');
    if (entry.trim() === '') return;
    this.historyList.push(entry);
    if (this.historyList.length > MAX_HISTORY)
      this.historyList.splice(0, this.historyList.length - MAX_HISTORY);
  }

  /** The top frame, after ending sessions whose pod or node went away (kubectl reports exit 137). */
  private liveTop(err: OutputBuffer): Frame {
    while (this.frames.length > 1) {
      const frame = this.top();
      if (this.resolver.environment?.(frame.context)) break;
      this.frames.pop();
      frame.onExit?.(137);
      if (!frame.nested) {
        err.write('command terminated with exit code 137\n');
        this.status = 137;
      }
    }
    return this.top();
  }

  /** `exit N` at a session's top level: leave the session (or say `logout` on the host). */
  private exitSession(code: number, out: OutputBuffer, err: OutputBuffer): boolean {
    const frame = this.top();
    if (this.frames.length === 1) {
      err.write('logout\n');
      this.status = code;
      return true;
    }
    this.frames.pop();
    if (frame.flavour === 'bash') err.write('exit\n');
    // What the command that opened the session prints once it ends (kubectl run --rm: the deletion).
    const said = frame.onExit?.(code);
    if (typeof said === 'object') {
      out.write(said.stdout);
      err.write(said.stderr);
      this.status = said.exitCode;
      return false;
    }
    if (said) out.write(said);
    if (!frame.nested && code !== 0) err.write(`command terminated with exit code ${code}\n`);
    this.status = code;
    return false;
  }

  /**
   * The terminal's new size (the pty's TIOCSWINSZ and the SIGWINCH that follows): what `stty size` and
   * `tput cols` read, and bash's `$COLUMNS` and `$LINES` (checkwinsize, on by default), in every bash
   * session open and in those opened later. Out-of-range sizes are ignored.
   */
  setTerminalSize(size: TerminalSize): void {
    const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_TERMINAL_CELLS;
    if (!ok(size.cols) || !ok(size.rows)) return;
    this.size = { cols: size.cols, rows: size.rows };
    for (const frame of this.frames) this.applyWindowSize(frame);
  }

  /** bash sets COLUMNS and LINES as shell variables, not exported (`env` does not list them). */
  private applyWindowSize(frame: Frame): void {
    if (!this.size || frame.flavour !== 'bash') return;
    for (const [name, n] of [
      ['COLUMNS', this.size.cols],
      ['LINES', this.size.rows],
    ] as const)
      frame.vars.set(name, { value: String(n), exported: frame.vars.get(name)?.exported ?? false });
  }

  private enter(enter: NonNullable<CommandResult['enter']>, from: Frame): void {
    if (this.frames.length >= 16) return;
    const nested = from.context.kind !== 'host' || enter.kind === 'host';
    if (enter.kind === 'host') {
      const frame = { ...subshellOf(from), nested: true, onExit: enter.onExit };
      frame.vars.set('SHLVL', {
        value: String(Number(frame.vars.get('SHLVL')?.value ?? '1') + 1),
        exported: true,
      });
      this.frames.push(frame);
      return;
    }
    const env = this.resolver.environment?.(enter);
    if (!env) return;
    const frame = { ...sessionFrame(enter, env), nested };
    this.applyWindowSize(frame);
    this.frames.push(frame);
  }

  private lookup(name: string, frame: Frame): CommandHandler | undefined {
    if (name === '') return undefined;
    const resolved = this.resolver(name, frame.context);
    if (resolved) return resolved;
    if (frame.context.kind === 'host') return this.utility(name);
    return undefined;
  }

  private commandPath(name: string, frame: Frame): string | undefined {
    if (!this.lookup(name, frame)) return undefined;
    if (frame.context.kind === 'host') return hostCommandPath(name);
    return frame.commandPath?.(name) ?? `/bin/${name}`;
  }

  private flavourOf(program: string, frame: Frame): ShellFlavour {
    if (frame.context.kind === 'host') return program === 'bash' ? 'bash' : 'dash';
    const env = this.resolver.environment?.({ ...frame.context, shell: program } as SessionContext);
    return env?.flavour ?? (program === 'bash' ? 'bash' : 'ash');
  }

  private commandNames(frame: Frame): string[] {
    const names = new Set<string>([...this.builtins.keys(), ...frame.aliases.keys()]);
    if (frame.context.kind === 'host') {
      for (const n of [...this.programs.keys(), ...TEXT_UTILITIES.keys()]) names.add(n);
    }
    for (const n of this.resolver.names?.(frame.context) ?? []) names.add(n);
    return [...names].sort();
  }
}

function isFrameState(v: unknown): v is FrameState {
  if (!isPlainObject(v)) return false;
  const ctx = v.context;
  if (!isPlainObject(ctx) || typeof ctx.kind !== 'string') return false;
  if (
    ctx.kind === 'pod' &&
    (typeof ctx.namespace !== 'string' || typeof ctx.pod !== 'string' || typeof ctx.container !== 'string')
  )
    return false;
  if (ctx.kind === 'node' && typeof ctx.node !== 'string') return false;
  if (!['host', 'pod', 'node'].includes(ctx.kind)) return false;
  return (
    Array.isArray(v.vars) &&
    v.vars.every(
      (e) =>
        Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string' && typeof e[2] === 'boolean',
    ) &&
    typeof v.cwd === 'string' &&
    isPlainObject(v.aliases) &&
    Object.values(v.aliases).every((a) => typeof a === 'string') &&
    Array.isArray(v.dirs) &&
    isPlainObject(v.overlay)
  );
}

/** True when `text` needs more lines to be a complete command (the terminal shows `> ` then). */
export function needsMoreInput(text: string): boolean {
  try {
    return parseProgram(text).heredocWarnings.length > 0 || /(^|[^\\])(\\\\)*\\$/.test(text);
  } catch (e) {
    return e instanceof ShellSyntaxError && e.incomplete;
  }
}
