/**
 * Bounds on everything a line can make the shell do. The engine runs synchronously in a Web Worker:
 * a runaway loop or a redirect that doubles a file must end with a clear message, never a hang.
 */

/** Longest input accepted in one `run()` (a pasted manifest with a heredoc fits easily). */
export const MAX_INPUT_CHARS = 1024 * 1024;
/** What a line may print to the terminal; the rest is cut with OUTPUT_TRUNCATED_NOTICE. */
export const MAX_TERMINAL_OUTPUT = 1024 * 1024;
export const OUTPUT_TRUNCATED_NOTICE = '\n…output truncated\n';
/** What one pipe or command substitution may carry before the line is stopped. */
export const MAX_PIPE_BYTES = 16 * 1024 * 1024;
/** Iterations of a single `for`/`while` loop. */
export const MAX_LOOP_ITERATIONS = 10_000;
/** Simple commands one line may run in total (loops, xargs, nested scripts). */
export const MAX_COMMANDS = 100_000;
/** Nested scripts (`sh -c`, `source`, `eval`, xargs) before the shell refuses to go deeper. */
export const MAX_SCRIPT_DEPTH = 16;
/** Commands kept by `history`. */
export const MAX_HISTORY = 1000;
/** Simulated time one `sleep` may take (a real sleep would hold the terminal; we cannot Ctrl+C). */
export const MAX_SLEEP_SECONDS = 3600;

/** Stops the whole line: the reason is printed on stderr, prefixed `packetpath:`. */
export class LimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitError';
  }
}
