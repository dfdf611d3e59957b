/**
 * Command-line flags the way cobra + pflag parse them: `--flag=value`, `--flag value`, `-n ns`, `-nns`,
 * `-n=ns`, combined short booleans (`-it`), `--` ending the flags, flags anywhere among positional
 * arguments, and pflag's exact error texts. Which flags a command accepts, their types and defaults
 * are read from the command's real help text ("Options:" section), so every real flag is accepted and
 * every unknown one is rejected with the real message.
 */
import { parseGoDuration } from '../util/go-duration.ts';
import { HELP_TEXTS } from './help-texts.ts';

export type FlagKind = 'bool' | 'string' | 'int' | 'duration' | 'array';

export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  readonly kind: FlagKind;
  readonly defaultText: string;
  /** pflag's NoOptDefVal: the value a non-bool flag takes when given without `=value`. */
  readonly noOptDefault?: string;
  /** stringSlice flags split `a,b` into two values; stringArray flags keep it whole. */
  readonly splitCommas?: boolean;
}

export type FlagValue = boolean | string | number | string[];

/** A flag error, printed by kubectl as `error: <message>\nSee '<command> --help' for usage.` */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}

/** Non-bool flags with a NoOptDefVal in kubectl (`--dry-run` alone means "unchanged", …). */
const NO_OPT_DEFAULTS: Readonly<Record<string, string>> = {
  'dry-run': 'unchanged',
  validate: 'strict',
  cascade: 'background',
};

/** Flags registered as StringSlice (comma-separated values accepted). */
const SLICE_FLAGS = new Set(['filename', 'tcp', 'image', 'as-group']);

const OPTION_LINE = /^ {4}(?:-(\S), )?--([A-Za-z0-9-]+)=(.*):$/;

function kindOf(defaultText: string): FlagKind {
  if (defaultText === 'true' || defaultText === 'false') return 'bool';
  if (defaultText.startsWith('[')) return 'array';
  if (/^-?\d+$/.test(defaultText)) return 'int';
  if (/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(defaultText)) return 'duration';
  return 'string';
}

function unquote(defaultText: string): string {
  return defaultText.startsWith("'") && defaultText.endsWith("'") ? defaultText.slice(1, -1) : defaultText;
}

/** Reads the flag definitions out of an "Options:" section of a help text. */
export function parseOptionsSection(help: string): FlagSpec[] {
  const out: FlagSpec[] = [];
  for (const line of help.split('\n')) {
    const m = OPTION_LINE.exec(line);
    if (!m) continue;
    const name = m[2]!;
    const defaultText = unquote(m[3]!);
    const kind = kindOf(m[3]!);
    out.push({
      name,
      ...(m[1] ? { short: m[1] } : {}),
      kind,
      defaultText,
      ...(NO_OPT_DEFAULTS[name] !== undefined ? { noOptDefault: NO_OPT_DEFAULTS[name] } : {}),
      ...(SLICE_FLAGS.has(name) ? { splitCommas: true } : {}),
    });
  }
  return out;
}

const specCache = new Map<string, FlagSpec[]>();

/** The flags of a command path (`get`, `create deployment`), global flags included. */
export function flagsFor(path: string): FlagSpec[] {
  let specs = specCache.get(path);
  if (!specs) {
    const own = parseOptionsSection(HELP_TEXTS[path] ?? '');
    const global = parseOptionsSection(HELP_TEXTS['options'] ?? '');
    const seen = new Set(own.map((s) => s.name));
    specs = [...own, ...global.filter((s) => !seen.has(s.name))];
    specCache.set(path, specs);
  }
  return specs;
}

export class ParsedFlags {
  readonly args: string[] = [];
  /** cobra's ArgsLenAtDash: how many positional args came before `--` (-1 when there was none). */
  argsLenAtDash = -1;
  help = false;
  private readonly values = new Map<string, FlagValue>();
  private readonly specs: Map<string, FlagSpec>;

  constructor(specs: readonly FlagSpec[]) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
  }

  changed(name: string): boolean {
    return this.values.has(name);
  }

  set(name: string, value: FlagValue): void {
    this.values.set(name, value);
  }

  raw(name: string): FlagValue | undefined {
    return this.values.get(name);
  }

  bool(name: string): boolean {
    const v = this.values.get(name);
    if (typeof v === 'boolean') return v;
    return this.specs.get(name)?.defaultText === 'true';
  }

  string(name: string): string {
    const v = this.values.get(name);
    if (typeof v === 'string') return v;
    return this.specs.get(name)?.defaultText ?? '';
  }

  int(name: string): number {
    const v = this.values.get(name);
    if (typeof v === 'number') return v;
    return Number(this.specs.get(name)?.defaultText ?? 0);
  }

  /** A duration in milliseconds. */
  duration(name: string): number {
    const v = this.values.get(name);
    if (typeof v === 'number') return v;
    return parseGoDuration(this.specs.get(name)?.defaultText ?? '0s') ?? 0;
  }

  array(name: string): string[] {
    const v = this.values.get(name);
    if (Array.isArray(v)) return v;
    const d = this.specs.get(name)?.defaultText ?? '[]';
    return d.length > 2 ? d.slice(1, -1).split(',') : [];
  }
}

const BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const BOOL_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function flagLabel(spec: FlagSpec): string {
  return spec.short ? `-${spec.short}, --${spec.name}` : `--${spec.name}`;
}

function assign(out: ParsedFlags, spec: FlagSpec, value: string): void {
  switch (spec.kind) {
    case 'bool':
      if (BOOL_TRUE.has(value)) out.set(spec.name, true);
      else if (BOOL_FALSE.has(value)) out.set(spec.name, false);
      else
        throw new FlagError(
          `invalid argument "${value}" for "${flagLabel(spec)}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`,
        );
      return;
    case 'int': {
      if (!/^[+-]?\d+$/.test(value)) {
        throw new FlagError(
          `invalid argument "${value}" for "${flagLabel(spec)}" flag: strconv.ParseInt: parsing "${value}": invalid syntax`,
        );
      }
      const n = Number(value);
      if (!Number.isSafeInteger(n) || Math.abs(n) > 2147483647) {
        throw new FlagError(
          `invalid argument "${value}" for "${flagLabel(spec)}" flag: strconv.ParseInt: parsing "${value}": value out of range`,
        );
      }
      out.set(spec.name, n);
      return;
    }
    case 'duration': {
      const ms = parseGoDuration(value);
      if (ms === undefined) {
        throw new FlagError(
          `invalid argument "${value}" for "${flagLabel(spec)}" flag: time: invalid duration "${value}"`,
        );
      }
      out.set(spec.name, ms);
      return;
    }
    case 'array': {
      const prev = out.raw(spec.name);
      const list = Array.isArray(prev) ? prev : [];
      const add = spec.splitCommas ? value.split(',') : [value];
      out.set(spec.name, [...list, ...add]);
      return;
    }
    case 'string':
      out.set(spec.name, value);
      return;
  }
}

/**
 * Parses argv (without the command path) against the given flags. Throws FlagError with pflag's text.
 * `-h`/`--help` set `help` instead of being rejected, as cobra adds them to every command.
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): ParsedFlags {
  const out = new ParsedFlags(specs);
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.argsLenAtDash = out.args.length;
      out.args.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      if (name === 'help') {
        out.help = true;
        continue;
      }
      const spec = byName.get(name);
      if (!spec) throw new FlagError(`unknown flag: --${name}`);
      if (eq >= 0) assign(out, spec, a.slice(eq + 1));
      else if (spec.kind === 'bool') out.set(spec.name, true);
      else if (spec.noOptDefault !== undefined) assign(out, spec, spec.noOptDefault);
      else if (i + 1 < argv.length) assign(out, spec, argv[++i]!);
      else throw new FlagError(`flag needs an argument: --${name}`);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      let rest = a.slice(1);
      while (rest.length > 0) {
        const c = rest[0]!;
        const remaining = `-${rest}`;
        rest = rest.slice(1);
        if (c === 'h') {
          out.help = true;
          continue;
        }
        const spec = byShort.get(c);
        if (!spec) throw new FlagError(`unknown shorthand flag: '${c}' in ${remaining}`);
        if (rest.startsWith('=')) {
          assign(out, spec, rest.slice(1));
          rest = '';
        } else if (spec.kind === 'bool') out.set(spec.name, true);
        else if (spec.noOptDefault !== undefined) out.set(spec.name, spec.noOptDefault);
        else if (rest.length > 0) {
          assign(out, spec, rest);
          rest = '';
        } else if (i + 1 < argv.length) assign(out, spec, argv[++i]!);
        else throw new FlagError(`flag needs an argument: '${c}' in ${remaining}`);
      }
      continue;
    }
    out.args.push(a);
  }
  return out;
}

export { parseGoDuration };
