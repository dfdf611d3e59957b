/**
 * Go's text/tabwriter, as kubectl uses it. Cells are tab-terminated; the text after a line's last tab
 * is not a cell and never widens a column (that is why kubectl's last column is not padded). A column
 * block is a run of consecutive lines that have a cell in that column; its width is the widest cell
 * plus padding, at least minwidth. A line without any tab flushes: blocks never span it.
 */

export interface TabwriterOptions {
  readonly minwidth: number;
  readonly padding: number;
  readonly padchar?: string;
}

/** kubectl get's table writer (cli-runtime `GetNewTabWriter`: minwidth 6, tabwidth 4, padding 3, ' '). */
export const TABLE_OPTIONS: TabwriterOptions = { minwidth: 6, padding: 3 };
/** kubectl describe's writer (`tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)`). */
export const DESCRIBE_OPTIONS: TabwriterOptions = { minwidth: 0, padding: 2 };

function width(text: string): number {
  return [...text].length;
}

/** Aligns tab-separated text; every input line becomes one output line. */
export function tabwrite(text: string, opts: TabwriterOptions = TABLE_OPTIONS): string {
  const endsWithNewline = text.endsWith('\n');
  const rawLines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const out: string[] = [];
  let block: string[][] = [];
  const flush = (): void => {
    if (block.length > 0) out.push(...formatBlock(block, opts));
    block = [];
  };
  for (const line of rawLines) {
    const cells = line.split('\t');
    block.push(cells);
    if (cells.length === 1) flush();
  }
  flush();
  return out.join('\n') + (endsWithNewline ? '\n' : '');
}

function formatBlock(lines: string[][], opts: TabwriterOptions): string[] {
  const widths: number[] = [];
  const result: string[] = new Array<string>(lines.length);
  const pad = opts.padchar ?? ' ';
  const writeLines = (line0: number, line1: number): void => {
    for (let i = line0; i < line1; i++) {
      const cells = lines[i]!;
      let s = '';
      for (let j = 0; j < cells.length; j++) {
        const c = cells[j]!;
        s += c;
        if (j < widths.length && j < cells.length - 1) s += pad.repeat(Math.max(0, widths[j]! - width(c)));
      }
      result[i] = s;
    }
  };
  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let t = line0; t < line1; t++) {
      if (column >= lines[t]!.length - 1) continue;
      writeLines(line0, t);
      line0 = t;
      let w = opts.minwidth;
      for (; t < line1; t++) {
        const cells = lines[t]!;
        if (column >= cells.length - 1) break;
        w = Math.max(w, width(cells[column]!) + opts.padding);
      }
      widths.push(w);
      format(line0, t);
      widths.pop();
      line0 = t;
      t--;
    }
    writeLines(line0, line1);
  };
  format(0, lines.length);
  return result;
}
