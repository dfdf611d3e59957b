/**
 * Go's `time.Parse(time.RFC3339, s)` as kubectl's `util.ParseRFC3339` calls it (`logs --since-time`):
 * the general layout parser, element by element, so a bad value fails with Go's own `*time.ParseError`
 * text (`parsing time "abc" as "2006-01-02T15:04:05Z07:00": cannot parse "abc" as "2006"`, or
 * `parsing time "…": month out of range`).
 */
const LAYOUT = '2006-01-02T15:04:05Z07:00';

type Parsed = { ok: true; ms: number } | { ok: false; error: string };

/** Go's `quote` in ParseError: the value in double quotes, `"` and `\` escaped. */
function quote(s: string): string {
  return `"${s.replace(/[\\"]/g, '\\$&')}"`;
}

function cannotParse(value: string, valueElem: string, layoutElem: string): Parsed {
  return {
    ok: false,
    error: `parsing time ${quote(value)} as ${quote(LAYOUT)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`,
  };
}

function outOfRange(value: string, what: string): Parsed {
  return { ok: false, error: `parsing time ${quote(value)}: ${what} out of range` };
}

const isDigit = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';

/** Go's `getnum`: one or two digits, exactly two when `fixed`. */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Milliseconds since the epoch, or Go's error text. */
export function parseRFC3339(value: string): Parsed {
  let rest = value;
  const literal = (sep: string): boolean => {
    if (!rest.startsWith(sep)) return false;
    rest = rest.slice(sep.length);
    return true;
  };
  if (rest.length < 4 || !isDigit(rest, 0) || !/^\d{4}$/.test(rest.slice(0, 4)))
    return cannotParse(value, rest, '2006');
  const year = Number(rest.slice(0, 4));
  rest = rest.slice(4);
  // The numeric elements in layout order: separator before, layout text, fixed width, range check.
  const fields: [string, string, boolean, number, string][] = [
    ['-', '01', true, 12, 'month'],
    ['-', '02', true, 31, ''],
    ['T', '15', false, 23, 'hour'],
    [':', '04', true, 59, 'minute'],
    [':', '05', true, 59, 'second'],
  ];
  const nums: number[] = [];
  for (const [sep, elem, fixed, max, what] of fields) {
    if (!literal(sep)) return cannotParse(value, rest, sep);
    const got = getnum(rest, fixed);
    if (!got) return cannotParse(value, rest, elem);
    if (what !== '' && (got.n > max || (what === 'month' && got.n === 0))) return outOfRange(value, what);
    nums.push(got.n);
    rest = got.rest;
  }
  const [month, day, hour, minute, second] = nums as [number, number, number, number, number];
  let frac = 0;
  // Go accepts fractional seconds after the seconds even when the layout has none.
  const fm = /^[.,](\d+)/.exec(rest);
  if (fm) {
    frac = Number(`0.${fm[1]}`);
    rest = rest.slice(fm[0].length);
  }
  let offsetMin = 0;
  if (rest.startsWith('Z')) rest = rest.slice(1);
  else {
    if (rest.length < 6 || rest[3] !== ':' || (rest[0] !== '+' && rest[0] !== '-'))
      return cannotParse(value, rest, 'Z07:00');
    const hh = getnum(rest.slice(1, 3), true);
    const mm = getnum(rest.slice(4, 6), true);
    if (!hh || !mm) return cannotParse(value, rest, 'Z07:00');
    if (hh.n > 24) return outOfRange(value, 'time zone offset hour');
    if (mm.n > 60) return outOfRange(value, 'time zone offset minute');
    offsetMin = (rest[0] === '-' ? -1 : 1) * (hh.n * 60 + mm.n);
    rest = rest.slice(6);
  }
  if (rest !== '') return { ok: false, error: `parsing time ${quote(value)}: extra text: ${quote(rest)}` };
  if (day < 1 || day > daysIn(month, year)) return outOfRange(value, 'day');
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as they are.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, Math.floor(frac * 1000));
  return { ok: true, ms: d.getTime() - offsetMin * 60_000 };
}
