/**
 * Command-line parsing for `packetpath`: `packetpath <command> [flags] [-- LINE]`, flags as `--name
 * VALUE` or `--name=VALUE`. Bad input is a UsageError (printed with a hint, exit 2), never a throw
 * out of the CLI.
 */

export class UsageError extends Error {}

export interface ParsedArgs {
  readonly command: string | undefined;
  readonly flags: ReadonlyMap<string, string>;
  /** Words after `--` (the shell line for `exec`). */
  readonly rest: readonly string[];
  readonly help: boolean;
}

/** Which flags each command accepts; every flag takes a value. */
export const COMMAND_FLAGS: Readonly<Record<string, readonly string[]>> = {
  shell: ['cluster', 'lab', 'seed', 'variant', 'locale', 'report', 'learner'],
  exec: ['state', 'cluster', 'seed'],
  serve: ['cluster', 'lab', 'variant', 'seed', 'state', 'port', 'kubeconfig', 'clock'],
  help: [],
};

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string>();
  let command: string | undefined;
  let help = false;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      rest.push(...argv.slice(i + 1));
      break;
    }
    if (a === '-h' || a === '--help') {
      help = true;
      continue;
    }
    if (a.startsWith('-')) {
      const m = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(a);
      const allowed = command === undefined ? [] : (COMMAND_FLAGS[command] ?? []);
      if (!m || !allowed.includes(m[1]!)) {
        throw new UsageError(
          command === undefined ? `unknown flag: ${a}` : `unknown flag for "${command}": ${a}`,
        );
      }
      const value = m[2] ?? argv[++i];
      if (value === undefined) throw new UsageError(`flag needs an argument: --${m[1]}`);
      flags.set(m[1]!, value);
      continue;
    }
    if (command === undefined) {
      if (!(a in COMMAND_FLAGS)) throw new UsageError(`unknown command "${a}"`);
      command = a;
      continue;
    }
    rest.push(a);
  }
  return { command, flags, rest, help };
}

export function parseSeed(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value))
    throw new UsageError(`invalid value "${value}" for --seed: must be a whole number`);
  return Number(value);
}
