/**
 * Standard input and output as the interpreter passes them around. A command's stdin is a cursor
 * over text so that `while read line` consumes one line per iteration; outputs are buffers (the
 * terminal, a pipe, a command substitution) or files opened by a redirection.
 */
import { LimitError, MAX_PIPE_BYTES, MAX_TERMINAL_OUTPUT, OUTPUT_TRUNCATED_NOTICE } from './limits.ts';
import { Transcript, type OutputChunk } from './types.ts';

export class Stdin {
  private readonly text: string;
  private pos = 0;

  constructor(text: string) {
    this.text = text;
  }

  /** Everything not read yet (a command that reads its input reads it all). */
  readAll(): string {
    const rest = this.text.slice(this.pos);
    this.pos = this.text.length;
    return rest;
  }

  /** One line without its newline; undefined at end of input. */
  readLine(): { line: string; complete: boolean } | undefined {
    if (this.pos >= this.text.length) return undefined;
    const nl = this.text.indexOf('\n', this.pos);
    const end = nl < 0 ? this.text.length : nl;
    const line = this.text.slice(this.pos, end);
    this.pos = nl < 0 ? this.text.length : nl + 1;
    return { line, complete: nl >= 0 };
  }
}

export class OutputBuffer {
  private chunks: string[] = [];
  private size = 0;
  truncated = false;
  private readonly terminal: boolean;
  private readonly tap: ((text: string) => void) | undefined;

  /**
   * A terminal buffer truncates; a pipe buffer stops the line when it overflows. `tap` sees every
   * write the buffer keeps, so two buffers can share one ordered transcript.
   */
  constructor(terminal: boolean, tap?: (text: string) => void) {
    this.terminal = terminal;
    this.tap = tap;
  }

  write(text: string): void {
    if (text === '' || this.truncated) return;
    const limit = this.terminal ? MAX_TERMINAL_OUTPUT : MAX_PIPE_BYTES;
    if (this.size + text.length > limit) {
      if (!this.terminal)
        throw new LimitError(`stopped: a pipe carried more than ${MAX_PIPE_BYTES / 1024 / 1024} MiB`);
      const kept = text.slice(0, limit - this.size);
      this.chunks.push(kept);
      this.tap?.(kept);
      this.size = limit;
      this.truncated = true;
      return;
    }
    this.chunks.push(text);
    this.tap?.(text);
    this.size += text.length;
  }

  /** Characters written so far (a command that wrote nothing leaves it unchanged). */
  get length(): number {
    return this.size;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.truncated = false;
  }

  text(): string {
    const joined = this.chunks.join('');
    this.chunks = [joined];
    return joined + (this.truncated ? OUTPUT_TRUNCATED_NOTICE : '');
  }
}

/**
 * A pair of stdout/stderr buffers that also keep the order of their writes: the terminal of one
 * line, or what `runCaptured` hands back. `clear` empties both (a cleared screen shows neither).
 */
export class OutputPair {
  readonly out: OutputBuffer;
  readonly err: OutputBuffer;
  private readonly transcript = new Transcript();

  constructor(terminal: boolean) {
    this.out = new OutputBuffer(terminal, (t) => this.transcript.write('stdout', t));
    this.err = new OutputBuffer(terminal, (t) => this.transcript.write('stderr', t));
  }

  clear(): void {
    this.out.clear();
    this.err.clear();
    this.transcript.clear();
  }

  /** Both texts and the ordered chunks (once, at the end): a truncation notice comes last. */
  result(): { stdout: string; stderr: string; output?: OutputChunk[] } {
    const stdout = this.out.text();
    const stderr = this.err.text();
    if (this.out.truncated) this.transcript.write('stdout', OUTPUT_TRUNCATED_NOTICE);
    if (this.err.truncated) this.transcript.write('stderr', OUTPUT_TRUNCATED_NOTICE);
    const output = this.transcript.order();
    return { stdout, stderr, ...(output ? { output } : {}) };
  }
}

export type Target =
  | { readonly kind: 'buffer'; readonly buffer: OutputBuffer }
  | { readonly kind: 'file'; readonly path: string; readonly write: (text: string) => void };

export interface StdIo {
  readonly stdin: Stdin;
  readonly out: Target;
  readonly err: Target;
}

export function writeTo(target: Target, text: string): void {
  if (text === '') return;
  if (target.kind === 'buffer') target.buffer.write(text);
  else target.write(text);
}
