/**
 * Word expansion in POSIX order (XCU 2.6): tilde, parameters, command substitution and arithmetic,
 * then field splitting of the unquoted results on IFS whitespace, then pathname expansion against the
 * session's files (a pattern that matches nothing stays as typed, bash's default), then quote removal.
 */
import type { List, Word, WordPart } from './syntax.ts';
import { ArithError, evaluateArithmetic } from './arith.ts';
import { resolvePath, type Filesystem } from './vfs.ts';

/** An expansion failure bash reports and then abandons the command (`${x:?}`, bad substitution). */
export class ExpansionError extends Error {}

export interface ExpandContext {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  /** The positional parameters, for `"$@"` (one field each); none when absent. */
  params?(): readonly string[];
  /** Runs `$( … )` and returns its stdout. */
  substitute(body: List): string;
  readonly home: string;
  readonly cwd: string;
  readonly fs: Filesystem;
}

interface Chunk {
  readonly text: string;
  /** Quoted text is never split and its glob characters are literal. */
  readonly quoted: boolean;
}

/** Expands words into argv fields (with splitting and globbing). */
export function expandWords(words: readonly Word[], ctx: ExpandContext): string[] {
  const out: string[] = [];
  for (const w of words) out.push(...expandWordFields(w, ctx));
  return out;
}

/** Brace expansion (bash, before all others): `{a,b}` alternatives and `{1..5}`/`{a..e}` sequences. */
export function braceExpand(word: Word, limit = 1024): Word[] {
  for (let pi = 0; pi < word.parts.length; pi++) {
    const part = word.parts[pi]!;
    if (part.type !== 'text' || part.quoted) continue;
    const found = findBrace(part.value);
    if (!found) continue;
    const { start, end, items } = found;
    const out: Word[] = [];
    for (const item of items) {
      const text = part.value.slice(0, start) + item + part.value.slice(end + 1);
      const parts = [...word.parts.slice(0, pi), { ...part, value: text }, ...word.parts.slice(pi + 1)];
      out.push(...braceExpand({ parts, raw: word.raw }, limit));
      if (out.length >= limit) return out.slice(0, limit);
    }
    return out;
  }
  return [word];
}

function findBrace(text: string): { start: number; end: number; items: string[] } | undefined {
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          const body = text.slice(start + 1, i);
          if (commas.length > 0) {
            const items: string[] = [];
            let from = start + 1;
            for (const k of commas) {
              items.push(text.slice(from, k));
              from = k + 1;
            }
            items.push(text.slice(from, i));
            return { start, end: i, items };
          }
          const seq = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(body);
          if (seq) return { start, end: i, items: sequence(seq[1]!, seq[2]!) };
          break;
        }
      } else if (c === ',' && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

function sequence(a: string, b: string): string[] {
  const numeric = /^-?\d+$/.test(a) && /^-?\d+$/.test(b);
  const from = numeric ? Number(a) : a.charCodeAt(0);
  const to = numeric ? Number(b) : b.charCodeAt(0);
  if (numeric !== (/^-?\d+$/.test(a) || /^-?\d+$/.test(b)) || Math.abs(to - from) > 1024)
    return [`{${a}..${b}}`];
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? 1 : -1)
    out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}

export function expandWordFields(word: Word, ctx: ExpandContext): string[] {
  const words = braceExpand(word);
  if (words.length > 1 || words[0] !== word) return words.flatMap((w) => expandFields(w, ctx));
  return expandFields(word, ctx);
}

function expandFields(word: Word, ctx: ExpandContext): string[] {
  const fields: Chunk[][] = [];
  let current: Chunk[] | undefined;
  const close = () => {
    if (current) fields.push(current);
    current = undefined;
  };
  const add = (text: string, quoted: boolean) => {
    (current ??= []).push({ text, quoted });
  };
  for (const part of word.parts) {
    if (part.type === 'text') {
      add(part.value, part.quoted);
      continue;
    }
    if (part.type === 'tilde') {
      add(ctx.home, true);
      continue;
    }
    if (part.type === 'param' && part.name === '@' && isQuoted(part) && !part.op && !part.length) {
      // `"$@"`: each parameter is its own field, and no parameters make no field at all.
      (ctx.params?.() ?? []).forEach((p, i) => {
        if (i > 0) close();
        add(p, true);
      });
      continue;
    }
    const value = expandPart(part, ctx);
    if (isQuoted(part)) {
      add(value, true);
      continue;
    }
    if (value === '') continue;
    if (/^[ \t\n]/.test(value)) close();
    const pieces = value.split(/[ \t\n]+/).filter((p) => p !== '');
    pieces.forEach((piece, i) => {
      if (i > 0) close();
      add(piece, false);
    });
    if (/[ \t\n]$/.test(value)) close();
  }
  close();
  // `"$@"` with no parameters leaves no field, even though its quotes would make an empty one.
  const onlyEmptyAt =
    fields.length === 1 &&
    fields[0]!.every((c) => c.text === '') &&
    word.parts.some((p) => p.type === 'param' && p.name === '@' && isQuoted(p)) &&
    word.parts.every((p) => (p.type === 'text' && p.value === '') || (p.type === 'param' && p.name === '@'));
  if (onlyEmptyAt) return [];
  const out: string[] = [];
  for (const chunks of fields) {
    const literal = chunks.map((c) => c.text).join('');
    const matches = chunks.some((c) => !c.quoted && /[*?[]/.test(c.text)) ? glob(chunks, ctx) : [];
    if (matches.length > 0) out.push(...matches);
    else out.push(literal);
  }
  return out;
}

/** Expands a word into one string: assignments, redirection targets, here-documents, `case` words. */
export function expandWord(word: Word, ctx: ExpandContext): string {
  let out = '';
  for (const part of word.parts) {
    if (part.type === 'text') out += part.value;
    else if (part.type === 'tilde') out += ctx.home;
    else out += expandPart(part, ctx);
  }
  return out;
}

function isQuoted(part: WordPart): boolean {
  return 'quoted' in part && part.quoted;
}

function expandPart(part: WordPart, ctx: ExpandContext): string {
  switch (part.type) {
    case 'text':
      return part.value;
    case 'tilde':
      return ctx.home;
    case 'bad':
      throw new ExpansionError(`${part.text}: bad substitution`);
    case 'command':
      return ctx.substitute(part.body).replace(/\n+$/, '');
    case 'arith': {
      const expr = expandWord(part.expr, ctx);
      try {
        return String(evaluateArithmetic(expr, ctx));
      } catch (e) {
        if (e instanceof ArithError) throw new ExpansionError(e.message);
        throw e;
      }
    }
    case 'param':
      return expandParam(part, ctx);
  }
}

function expandParam(part: Extract<WordPart, { type: 'param' }>, ctx: ExpandContext): string {
  const value = ctx.get(part.name);
  if (part.length) return String((value ?? '').length);
  const arg = () => (part.arg ? expandWord(part.arg, ctx) : '');
  const unsetOrNull = value === undefined || value === '';
  switch (part.op) {
    case undefined:
      return value ?? '';
    case ':-':
      return unsetOrNull ? arg() : value;
    case '-':
      return value === undefined ? arg() : value;
    case ':=':
    case '=': {
      if (part.op === ':=' ? !unsetOrNull : value !== undefined) return value ?? '';
      const v = arg();
      if (!/^[A-Za-z_]/.test(part.name)) throw new ExpansionError(`$${part.name}: cannot assign in this way`);
      ctx.set(part.name, v);
      return v;
    }
    case ':+':
      return unsetOrNull ? '' : arg();
    case '+':
      return value === undefined ? '' : arg();
    case ':?':
    case '?':
      if (part.op === ':?' ? unsetOrNull : value === undefined) {
        throw new ExpansionError(`${part.name}: ${arg() || 'parameter null or not set'}`);
      }
      return value ?? '';
    case '#':
    case '##':
    case '%':
    case '%%':
      return trimPattern(value ?? '', part.arg ? patternRegex(part.arg, ctx) : '', part.op);
    case '/':
    case '//': {
      const re = part.arg ? patternRegex(part.arg, ctx) : '';
      const repl = part.arg2 ? expandWord(part.arg2, ctx) : '';
      if (re === '') return value ?? '';
      return replacePattern(value ?? '', re, repl, part.op === '//');
    }
  }
}

/** A glob pattern (quoted parts literal) as a regular-expression source, without anchors. */
function patternRegex(word: Word, ctx: ExpandContext): string {
  let src = '';
  for (const part of word.parts) {
    if (part.type === 'text' && !part.quoted) src += globToRegex(part.value, false);
    else src += escapeRegex(part.type === 'text' ? part.value : expandPart(part, ctx));
  }
  return src;
}

function trimPattern(value: string, re: string, op: '#' | '##' | '%' | '%%'): string {
  if (re === '') return value;
  const full = new RegExp(`^(?:${re})$`, 's');
  if (op === '#' || op === '##') {
    const order = op === '#' ? range(0, value.length) : range(0, value.length).reverse();
    for (const i of order) if (full.test(value.slice(0, i))) return value.slice(i);
    return value;
  }
  const order = op === '%' ? range(0, value.length).reverse() : range(0, value.length);
  for (const i of order) if (full.test(value.slice(i))) return value.slice(0, i);
  return value;
}

function replacePattern(value: string, re: string, repl: string, all: boolean): string {
  // Longest match at each position, as bash does for `${x/pattern/repl}`.
  const full = new RegExp(`^(?:${re})$`, 's');
  let out = '';
  let i = 0;
  while (i < value.length) {
    let matched = -1;
    for (let j = value.length; j > i; j--) {
      if (full.test(value.slice(i, j))) {
        matched = j;
        break;
      }
    }
    if (matched < 0) {
      out += value[i];
      i++;
      continue;
    }
    out += repl;
    i = matched;
    if (!all) return out + value.slice(i);
  }
  return out;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** Translates glob syntax (`*`, `?`, `[…]`); in pathnames the wildcards never match `/`. */
export function globToRegex(glob: string, pathname: boolean): string {
  const any = pathname ? '[^/]' : '.';
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += `${any}*`;
    else if (c === '?') out += any;
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/^\]/, '\\]')}]`;
      i = end;
    } else out += escapeRegex(c);
  }
  return out;
}

/** Pathname expansion: each `/`-separated segment with wildcards is matched against a directory listing. */
function glob(chunks: readonly Chunk[], ctx: ExpandContext): string[] {
  // Split into segments, keeping for each segment its regex and its literal text.
  const segments: { re: string; literal: string; wild: boolean }[] = [{ re: '', literal: '', wild: false }];
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.text.length; i++) {
      const c = chunk.text[i]!;
      if (c === '/') {
        segments.push({ re: '', literal: '', wild: false });
        continue;
      }
      const seg = segments[segments.length - 1]!;
      seg.literal += c;
      if (chunk.quoted) seg.re += escapeRegex(c);
      else if (c === '[') {
        const end = chunk.text.indexOf(']', i + 2);
        if (end < 0 || chunk.text.slice(i, end).includes('/')) seg.re += '\\[';
        else {
          seg.re += globToRegex(chunk.text.slice(i, end + 1), true);
          seg.literal += chunk.text.slice(i + 1, end + 1);
          seg.wild = true;
          i = end;
        }
      } else if (c === '*' || c === '?') {
        seg.re += globToRegex(c, true);
        seg.wild = true;
      } else seg.re += escapeRegex(c);
    }
  }
  const absolute = segments[0]!.literal === '' && segments.length > 1;
  let paths: string[] = [absolute ? '/' : ''];
  const rest = absolute ? segments.slice(1) : segments;
  rest.forEach((seg, index) => {
    const last = index === rest.length - 1;
    const next: string[] = [];
    for (const prefix of paths) {
      if (!seg.wild) {
        const p = join(prefix, seg.literal);
        if (
          last
            ? seg.literal === '' || ctx.fs.stat(abs(ctx, p)) !== undefined
            : ctx.fs.stat(abs(ctx, p)) === 'dir'
        )
          next.push(p);
        continue;
      }
      const entries = ctx.fs.list(abs(ctx, prefix === '' ? '.' : prefix));
      if (typeof entries === 'string') continue;
      const re = new RegExp(`^${seg.re}$`);
      for (const name of entries) {
        if (name.startsWith('.') && !seg.literal.startsWith('.')) continue;
        if (!re.test(name)) continue;
        const p = join(prefix, name);
        if (last || ctx.fs.stat(abs(ctx, p)) === 'dir') next.push(p);
      }
    }
    paths = next;
  });
  return paths.filter((p) => p !== '').sort();
}

function join(prefix: string, name: string): string {
  if (prefix === '') return name;
  return prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`;
}

function abs(ctx: ExpandContext, p: string): string {
  return resolvePath(ctx.cwd, p);
}
