/**
 * Standard input and output as the interpreter passes them around. A command's stdin is a cursor
 * over text so that `while read line` consumes one line per iteration; outputs are buffers (the
 * terminal, a pipe, a command substitution) or files opened by a redirection.
 */
import { LimitError, MAX_PIPE_BYTES, MAX_TERMINAL_OUTPUT, OUTPUT_TRUNCATED_NOTICE } from './limits.ts';

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

export const EMPTY_STDIN_TEXT = '';

export class OutputBuffer {
  private chunks: string[] = [];
  private size = 0;
  truncated = false;
  private readonly terminal: boolean;

  /** A terminal buffer truncates; a pipe buffer stops the line when it overflows. */
  constructor(terminal: boolean) {
    this.terminal = terminal;
  }

  write(text: string): void {
    if (text === '' || this.truncated) return;
    const limit = this.terminal ? MAX_TERMINAL_OUTPUT : MAX_PIPE_BYTES;
    if (this.size + text.length > limit) {
      if (!this.terminal)
        throw new LimitError(`stopped: a pipe carried more than ${MAX_PIPE_BYTES / 1024 / 1024} MiB`);
      this.chunks.push(text.slice(0, limit - this.size));
      this.size = limit;
      this.truncated = true;
      return;
    }
    this.chunks.push(text);
    this.size += text.length;
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
