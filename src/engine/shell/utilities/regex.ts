/**
 * POSIX regular expressions (grep/sed basic and extended syntax, awk's extended) translated into
 * JavaScript regular expressions: BRE's `\( \) \{ \} \| \+ \?` become groups and operators, bracket
 * classes like `[[:digit:]]` are spelled out, `\<`/`\>` become word boundaries.
 */

export class RegexSyntaxError extends Error {}

const CLASS_BODIES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: 'A-Za-z0-9_',
};

export function posixToJs(pattern: string, extended: boolean): string {
  let out = '';
  let atomStart = true;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[++i]!;
      if (!extended && '(){}|+?'.includes(n)) out += n;
      else if (n === '<') out += '\\b(?=\\w)';
      else if (n === '>') out += '\\b(?<=\\w)';
      else if (/[wWsSbB]/.test(n)) out += `\\${n}`;
      else if (/[1-9]/.test(n)) out += `\\${n}`;
      else out += escapeChar(n);
      atomStart = n === '(' && !extended;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') {
        if (pattern[j] === '[' && /[:.=]/.test(pattern[j + 1] ?? '')) {
          const close = pattern.indexOf(`${pattern[j + 1]}]`, j + 2);
          if (close > 0) {
            j = close + 2;
            continue;
          }
        }
        j++;
      }
      if (j >= pattern.length) throw new RegexSyntaxError('Unmatched [, [^, [:, [., or [=');
      out += `[${bracketBody(pattern.slice(i + 1, j))}]`;
      i = j;
      atomStart = false;
      continue;
    }
    if (!extended && '(){}|+?'.includes(c)) {
      out += `\\${c}`;
      atomStart = false;
      continue;
    }
    if (extended && c === '{' && !/^\{\d*(,\d*)?\}/.test(pattern.slice(i))) {
      out += '\\{';
      continue;
    }
    if (c === '*' && atomStart) {
      out += '\\*';
      atomStart = false;
      continue;
    }
    if (c === '/') out += '\\/';
    else out += c;
    atomStart = c === '^' || (extended && (c === '(' || c === '|'));
  }
  try {
    new RegExp(out);
  } catch {
    throw new RegexSyntaxError(unbalancedMessage(pattern, extended));
  }
  return out;
}

function unbalancedMessage(pattern: string, extended: boolean): string {
  const open = extended ? (pattern.match(/(?<!\\)\(/g) ?? []).length : (pattern.match(/\\\(/g) ?? []).length;
  const close = extended ? (pattern.match(/(?<!\\)\)/g) ?? []).length : (pattern.match(/\\\)/g) ?? []).length;
  if (open > close) return 'Unmatched ( or \\(';
  if (close > open) return 'Unmatched ) or \\)';
  return 'Invalid regular expression';
}

function escapeChar(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

function bracketBody(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    const cls = /^\[:([a-z]+):\]/.exec(body.slice(i));
    if (cls) {
      out += CLASS_BODIES[cls[1]!] ?? '';
      i += cls[0].length - 1;
      continue;
    }
    if (c === '\\' || (c === ']' && i > 0) || (c === '[' && i > 0)) out += `\\${c}`;
    else if (c === '^' && i > 0) out += '\\^';
    else out += c;
  }
  return out;
}
