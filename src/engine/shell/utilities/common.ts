/**
 * Shared pieces of the coreutils-like utilities: GNU-style option parsing (clustered short options,
 * `-n5`/`-n 5`, `--long[=value]`, `--` ends options, operands may come before options), reading
 * FILE operands or stdin, and the GNU error wording (`cat: x: No such file or directory`).
 */
import type { CommandIO, CommandResult } from '../types.ts';
import { fileErrorText } from '../vfs.ts';

export interface OptionSpec {
  /** Short options without a value. */
  readonly flags?: string;
  /** Short options that take a value. */
  readonly values?: string;
  /** Long option → short letter it means (a `=` suffix on the key: it takes a value). */
  readonly long?: Readonly<Record<string, string>>;
  /** Options end at the first operand (xargs, env: the rest is a command). */
  readonly stopAtOperand?: boolean;
  /** Lets a numeric `-5` mean `-n 5` (head, tail). */
  readonly numericShort?: string;
}

export interface ParsedOptions {
  readonly opts: Map<string, string[]>;
  readonly operands: string[];
}

export class UsageError extends Error {}

export function parseOptions(args: readonly string[], spec: OptionSpec): ParsedOptions {
  const opts = new Map<string, string[]>();
  const operands: string[] = [];
  const add = (k: string, v: string) => opts.set(k, [...(opts.get(k) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && spec.long) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const key = Object.keys(spec.long).find((k) => k.replace(/=$/, '') === name);
      if (key === undefined) throw new UsageError(`unrecognized option '${a}'`);
      const short = spec.long[key]!;
      if (key.endsWith('=')) {
        const v = eq >= 0 ? a.slice(eq + 1) : args[++i];
        if (v === undefined) throw new UsageError(`option '--${name}' requires an argument`);
        add(short, v);
      } else add(short, '');
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      if (spec.numericShort && /^-\d+$/.test(a)) {
        add(spec.numericShort, a.slice(1));
        continue;
      }
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (spec.values?.includes(c)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) throw new UsageError(`option requires an argument -- '${c}'`);
          add(c, v);
          break;
        }
        if (!spec.flags?.includes(c)) throw new UsageError(`invalid option -- '${c}'`);
        add(c, '');
      }
      continue;
    }
    operands.push(a);
    if (spec.stopAtOperand) {
      operands.push(...args.slice(i + 1));
      break;
    }
  }
  return { opts, operands };
}

/** GNU's reaction to a bad option: the problem, then where to get help; exit 1 (grep: 2). */
export function usageFailure(name: string, e: UsageError, usage: string, code = 1): CommandResult {
  return {
    stdout: '',
    stderr: `${name}: ${e.message}\n${usage ? `Usage: ${name} ${usage}\n` : ''}Try '${name} --help' for more information.\n`,
    exitCode: code,
  };
}

/** Runs a utility body, turning a UsageError into GNU's usage message. */
export function withUsage(
  name: string,
  usage: string,
  code: number,
  body: () => CommandResult,
): CommandResult {
  try {
    return body();
  } catch (e) {
    if (e instanceof UsageError) return usageFailure(name, e, usage, code);
    throw e;
  }
}

export interface InputText {
  readonly name: string;
  readonly text: string;
}

/** The text of each FILE operand (`-` or none: stdin); errors are GNU-worded lines. */
export function readInputs(
  cmd: string,
  io: CommandIO,
  operands: readonly string[],
): { inputs: InputText[]; errors: string } {
  const inputs: InputText[] = [];
  let errors = '';
  const names = operands.length === 0 ? ['-'] : operands;
  for (const name of names) {
    if (name === '-') {
      inputs.push({ name: '-', text: io.stdin });
      continue;
    }
    const read = io.files?.read(name) ?? { error: 'ENOENT' as const };
    if ('error' in read) errors += `${cmd}: ${name}: ${fileErrorText(read.error)}\n`;
    else inputs.push({ name, text: read.content });
  }
  return { inputs, errors };
}

/** Lines of a text; a missing final newline still ends a line (as GNU tools treat it). */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export function result(stdout: string, stderr = '', exitCode = stderr === '' ? 0 : 1): CommandResult {
  return { stdout, stderr, exitCode };
}
