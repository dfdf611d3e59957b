/**
 * What `sh -c '…'` does in a container, for the scripts labs actually write: `echo`, `sleep`, `exit`,
 * `touch`/`rm` (the liveness-probe example of the Kubernetes docs), `while true; do …; done`,
 * `for x in …; do …; done`, `trap … TERM`, and servers started from a script (`httpd -f -p 8080`,
 * `nc -lk -p 5000`). The script is compiled into timed steps (see process-model.ts) rather than run.
 *
 * Lists follow POSIX sh (BusyBox ash): `a && b || c` is left-associative, the right side of `&&`
 * runs only after status 0 and that of `||` only after a failure, `! cmd` inverts the status and a bare
 * `exit` ends with the last status. A side whose status is known when compiling (`echo`, `true`) is
 * decided then; after a network tool the decision is a step the runtime takes.
 *
 * Simplified: no `if`/`case`/functions/subshells (an `if … fi` block is skipped), pipes keep the first
 * command's output and status. Network clients (wget, nslookup, curl) become `tool` steps:
 * the runtime gets their answers from the dataplane as the script reaches them.
 */
import type { Step } from './process-model.ts';

export interface ScriptContext {
  readonly env: Readonly<Record<string, string>>;
  readonly hostname: string;
  /** Turns one simple command (argv) into steps: servers, sleep, unknown commands… */
  readonly command: (argv: string[]) => Step[];
}

type Token = { word: string } | { op: string };

/** Stands for the output of `$(date)`, filled in with the simulated time when the line is printed. */
export const DATE_MARK = '\u0002date\u0002';
const loopVar = (name: string) => `\u0001${name}\u0001`;

/** Splits a script into words and operators, honouring quotes and expanding variables. */
export function tokenize(script: string, vars: Readonly<Record<string, string>>): Token[] {
  const out: Token[] = [];
  let word = '';
  let inWord = false;
  const flush = () => {
    if (inWord) out.push({ word });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (c === "'") {
      const end = script.indexOf("'", i + 1);
      word += script.slice(i + 1, end < 0 ? undefined : end);
      inWord = true;
      i = end < 0 ? script.length : end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < script.length && script[j] !== '"'; j++) {
        if (script[j] === '\\' && j + 1 < script.length) word += script[++j];
        else if (script[j] === '$') j = expand(script, j, vars, (s) => (word += s));
        else word += script[j];
      }
      inWord = true;
      i = j;
    } else if (c === '$') {
      i = expand(script, i, vars, (s) => (word += s));
      inWord = true;
    } else if (c === '\\' && i + 1 < script.length) {
      word += script[++i];
      inWord = true;
    } else if (c === '#' && !inWord) {
      while (i < script.length && script[i] !== '\n') i++;
      flush();
      out.push({ op: ';' });
    } else if (c === ';' || c === '\n' || c === '&' || c === '|' || c === '>' || c === '<') {
      flush();
      const two = script.slice(i, i + 2);
      if (two === '&&' || two === '||' || two === '>>') {
        out.push({ op: two });
        i++;
      } else out.push({ op: c === '\n' ? ';' : c });
    } else if (c === ' ' || c === '\t') {
      flush();
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return out;
}

/** Expands `$VAR`, `${VAR}`, `$(cmd)` at script[i]; returns the index of the last consumed character. */
function expand(
  script: string,
  i: number,
  vars: Readonly<Record<string, string>>,
  emit: (s: string) => void,
): number {
  const rest = script.slice(i + 1);
  let m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest) ?? /^([A-Za-z_][A-Za-z0-9_]*|[0-9?$#])/.exec(rest);
  if (m) {
    emit(vars[m[1]!] ?? '');
    return i + m[0].length;
  }
  m = /^\(([^)]*)\)/.exec(rest);
  if (m) {
    const cmd = m[1]!.trim().split(/\s+/)[0] ?? '';
    emit(cmd === 'hostname' ? (vars.HOSTNAME ?? '') : cmd === 'date' ? DATE_MARK : '');
    return i + m[0].length;
  }
  emit('$');
  return i;
}

interface Parser {
  readonly tokens: Token[];
  pos: number;
}

/** Compiles a script into steps. */
export function compileScript(
  script: string,
  ctx: ScriptContext,
  extraVars: Record<string, string> = {},
): Step[] {
  const loopVars = Object.fromEntries(
    [...script.matchAll(/\bfor\s+([A-Za-z_]\w*)\s+in\b/g)].map((m) => [m[1]!, loopVar(m[1]!)]),
  );
  const vars = { ...loopVars, ...ctx.env, HOSTNAME: ctx.hostname, ...extraVars };
  const p: Parser = { tokens: tokenize(script, vars), pos: 0 };
  const strip = {
    ...ctx,
    command: (argv: string[]) => ctx.command(argv.map((a) => a.replace(/\u0001\w+\u0001/g, ''))),
  };
  return parseList(p, strip, new Set());
}

function isWord(t: Token | undefined, w?: string): t is { word: string } {
  return t !== undefined && 'word' in t && (w === undefined || t.word === w);
}

function parseList(p: Parser, ctx: ScriptContext, stop: Set<string>): Step[] {
  const steps: Step[] = [];
  while (p.pos < p.tokens.length) {
    const t = p.tokens[p.pos]!;
    if (isWord(t) && stop.has(t.word)) break;
    if (!isWord(t)) {
      p.pos++;
      continue;
    }
    steps.push(...parseAndOr(p, ctx, stop));
  }
  return steps;
}

/** `a && b || c`: each operator applies to the status the list so far left behind. */
function parseAndOr(p: Parser, ctx: ScriptContext, stop: Set<string>): Step[] {
  let steps = parsePipeline(p, ctx, stop);
  for (;;) {
    const t = p.tokens[p.pos];
    if (!t || isWord(t) || (t.op !== '&&' && t.op !== '||')) return steps;
    p.pos++;
    // The tokenizer turned a line break after the operator into `;`.
    while (p.tokens[p.pos] && !isWord(p.tokens[p.pos]) && (p.tokens[p.pos] as { op: string }).op === ';')
      p.pos++;
    const when = t.op === '&&' ? 'ok' : 'fail';
    const right = parsePipeline(p, ctx, stop);
    const known = staticStatus(steps);
    if (known === undefined) steps = [...steps, { op: 'if', when, body: right }];
    else if ((known === 0) === (when === 'ok')) steps = [...steps, ...right];
  }
}

function parsePipeline(p: Parser, ctx: ScriptContext, stop: Set<string>): Step[] {
  let negate = false;
  while (isWord(p.tokens[p.pos], '!')) {
    negate = !negate;
    p.pos++;
  }
  const t = p.tokens[p.pos];
  if (!isWord(t) || stop.has(t.word)) return [];
  const steps =
    t.word === 'while' || t.word === 'until'
      ? parseLoop(p, ctx, t.word === 'until')
      : t.word === 'for'
        ? parseFor(p, ctx)
        : t.word === 'if'
          ? (skipBlock(p, 'if', 'fi'), [])
          : parseSimple(p, ctx);
  if (!negate) return steps;
  const known = staticStatus(steps);
  return [...steps, known === undefined ? { op: 'not' } : { op: 'status', code: known === 0 ? 1 : 0 }];
}

/** The status steps leave behind when it does not depend on the run (no tool or branch decides it). */
function staticStatus(steps: readonly Step[]): number | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if (s.op === 'status') return s.code;
    if (s.op === 'exit') return s.code;
    if (s.op === 'tool' || s.op === 'if' || s.op === 'not' || s.op === 'loop' || s.op === 'block')
      return undefined;
  }
  return undefined;
}

function parseSimple(p: Parser, ctx: ScriptContext): Step[] {
  const argv: string[] = [];
  let redirect: string | undefined;
  let piped = false;
  while (p.pos < p.tokens.length) {
    const t = p.tokens[p.pos]!;
    if (isWord(t)) {
      argv.push(t.word);
      p.pos++;
    } else if (t.op === '>' || t.op === '>>' || t.op === '<') {
      p.pos++;
      const target = p.tokens[p.pos];
      if (isWord(target) && t.op !== '<') redirect = target.word;
      p.pos++;
    } else if (t.op === '|') {
      piped = true;
      p.pos++;
      while (p.pos < p.tokens.length && isWord(p.tokens[p.pos])) p.pos++;
    } else break;
  }
  if (argv[0] === 'exec') argv.shift();
  if (argv.length === 0) return [];
  if (redirect !== undefined) {
    if (redirect.startsWith('/dev/')) return [{ op: 'status', code: 0 }];
    return [
      { op: 'file', path: redirect, exists: true },
      { op: 'status', code: 0 },
    ];
  }
  const steps = ctx.command(argv);
  return piped ? steps.filter((s) => s.op !== 'block') : steps;
}

function parseLoop(p: Parser, ctx: ScriptContext, until: boolean): Step[] {
  p.pos++;
  const cond: string[] = [];
  while (p.pos < p.tokens.length && !isWord(p.tokens[p.pos], 'do')) {
    const t = p.tokens[p.pos]!;
    if (isWord(t)) cond.push(t.word);
    p.pos++;
  }
  p.pos++;
  const body = parseList(p, ctx, new Set(['done']));
  p.pos++;
  const c = cond.join(' ');
  const forever = until ? c === 'false' : c === 'true' || c === ':' || c === '[ 1 ]' || /^sleep \d+$/.test(c);
  if (forever) return [{ op: 'loop', body }];
  // A loop on a condition we cannot evaluate (`until nslookup db`) is taken as met at once.
  return [];
}

function parseFor(p: Parser, ctx: ScriptContext): Step[] {
  p.pos++;
  const name = isWord(p.tokens[p.pos]) ? (p.tokens[p.pos] as { word: string }).word : 'i';
  p.pos++;
  const values: string[] = [];
  if (isWord(p.tokens[p.pos], 'in')) {
    p.pos++;
    while (p.pos < p.tokens.length && isWord(p.tokens[p.pos]))
      values.push((p.tokens[p.pos++] as { word: string }).word);
  }
  while (p.pos < p.tokens.length && !isWord(p.tokens[p.pos], 'do')) p.pos++;
  p.pos++;
  const start = p.pos;
  const steps: Step[] = [];
  let end = start;
  for (const v of values.length > 0 ? values : ['']) {
    // Re-tokenising per value would lose quoting; substituting the loop variable in the words is enough.
    p.pos = start;
    const bound = {
      ...ctx,
      command: (argv: string[]) => ctx.command(argv.map((a) => a.split(loopVar(name)).join(v))),
    };
    const body = parseList(p, bound, new Set(['done']));
    steps.push(...body);
    end = p.pos;
  }
  p.pos = end + 1;
  return steps;
}

function skipBlock(p: Parser, open: string, close: string): void {
  let depth = 0;
  for (; p.pos < p.tokens.length; p.pos++) {
    const t = p.tokens[p.pos]!;
    if (isWord(t, open)) depth++;
    else if (isWord(t, close) && --depth === 0) {
      p.pos++;
      return;
    }
  }
}
