/**
 * kubectl for the simulated cluster. `createKubectl(cluster)` returns the CommandHandler the shell
 * registers as `kubectl`. Command lookup, help and flag errors follow cobra: global flags may come
 * before the command, `kubectl` alone prints the top-level help, unknown commands get cobra's "Did
 * you mean this?" suggestions, unknown flags `error: unknown flag: --foo` + `See '… --help' for usage.`
 * Nothing thrown inside a command escapes: errors print as `cmdutil.CheckErr` prints them.
 */
import type { CommandHandler, CommandIO, CommandResult } from '../shell/types.ts';
import { KubectlContext } from './context.ts';
import { errorText, KubectlError } from './errors.ts';
import { StatusError } from '../api/errors.ts';
import { FlagError, flagsFor, parseFlags, type FlagSpec } from './flags.ts';
import { HELP_TEXTS } from './help-texts.ts';
import type { KubectlHooks, KubectlHost } from './host.ts';
import { ALIASES, COMMANDS, PARENTS, TOP_LEVEL_ORDER, type CommandRun } from './commands/registry.ts';

export type { KubectlHost, KubectlHooks, KubectlApi, ContainerLogs } from './host.ts';

/** Whether a flag consumes the next argument when given as `--name` / `-x` without `=`. */
function takesValue(spec: FlagSpec | undefined): boolean {
  return spec !== undefined && spec.kind !== 'bool' && spec.noOptDefault === undefined;
}

/** cobra's `stripFlags`: the positional words among args, given the flags known at this level. */
function positionalWords(
  args: readonly string[],
  specs: readonly FlagSpec[],
): { word: string; index: number }[] {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  const out: { word: string; index: number }[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      if (!a.includes('=') && takesValue(byName.get(a.slice(2)))) i++;
    } else if (a.startsWith('-') && a.length > 1) {
      if (a.length === 2 && takesValue(byShort.get(a[1]!))) i++;
    } else out.push({ word: a, index: i });
  }
  return out;
}

/** Levenshtein distance, case-insensitive (cobra's `ld(s, t, true)`). */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [
    i,
    ...new Array<number>(t.length).fill(0),
  ]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let j = 1; j <= t.length; j++) {
    for (let i = 1; i <= s.length; i++) {
      d[i]![j] =
        s[i - 1] === t[j - 1]
          ? d[i - 1]![j - 1]!
          : Math.min(d[i - 1]![j]!, d[i]![j - 1]!, d[i - 1]![j - 1]!) + 1;
    }
  }
  return d[s.length]![t.length]!;
}

function unknownCommand(word: string): string {
  const suggestions = TOP_LEVEL_ORDER.filter(
    (name) => distance(word, name) <= 2 || name.startsWith(word.toLowerCase()),
  );
  const tail =
    suggestions.length > 0 ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}\n`).join('')}` : '';
  return `error: unknown command "${word}" for "kubectl"${tail}`;
}

interface Resolved {
  readonly path: string;
  /** Args for the command: everything but the words that named it. */
  readonly rest: string[];
}

function resolveCommand(args: readonly string[]): Resolved | KubectlError | undefined {
  const global = flagsFor('options');
  const words = positionalWords(args, global);
  const first = words[0];
  if (!first) return undefined;
  if (first.word === 'help') {
    const target = words.slice(1).map((w) => w.word);
    return { path: `help ${target.join(' ')}`.trim(), rest: [] };
  }
  if (!Object.hasOwn(HELP_TEXTS, first.word) || first.word === '') {
    return new KubectlError(unknownCommand(first.word));
  }
  let path = first.word;
  const consumed = [first.index];
  for (;;) {
    const children = PARENTS[path];
    if (!children) break;
    const next = positionalWords(args, flagsFor(path)).find((w) => !consumed.includes(w.index));
    const alias =
      next && Object.hasOwn(ALIASES[path] ?? {}, next.word) ? ALIASES[path]![next.word] : undefined;
    const word = next ? (alias ?? next.word) : undefined;
    if (!next || !word || !children.includes(word)) break;
    path = `${path} ${word}`;
    consumed.push(next.index);
  }
  return { path, rest: args.filter((_, i) => !consumed.includes(i)) };
}

function result(ctx: KubectlContext, exitCode: number): CommandResult {
  const output = ctx.output;
  return {
    stdout: ctx.stdout,
    stderr: ctx.stderr,
    exitCode,
    ...(output ? { output } : {}),
    ...(ctx.enter ? { enter: ctx.enter } : {}),
    ...(ctx.shows ? { shows: ctx.shows } : {}),
  };
}

function runCommand(
  host: KubectlHost,
  hooks: KubectlHooks,
  argv: readonly string[],
  io: CommandIO,
): CommandResult {
  const args = argv.slice(1);
  const resolved = resolveCommand(args);
  if (resolved instanceof KubectlError)
    return {
      stdout: '',
      stderr: resolved.text.endsWith('\n') ? resolved.text : `${resolved.text}\n`,
      exitCode: 1,
    };
  if (!resolved) {
    try {
      const flags = parseFlags(args, flagsFor('options'));
      void flags;
    } catch (e) {
      if (e instanceof FlagError)
        return { stdout: '', stderr: `error: ${e.message}\nSee 'kubectl --help' for usage.\n`, exitCode: 1 };
      throw e;
    }
    return { stdout: HELP_TEXTS['']!, stderr: '', exitCode: 0 };
  }
  if (resolved.path.startsWith('help')) {
    const target = resolved.path.slice(4).trim();
    // Own keys only: `kubectl help constructor` is an unknown topic, not Object.prototype's.
    const text = Object.hasOwn(HELP_TEXTS, target) ? HELP_TEXTS[target] : undefined;
    if (text === undefined)
      return {
        stdout: '',
        stderr: `Unknown help topic [\`${target.split(' ')[0]}\`]\n${HELP_TEXTS['']!}`,
        exitCode: 0,
      };
    return { stdout: text, stderr: '', exitCode: 0 };
  }
  const path = resolved.path;
  let flags;
  try {
    flags = parseFlags(resolved.rest, flagsFor(path));
  } catch (e) {
    if (e instanceof FlagError)
      return {
        stdout: '',
        stderr: `error: ${e.message}\nSee 'kubectl ${path} --help' for usage.\n`,
        exitCode: 1,
      };
    throw e;
  }
  if (flags.help) return { stdout: HELP_TEXTS[path] ?? '', stderr: '', exitCode: 0 };
  const ctx = new KubectlContext(host, hooks, io, path, flags);
  const run: CommandRun | undefined = COMMANDS[path];
  if (!run) {
    if (PARENTS[path]) {
      if (flags.args.length > 0) {
        return {
          stdout: '',
          stderr: `error: unknown command "${flags.args.join(' ')}"\nSee 'kubectl ${path} -h' for help and examples\n`,
          exitCode: 1,
        };
      }
      return { stdout: HELP_TEXTS[path] ?? '', stderr: '', exitCode: 1 };
    }
    return {
      stdout: '',
      stderr: `error: "kubectl ${path}" is not available in this simulated cluster\n`,
      exitCode: 1,
    };
  }
  try {
    return result(ctx, run(ctx));
  } catch (e) {
    if (!(e instanceof KubectlError) && !(e instanceof StatusError)) hooks.onInternalError?.(e);
    if (e instanceof KubectlError && e.stdout !== '') ctx.out(e.stdout);
    const text = errorText(e);
    ctx.err(text.endsWith('\n') ? text : `${text}\n`);
    return result(ctx, e instanceof KubectlError ? e.exitCode : 1);
  }
}

/** The `kubectl` command of a cluster. Never throws: every failure is stderr text and exit code 1. */
export function createKubectl(cluster: KubectlHost, hooks: KubectlHooks = {}): CommandHandler {
  return (argv, io) => {
    try {
      return runCommand(cluster, hooks, argv, io);
    } catch (e) {
      hooks.onInternalError?.(e);
      // A bug in a command must not take the learner's shell down; report it like kubectl's klog fatal.
      return { stdout: '', stderr: `error: ${e instanceof Error ? e.message : String(e)}\n`, exitCode: 1 };
    }
  };
}
