/**
 * CSV as RFC 4180 writes and reads it: fields separated by commas, records by CRLF, a field with a
 * comma, a quote or a line break quoted, quotes inside doubled. Cells go to spreadsheets (Excel,
 * Sheets, LibreOffice) that run a cell starting with `=`, `+`, `-`, `@`, a tab or a CR as a formula
 * (OWASP "CSV Injection"), and learner names come from the learners: such text cells get a leading `'`.
 * Numbers are written as numbers, so a negative score stays a number.
 */

export type CsvValue = string | number | undefined;

/** One field: numbers as they are, text made formula-safe, then quoted when it needs to be. */
export function csvCell(value: CsvValue): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Whole CSV text: the header, then the records, every line ended by CRLF (RFC 4180 §2.1–2.3). */
export function csvText(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((r) => `${r.map(csvCell).join(',')}\r\n`).join('');
}

export class CsvError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(message);
    this.name = 'CsvError';
    this.line = line;
  }
}

/**
 * Parses CSV text into records of fields (RFC 4180, plus LF-only line ends and a UTF-8 BOM, which
 * spreadsheets write). A quote inside an unquoted field or an unterminated quoted field is a CsvError
 * naming the line where the record starts. Blank lines are skipped.
 */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: { line: number; fields: string[] }[] = [];
  let line = 1;
  let i = 0;
  while (i < src.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (src[i] === '"') {
        i++;
        for (;;) {
          if (i >= src.length) throw new CsvError(start, 'unterminated quoted field');
          const c = src[i]!;
          if (c === '"') {
            if (src[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        if (i < src.length && src[i] !== ',' && src[i] !== '\r' && src[i] !== '\n')
          throw new CsvError(start, 'text after a closing quote (a quote inside a field must be doubled)');
      } else {
        while (i < src.length && src[i] !== ',' && src[i] !== '\r' && src[i] !== '\n') {
          if (src[i] === '"') throw new CsvError(start, 'a quote inside an unquoted field');
          field += src[i];
          i++;
        }
      }
      fields.push(field);
      if (src[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (src[i] === '\r') i++;
    if (src[i] === '\n') i++;
    line++;
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: start, fields });
  }
  return records;
}
