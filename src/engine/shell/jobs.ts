/**
 * The shell's job table: programs left running by `&` (tcpdump while traffic flows). A job started
 * inside a script or `sh -c` ends with that shell; one started at an interactive prompt lasts across
 * prompt lines, as in bash: `[1] 23` when it starts, what it prints shows after the line that made
 * it print, `jobs` lists it, `kill %1` ends it, and the next prompt says `[1]+  Done …` (or
 * `Killed` for SIGKILL). A lasting job whose session ended (the learner left `kubectl exec -it`) got
 * SIGHUP with the session: it ends without a word.
 */
import { outputOf, type BackgroundJob, type ExecResult } from './types.ts';
import { writeTo, type StdIo } from './streams.ts';
import type { Frame } from './session.ts';

export interface JobEntry {
  readonly number: number;
  readonly pid: number;
  readonly job: BackgroundJob;
  /** Where a script's job writes (its shell's streams); a lasting job writes to the current line. */
  readonly io: StdIo;
  /** The command as `jobs` shows it. */
  readonly text: string;
  readonly frame: Frame;
  readonly lasting: boolean;
}

/** bash's status column: `Running`, `Done`, `Killed`, padded to 24 characters. */
function statusLine(mark: string, e: JobEntry, status: string, running: boolean): string {
  return `[${e.number}]${mark}  ${status.padEnd(24)}${e.text}${running ? ' &' : ''}\n`;
}

function write(io: StdIo, r: ExecResult): void {
  for (const chunk of outputOf(r)) writeTo(chunk.stream === 'stdout' ? io.out : io.err, chunk.text);
}

/** Signals `kill` knows by name or number; the rest are refused as bash refuses an unknown one. */
const SIGNALS: Readonly<Record<string, number>> = { HUP: 1, INT: 2, QUIT: 3, KILL: 9, TERM: 15 };

export function signalNumber(spec: string): number | undefined {
  const name = spec.toUpperCase().replace(/^SIG/, '');
  if (/^\d+$/.test(name)) return Number(name);
  return SIGNALS[name];
}

export class JobTable {
  private entries: JobEntry[] = [];
  private readonly notices: string[] = [];
  private lastPid = 20;

  get size(): number {
    return this.entries.length;
  }

  list(): readonly JobEntry[] {
    return this.entries;
  }

  /** `+` for the current job (the newest), `-` for the one before, as `jobs` marks them. */
  mark(e: JobEntry): string {
    const i = this.entries.indexOf(e);
    const n = this.entries.length;
    return i === n - 1 ? '+' : i === n - 2 ? '-' : ' ';
  }

  add(job: BackgroundJob, io: StdIo, text: string, frame: Frame, lasting: boolean): JobEntry {
    const number = Math.max(0, ...this.entries.map((e) => e.number)) + 1;
    const entry: JobEntry = { number, pid: ++this.lastPid, job, io, text, frame, lasting };
    this.entries.push(entry);
    return entry;
  }

  /** `%N`, `%%`, `%+`, `%-`, `%name` (a prefix of the command), or a job's PID. */
  find(spec: string): JobEntry | undefined {
    if (!spec.startsWith('%')) return this.entries.find((e) => String(e.pid) === spec);
    const rest = spec.slice(1);
    if (rest === '' || rest === '%' || rest === '+') return this.entries[this.entries.length - 1];
    if (rest === '-') return this.entries[this.entries.length - 2];
    if (/^\d+$/.test(rest)) return this.entries.find((e) => e.number === Number(rest));
    return this.entries.find((e) => e.text.startsWith(rest));
  }

  /** Ends a job by a signal: what it printed goes out now, its notice before the next prompt. */
  kill(e: JobEntry, signal: number, io: StdIo): void {
    const mark = this.mark(e);
    this.entries = this.entries.filter((x) => x !== e);
    const r = e.job.finish();
    // SIGKILL leaves the program no chance to print its summary.
    if (signal !== 9) write(e.lasting ? io : e.io, r);
    if (e.lasting) this.notices.push(statusLine(mark, e, signal === 9 ? 'Killed' : 'Done', false));
  }

  /** Ends the jobs from index `from` on (a script's shell ending, or `wait`); the last one's status. */
  finishFrom(from: number, io?: StdIo): number {
    let status = 0;
    for (const e of this.entries.splice(from)) {
      const r = e.job.finish();
      write(e.lasting && io ? io : e.io, r);
      status = r.exitCode;
    }
    return status;
  }

  /**
   * The end of an interactive line: scripts' jobs end; lasting ones show what they printed meanwhile,
   * those that ended by themselves (tcpdump's `-c`) are reported Done, and those whose session is gone
   * end silently. Then the notices, as bash prints them before the prompt.
   */
  settle(io: StdIo, liveFrames: readonly Frame[]): void {
    const lasting = this.entries.filter((e) => e.lasting);
    const scripts = this.entries.filter((e) => !e.lasting);
    this.entries = [];
    for (const e of scripts) write(e.io, e.job.finish());
    for (const e of lasting) {
      if (!liveFrames.includes(e.frame)) {
        e.job.finish();
        continue;
      }
      const progress = e.job.poll?.();
      if (progress) write(io, progress.output);
      if (progress?.done) {
        write(io, e.job.finish());
        this.notices.push(statusLine(this.markAmong(lasting, e), e, 'Done', false));
      } else this.entries.push(e);
    }
    for (const n of this.notices.splice(0)) writeTo(io.err, n);
  }

  /**
   * `wait` at an interactive prompt: jobs that have ended are collected; one that would run on (a
   * capture with no `-c`) would block the prompt until Ctrl-C, which a simulated terminal cannot
   * offer, so the shell says so and returns as Ctrl-C leaves `wait` (status 130), the job still running.
   */
  waitInteractive(io: StdIo): number {
    let status = 0;
    const remaining: JobEntry[] = [];
    for (const e of this.entries) {
      const progress = e.job.poll?.();
      if (progress) write(io, progress.output);
      if (!e.lasting || progress?.done) {
        const r = e.job.finish();
        write(io, r);
        status = r.exitCode;
      } else remaining.push(e);
    }
    this.entries = remaining;
    if (remaining.length === 0) return status;
    const first = remaining[0]!;
    writeTo(
      io.err,
      `packetpath: wait would block until %${first.number} (${first.text}) ends, as it has no count to reach; stop it with kill %${first.number}\n`,
    );
    return 130;
  }

  private markAmong(list: readonly JobEntry[], e: JobEntry): string {
    const i = list.indexOf(e);
    return i === list.length - 1 ? '+' : i === list.length - 2 ? '-' : ' ';
  }

  /** What `jobs` prints. */
  listing(): string {
    return this.entries.map((e) => statusLine(this.mark(e), e, 'Running', true)).join('');
  }

  /** Drops every job without a word (the shell was restored or reset). */
  clear(): void {
    for (const e of this.entries) e.job.finish();
    this.entries = [];
    this.notices.length = 0;
  }
}
