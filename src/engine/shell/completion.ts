/**
 * Tab completion, bash-style: the first word of a command completes to commands, builtins and
 * aliases; `$NA` to variable names; after a redirection or for commands without their own completer,
 * to file names (directories with a trailing `/`). Commands with a completer (kubectl: verbs,
 * resource types, object names, flags) are asked through the resolver's `complete` hook.
 */
import type { Frame } from './session.ts';
import { resolvePath } from './vfs.ts';

export interface Completion {
  /** The replaced range of the line: [start, end). */
  readonly start: number;
  readonly end: number;
  /** Full replacements for that range, sorted. */
  readonly candidates: readonly string[];
}

export interface CompletionSources {
  readonly frame: Frame;
  commandNames(): readonly string[];
  complete(argv: readonly string[], current: string): readonly string[] | undefined;
}

interface Scan {
  words: string[];
  current: string;
  start: number;
  afterRedirect: boolean;
}

function scan(text: string): Scan {
  let words: string[] = [];
  let current = '';
  let start = 0;
  let inWord = false;
  let quote: string | undefined;
  let afterRedirect = false;
  let redirectPending = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else current += c;
      continue;
    }
    if (c === "'" || c === '"') {
      if (!inWord) {
        inWord = true;
        start = i;
      }
      quote = c;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      if (!inWord) {
        inWord = true;
        start = i;
      }
      current += text[++i];
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || '|;&()<>'.includes(c)) {
      if (inWord) {
        if (redirectPending) redirectPending = false;
        else words.push(current);
      }
      inWord = false;
      current = '';
      if ('|;&()'.includes(c)) {
        words = [];
        redirectPending = false;
      } else if (c === '<' || c === '>') redirectPending = true;
      continue;
    }
    if (!inWord) {
      inWord = true;
      start = i;
    }
    current += c;
  }
  if (!inWord) start = text.length;
  afterRedirect = redirectPending;
  return { words, current, start, afterRedirect };
}

export function completeLine(line: string, cursor: number, sources: CompletionSources): Completion {
  const end = Math.max(0, Math.min(cursor, line.length));
  const { words, current, start, afterRedirect } = scan(line.slice(0, end));
  const frame = sources.frame;
  const done = (candidates: readonly string[]) => ({
    start,
    end,
    candidates: [...new Set(candidates.filter((c) => c.startsWith(current)))].sort(),
  });
  if (current.startsWith('$')) {
    return done([...frame.vars.keys()].map((k) => `$${k}`));
  }
  if (afterRedirect) return done(fileCandidates(frame, current));
  if (words.length === 0 && !current.includes('/')) return done(sources.commandNames());
  const alias = words[0] !== undefined ? frame.aliases.get(words[0]) : undefined;
  const argv = alias !== undefined ? [...alias.split(/\s+/).filter(Boolean), ...words.slice(1)] : words;
  const own = words.length > 0 ? sources.complete(argv, current) : undefined;
  return done(own ?? fileCandidates(frame, current));
}

function fileCandidates(frame: Frame, current: string): string[] {
  const slash = current.lastIndexOf('/');
  const dirPart = slash < 0 ? '' : current.slice(0, slash + 1);
  const prefix = current.slice(slash + 1);
  const home = frame.vars.get('HOME')?.value ?? frame.home;
  const expanded = dirPart.startsWith('~/') || dirPart === '~/' ? home + dirPart.slice(1) : dirPart;
  const dir = resolvePath(frame.cwd, expanded === '' ? '.' : expanded);
  const listed = frame.fs.list(dir);
  if (typeof listed === 'string') return [];
  return listed
    .filter((n) => n.startsWith(prefix) && (prefix.startsWith('.') || !n.startsWith('.')))
    .map((n) => {
      const full = dir === '/' ? `/${n}` : `${dir}/${n}`;
      return `${dirPart}${n}${frame.fs.stat(full) === 'dir' ? '/' : ''}`;
    });
}
