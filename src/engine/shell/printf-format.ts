/**
 * The escapes and conversions of `echo -e` and `printf` (bash's builtins; coreutils agrees): `%s %b
 * %c %d %i %u %o %x %X %e %f %g %%` with flags, width and precision; the format is reused while
 * arguments remain; a bad number is reported and counts as 0.
 */

type EscapeMode = 'echo' | 'printf';

/** One backslash escape at s[i]: echo/`%b` take `\0nnn`, printf formats take `\nnn`. */
function escapeAt(s: string, i: number, mode: EscapeMode): { text: string; len: number; stop: boolean } {
  const e = s[i + 1];
  if (e === undefined) return { text: '\\', len: 1, stop: false };
  const simple: Record<string, string> = {
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
  };
  if (e in simple) return { text: simple[e]!, len: 2, stop: false };
  if (e === 'c') return { text: '', len: 2, stop: true };
  const octalFrom = mode === 'echo' ? (e === '0' ? i + 2 : -1) : /[0-7]/.test(e) ? i + 1 : -1;
  if (octalFrom >= 0) {
    let end = octalFrom;
    while (end < octalFrom + 3 && /[0-7]/.test(s[end] ?? '')) end++;
    return {
      text: String.fromCharCode(parseInt(s.slice(octalFrom, end) || '0', 8) & 0xff),
      len: end - i,
      stop: false,
    };
  }
  if (e === 'x' && /[0-9a-fA-F]/.test(s[i + 2] ?? '')) {
    let end = i + 2;
    while (end < i + 4 && /[0-9a-fA-F]/.test(s[end] ?? '')) end++;
    return { text: String.fromCharCode(parseInt(s.slice(i + 2, end), 16)), len: end - i, stop: false };
  }
  return { text: `\\${e}`, len: 2, stop: false };
}

/** Backslash escapes of `echo -e` and `%b`; `stop` is set by `\c` (print nothing more). */
export function interpretEscapes(s: string, mode: EscapeMode = 'echo'): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; ) {
    if (s[i] !== '\\') {
      out += s[i];
      i++;
      continue;
    }
    const esc = escapeAt(s, i, mode);
    if (esc.stop) return { text: out, stop: true };
    out += esc.text;
    i += esc.len;
  }
  return { text: out, stop: false };
}

export interface PrintfResult {
  readonly text: string;
  readonly errors: readonly string[];
}

export function formatPrintf(format: string, args: readonly string[]): PrintfResult {
  const errors: string[] = [];
  let out = '';
  let argi = 0;
  const next = () => (argi < args.length ? args[argi++]! : undefined);
  for (let pass = 0; pass < 10_000; pass++) {
    let consumed = false;
    let i = 0;
    while (i < format.length) {
      const c = format[i]!;
      if (c === '\\') {
        const esc = escapeAt(format, i, 'printf');
        if (esc.stop) return { text: out, errors };
        out += esc.text;
        i += esc.len;
        continue;
      }
      if (c !== '%') {
        out += c;
        i++;
        continue;
      }
      const m = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([diouxXeEfFgGcsb%])/.exec(format.slice(i));
      if (!m) {
        errors.push(`\`${format.slice(i + 1, i + 2) || '%'}': invalid format character`);
        return { text: out, errors };
      }
      i += m[0].length;
      const conv = m[4]!;
      if (conv === '%') {
        out += '%';
        continue;
      }
      const width = m[2] === '*' ? Number(next() ?? 0) : m[2] ? Number(m[2]) : 0;
      const precision =
        m[3] === '*' ? Number(next() ?? 0) : m[3] !== undefined ? Number(m[3] || 0) : undefined;
      consumed = true;
      const arg = next();
      out += convert(conv, m[1]!, width, precision, arg, errors);
    }
    if (!consumed || argi >= args.length) break;
  }
  return { text: out, errors };
}

function pad(s: string, flags: string, width: number, numeric: boolean): string {
  if (s.length >= width) return s;
  if (flags.includes('-')) return s.padEnd(width);
  if (numeric && flags.includes('0')) {
    const sign = /^[-+ ]/.test(s) ? s[0]! : '';
    return sign + s.slice(sign.length).padStart(width - sign.length, '0');
  }
  return s.padStart(width);
}

function toNumber(arg: string | undefined, errors: string[]): number {
  if (arg === undefined || arg === '') return 0;
  if (/^['"]/.test(arg)) return arg.codePointAt(1) ?? 0;
  const t = arg.trim();
  if (/^[-+]?(0[xX][0-9a-fA-F]+|\d+)$/.test(t)) {
    const neg = t.startsWith('-');
    const body = t.replace(/^[-+]/, '');
    const n = /^0[xX]/.test(body)
      ? parseInt(body, 16)
      : body.length > 1 && body.startsWith('0')
        ? parseInt(body, 8)
        : Number(body);
    return neg ? -n : n;
  }
  if (/^[-+]?\d*\.?\d+(e[-+]?\d+)?$/i.test(t)) return Number(t);
  errors.push(`${arg}: invalid number`);
  const lead = /^[-+]?\d+/.exec(t);
  return lead ? Number(lead[0]) : 0;
}

function convert(
  conv: string,
  flags: string,
  width: number,
  precision: number | undefined,
  arg: string | undefined,
  errors: string[],
): string {
  switch (conv) {
    case 's': {
      const s = arg ?? '';
      return pad(precision !== undefined ? s.slice(0, precision) : s, flags, width, false);
    }
    case 'b': {
      const s = interpretEscapes(arg ?? '', 'echo').text;
      return pad(precision !== undefined ? s.slice(0, precision) : s, flags, width, false);
    }
    case 'c':
      return pad((arg ?? '').slice(0, 1), flags, width, false);
    case 'd':
    case 'i':
    case 'u': {
      const n = Math.trunc(toNumber(arg, errors));
      let s = String(Math.abs(n));
      if (precision !== undefined) s = s.padStart(precision, '0');
      const sign = n < 0 ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
      return pad(sign + s, flags, width, precision === undefined);
    }
    case 'o':
    case 'x':
    case 'X': {
      const n = Math.trunc(toNumber(arg, errors));
      const base = conv === 'o' ? 8 : 16;
      let s = (n < 0 ? BigInt.asUintN(64, BigInt(n)) : BigInt(n)).toString(base);
      if (conv === 'X') s = s.toUpperCase();
      if (flags.includes('#') && n !== 0) s = (conv === 'o' ? '0' : conv === 'x' ? '0x' : '0X') + s;
      return pad(s, flags, width, true);
    }
    default: {
      const n = toNumber(arg, errors);
      const p = precision ?? 6;
      let s: string;
      if (conv === 'e' || conv === 'E') s = cExponent(n.toExponential(p));
      else if (conv === 'g' || conv === 'G') s = cGeneral(n, p === 0 ? 1 : p);
      else s = n.toFixed(p);
      if (conv === 'E' || conv === 'G') s = s.toUpperCase();
      if (n >= 0 && flags.includes('+')) s = `+${s}`;
      return pad(s, flags, width, true);
    }
  }
}

/** C prints exponents with at least two digits (1.5e+00). */
function cExponent(s: string): string {
  return s.replace(/e([-+])(\d)$/, 'e$10$2');
}

function cGeneral(n: number, p: number): string {
  if (n === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= p) return cExponent(n.toExponential(p - 1).replace(/\.?0+e/, 'e'));
  return n.toFixed(Math.max(0, p - 1 - exp)).replace(/\.?0+$/, '');
}
