/**
 * Line and field utilities with GNU coreutils 9 behaviour: head, tail, wc, sort, uniq, cut, tr, seq,
 * base64, env/printenv. Text is handled as JavaScript strings; byte counts (`wc -c`, base64) use the
 * UTF-8 encoding, as a Linux terminal would.
 */
import type { CommandHandler } from '../types.ts';
import { joinLines, linesOf, parseOptions, readInputs, result, UsageError, withUsage } from './common.ts';
import { base64Decode, base64Encode, fileSize, utf8Decode, utf8Encode } from '../../util/encoding.ts';

function count(name: string, v: string, what: string): number {
  if (!/^[-+]?\d+$/.test(v)) throw new InvalidCount(`${name}: invalid number of ${what}: ‘${v}’\n`);
  return Number(v);
}

class InvalidCount extends Error {}

function headTail(which: 'head' | 'tail'): CommandHandler {
  return (argv, io) =>
    withUsage(which, '', 1, () => {
      const { opts, operands } = parseOptions(argv.slice(1), {
        flags: 'qvf',
        values: 'nc',
        numericShort: 'n',
        long: { 'lines=': 'n', 'bytes=': 'c', quiet: 'q', follow: 'f' },
      });
      let lines: string | undefined = opts.get('n')?.at(-1);
      const bytes = opts.get('c')?.at(-1);
      const { inputs, errors } = readInputs(which, io, operands);
      let out = '';
      try {
        inputs.forEach((input, i) => {
          if (inputs.length > 1 && !opts.has('q'))
            out += `${i > 0 ? '\n' : ''}==> ${input.name === '-' ? 'standard input' : input.name} <==\n`;
          if (bytes !== undefined) {
            const n = count(which, bytes.replace(/^\+/, ''), 'bytes');
            out +=
              which === 'head'
                ? input.text.slice(0, n)
                : bytes.startsWith('+')
                  ? input.text.slice(Math.max(0, n - 1))
                  : input.text.slice(-n || input.text.length);
            return;
          }
          lines ??= '10';
          const all = input.text.split('\n');
          const trailing = all[all.length - 1] === '';
          if (trailing) all.pop();
          const fromStart = lines.startsWith('+');
          const n = count(which, lines.replace(/^\+/, ''), 'lines');
          let picked: string[];
          if (which === 'head') picked = n >= 0 ? all.slice(0, n) : all.slice(0, Math.max(0, all.length + n));
          else if (fromStart) picked = all.slice(Math.max(0, n - 1));
          else picked = n === 0 ? [] : all.slice(-Math.abs(n));
          const endsAll = picked.length > 0 && (which === 'tail' || picked.length === all.length);
          out += picked.join('\n') + (picked.length > 0 && (!endsAll || trailing) ? '\n' : '');
        });
      } catch (e) {
        if (e instanceof InvalidCount) return result('', e.message);
        throw e;
      }
      return result(out, errors);
    });
}

export const head = headTail('head');
export const tail = headTail('tail');

export const wc: CommandHandler = (argv, io) =>
  withUsage('wc', '', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'lwcmL',
      long: { lines: 'l', words: 'w', bytes: 'c', chars: 'm' },
    });
    const want = ['l', 'w', 'm', 'c', 'L'].filter((k) => opts.has(k));
    const kinds = want.length === 0 ? ['l', 'w', 'c'] : want;
    const { inputs, errors } = readInputs('wc', io, operands);
    const rows = inputs.map((input) => {
      // Only the counts asked for: `wc -l` on a long capture need not split it into words.
      const count: Record<string, () => number> = {
        l: () => (input.text.match(/\n/g) ?? []).length,
        w: () => input.text.split(/\s+/).filter((w) => w !== '').length,
        m: () => [...input.text].length,
        c: () => fileSize(input.text),
        L: () => input.text.split('\n').reduce((max, l) => Math.max(max, l.length), 0),
      };
      return {
        name: input.name === '-' ? (operands.length === 0 ? '' : '-') : input.name,
        counts: kinds.map((k) => count[k]!()),
      };
    });
    if (Math.max(operands.length, 1) > 1)
      rows.push({ name: 'total', counts: kinds.map((_, i) => rows.reduce((a, r) => a + r.counts[i]!, 0)) });
    const piped = inputs.some((i) => i.name === '-');
    const single = kinds.length === 1 && inputs.length + (errors ? 1 : 0) === 1;
    const width = single
      ? 1
      : piped
        ? 7
        : Math.max(1, ...rows.flatMap((r) => r.counts.map((c) => String(c).length)));
    const out = rows
      .map(
        (r) => `${r.counts.map((c) => String(c).padStart(width)).join(' ')}${r.name ? ` ${r.name}` : ''}\n`,
      )
      .join('');
    return result(out, errors);
  });

/** GNU sort fields: without -t a field starts at the blanks before it. */
function sortKey(line: string, field: number, endField: number | undefined, sep: string | undefined): string {
  const fields = sep !== undefined ? line.split(sep) : (line.match(/[ \t]*[^ \t]+|[ \t]+$/g) ?? []);
  const from = field - 1;
  const to = endField === undefined ? fields.length : endField;
  return fields.slice(from, to).join(sep ?? '');
}

function numericPrefix(s: string): number {
  const m = /^\s*([-+]?\d*\.?\d+)/.exec(s);
  return m ? Number(m[1]) : 0;
}

export const sort: CommandHandler = (argv, io) =>
  withUsage('sort', '', 2, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'rnufbhV',
      values: 'ktTo',
      long: {
        reverse: 'r',
        'numeric-sort': 'n',
        unique: 'u',
        'ignore-case': 'f',
        'key=': 'k',
        'field-separator=': 't',
      },
    });
    const { inputs, errors } = readInputs('sort', io, operands);
    if (errors) return result('', errors.replace(/^sort: /gm, 'sort: cannot read: '), 2);
    const keySpec = opts.get('k')?.[0];
    let field = 0;
    let endField: number | undefined;
    if (keySpec !== undefined) {
      const m = /^(\d+)(?:\.\d+)?[a-zA-Z]*(?:,(\d+)(?:\.\d+)?[a-zA-Z]*)?$/.exec(keySpec);
      if (!m || Number(m[1]) === 0)
        return result('', `sort: invalid number at field start: invalid count at start of ‘${keySpec}’\n`, 2);
      field = Number(m[1]);
      endField = m[2] === undefined ? undefined : Number(m[2]);
      if (/n/.test(keySpec)) opts.set('n', ['']);
      if (/r/.test(keySpec.replace(/^\d+/, ''))) opts.set('r', ['']);
    }
    const sep = opts.get('t')?.[0];
    if (sep !== undefined && sep.length !== 1)
      return result('', 'sort: multi-character tab ‘' + sep + '’\n', 2);
    const key = (l: string) => {
      const k = field > 0 ? sortKey(l, field, endField, sep) : l;
      return opts.has('f') ? k.toUpperCase() : k;
    };
    const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const keyCmp = (a: string, b: string) =>
      opts.has('n') ? numericPrefix(key(a)) - numericPrefix(key(b)) : cmpStr(key(a), key(b));
    const sign = opts.has('r') ? -1 : 1;
    const lines = inputs.flatMap((i) => linesOf(i.text));
    // GNU's last-resort comparison of whole lines breaks ties (unless -u, where equal keys merge).
    const sorted = [...lines].sort((a, b) => sign * (keyCmp(a, b) || (opts.has('u') ? 0 : cmpStr(a, b))));
    const out = opts.has('u') ? sorted.filter((l, i) => i === 0 || keyCmp(sorted[i - 1]!, l) !== 0) : sorted;
    return result(joinLines(out));
  });

export const uniq: CommandHandler = (argv, io) =>
  withUsage('uniq', '', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'cdui',
      long: { count: 'c', repeated: 'd', unique: 'u', 'ignore-case': 'i' },
    });
    const { inputs, errors } = readInputs('uniq', io, operands.slice(0, 1));
    const lines = inputs.flatMap((i) => linesOf(i.text));
    const same = (a: string, b: string) => (opts.has('i') ? a.toLowerCase() === b.toLowerCase() : a === b);
    const groups: { line: string; n: number }[] = [];
    for (const l of lines) {
      const last = groups[groups.length - 1];
      if (last && same(last.line, l)) last.n++;
      else groups.push({ line: l, n: 1 });
    }
    const kept = groups.filter((g) => (!opts.has('d') || g.n > 1) && (!opts.has('u') || g.n === 1));
    const out = kept
      .map((g) => (opts.has('c') ? `${String(g.n).padStart(7)} ${g.line}\n` : `${g.line}\n`))
      .join('');
    if (operands[1] !== undefined) {
      const e = io.files?.write(operands[1], out);
      return result('', e ? `uniq: ${operands[1]}: cannot write\n` : errors);
    }
    return result(out, errors);
  });

function parseList(list: string, cmd: string, what: string): ((n: number) => boolean) | string {
  const ranges: [number, number][] = [];
  for (const part of list.split(',')) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || (m[1] === '' && m[3] === '') || part === '') return `${cmd}: invalid field range\n`;
    const from = m[1] === '' ? 1 : Number(m[1]);
    const to = m[2] === '' ? from : m[3] === '' ? Infinity : Number(m[3]);
    if (from === 0) return `${cmd}: ${what} numbered from 1\n`;
    ranges.push([from, to]);
  }
  return (n) => ranges.some(([a, b]) => n >= a && n <= b);
}

export const cut: CommandHandler = (argv, io) =>
  withUsage('cut', '', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 's',
      values: 'dfcb',
      long: { 'delimiter=': 'd', 'fields=': 'f', 'characters=': 'c', 'bytes=': 'b', 'only-delimited': 's' },
    });
    const fields = opts.get('f')?.[0];
    const chars = opts.get('c')?.[0] ?? opts.get('b')?.[0];
    if (fields === undefined && chars === undefined) {
      return result(
        '',
        "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n",
      );
    }
    const delim = opts.get('d')?.[0] ?? '\t';
    if (delim.length !== 1)
      return result(
        '',
        "cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n",
      );
    const picker = parseList(
      fields ?? chars!,
      'cut',
      fields !== undefined ? 'fields are' : 'byte/character positions are',
    );
    if (typeof picker === 'string') return result('', `${picker}Try 'cut --help' for more information.\n`);
    const { inputs, errors } = readInputs('cut', io, operands);
    const out: string[] = [];
    for (const line of inputs.flatMap((i) => linesOf(i.text))) {
      if (chars !== undefined) {
        out.push([...line].filter((_, i) => picker(i + 1)).join(''));
        continue;
      }
      if (!line.includes(delim)) {
        if (!opts.has('s')) out.push(line);
        continue;
      }
      out.push(
        line
          .split(delim)
          .filter((_, i) => picker(i + 1))
          .join(delim),
      );
    }
    return result(joinLines(out), errors);
  });

const CLASSES: Record<string, string> = {
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  digit: '0123456789',
  space: ' \t\n\r\v\f',
  blank: ' \t',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  punct: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
};

function expandSet(set: string): string[] {
  const out: string[] = [];
  const chars: string[] = [];
  for (let i = 0; i < set.length; i++) {
    const c = set[i]!;
    if (c === '\\' && i + 1 < set.length) {
      const e = set[++i]!;
      chars.push(({ n: '\n', t: '\t', r: '\r', '\\': '\\' } as Record<string, string>)[e] ?? e);
      continue;
    }
    const cls = /^\[:([a-z]+):\]/.exec(set.slice(i));
    if (cls && CLASSES[cls[1]!] !== undefined) {
      chars.push(...CLASSES[cls[1]!]!);
      i += cls[0].length - 1;
      continue;
    }
    chars.push(c);
  }
  for (let i = 0; i < chars.length; i++) {
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      const from = chars[i]!.codePointAt(0)!;
      const to = chars[i + 2]!.codePointAt(0)!;
      for (let c = from; c <= to && out.length < 65536; c++) out.push(String.fromCodePoint(c));
      i += 2;
    } else out.push(chars[i]!);
  }
  return out;
}

export const tr: CommandHandler = (argv, io) =>
  withUsage('tr', '', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'dscC',
      long: { delete: 'd', 'squeeze-repeats': 's', complement: 'c' },
    });
    const del = opts.has('d');
    const squeeze = opts.has('s');
    if (operands.length === 0)
      return result('', "tr: missing operand\nTry 'tr --help' for more information.\n");
    if (!del && !squeeze && operands.length < 2) {
      return result(
        '',
        `tr: missing operand after ‘${operands[0]}’\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n`,
      );
    }
    const set1 = expandSet(operands[0]!);
    const set2 = operands[1] === undefined ? [] : expandSet(operands[1]);
    const complement = opts.has('c') || opts.has('C');
    const inSet1 = (c: string) => set1.includes(c) !== complement;
    let out = '';
    let last: string | undefined;
    const squeezeSet = del ? set2 : set2.length > 0 ? set2 : set1;
    for (const c of io.stdin) {
      let ch: string | undefined = c;
      if (del) {
        if (inSet1(c)) ch = undefined;
      } else if (set2.length > 0 && inSet1(c)) {
        const i = complement ? set2.length - 1 : set1.indexOf(c);
        ch = set2[Math.min(i, set2.length - 1)]!;
      }
      if (ch === undefined) continue;
      if (squeeze && ch === last && squeezeSet.includes(ch)) continue;
      out += ch;
      last = ch;
    }
    return result(out);
  });

export const seq: CommandHandler = (argv) => {
  const args = argv.slice(1).filter((a) => !/^-[sw]/.test(a));
  const nums = args.map(Number);
  if (args.length === 0) return result('', "seq: missing operand\nTry 'seq --help' for more information.\n");
  const bad = args.find((a) => a === '' || Number.isNaN(Number(a)));
  if (bad !== undefined)
    return result(
      '',
      `seq: invalid floating point argument: ‘${bad}’\nTry 'seq --help' for more information.\n`,
    );
  const [first, step, last] =
    nums.length === 1
      ? [1, 1, nums[0]!]
      : nums.length === 2
        ? [nums[0]!, 1, nums[1]!]
        : [nums[0]!, nums[1]!, nums[2]!];
  if (step === 0)
    return result(
      '',
      `seq: invalid Zero increment value: ‘${args[1]}’\nTry 'seq --help' for more information.\n`,
    );
  const out: string[] = [];
  for (let v = first; step > 0 ? v <= last : v >= last; v += step) {
    if (out.length >= 100_000)
      return result(joinLines(out), 'seq: stopped after 100000 numbers (the lab shell bounds output)\n');
    out.push(String(Number(v.toFixed(10))));
  }
  return result(joinLines(out));
};

export const base64: CommandHandler = (argv, io) =>
  withUsage('base64', '', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'di',
      values: 'w',
      long: { decode: 'd', 'wrap=': 'w', 'ignore-garbage': 'i' },
    });
    const { inputs, errors } = readInputs('base64', io, operands.slice(0, 1));
    if (errors) return result('', errors);
    const text = inputs[0]?.text ?? '';
    if (opts.has('d')) {
      const clean = opts.has('i') ? text.replace(/[^A-Za-z0-9+/=]/g, '') : text.replace(/\n/g, '');
      // GNU decodes up to the first character outside the alphabet, then fails; `=` may only end the input.
      const end = clean.search(/[^A-Za-z0-9+/]/);
      const bytes = base64Decode(end < 0 ? clean : clean.slice(0, end)) ?? [];
      if (end >= 0 && !/^=*$/.test(clean.slice(end)))
        return result(utf8Decode(bytes), 'base64: invalid input\n');
      return result(utf8Decode(bytes));
    }
    const wrap = Number(opts.get('w')?.[0] ?? 76);
    if (!Number.isInteger(wrap) || wrap < 0)
      throw new UsageError(`invalid wrap size: ‘${opts.get('w')?.[0]}’`);
    const enc = base64Encode(utf8Encode(text));
    if (wrap === 0) return result(enc);
    const lines = enc.match(new RegExp(`.{1,${wrap}}`, 'g')) ?? [];
    return result(enc === '' ? '' : `${lines.join('\n')}\n`);
  });

export const env: CommandHandler = (argv, io) => {
  const extra: [string, string][] = [];
  let i = 1;
  for (; i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]!); i++) {
    const a = argv[i]!;
    extra.push([a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]);
  }
  if (i < argv.length && io.run) {
    const r = io.run(argv.slice(i), io.stdin);
    if (r.exitCode === 127 && /not found/.test(r.stderr))
      return result('', `env: ‘${argv[i]}’: No such file or directory\n`, 127);
    return r;
  }
  const all = { ...io.env, ...Object.fromEntries(extra) };
  return result(
    Object.entries(all)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
};

export const printenv: CommandHandler = (argv, io) => {
  const names = argv.slice(1);
  if (names.length === 0) return env(['env'], io);
  const found = names.filter((n) => io.env[n] !== undefined);
  return result(found.map((n) => `${io.env[n]}\n`).join(''), '', found.length === names.length ? 0 : 1);
};
