/** What a subcommand needs from its host: output streams and the working directory (so tests can capture them). */
export interface CliIO {
  readonly cwd: string;
  out(text: string): void;
  err(text: string): void;
}

export const processIO: CliIO = {
  cwd: process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};
