/**
 * kubectl's human-readable table printer (cli-runtime `HumanReadablePrinter`): one header row of
 * upper-cased column names, priority-1 columns only with `-o wide`, a leading NAMESPACE column with
 * `-A`, `kind/name` in the first cell when several kinds are printed together, and a trailing LABELS
 * column with `--show-labels`. Text goes through the tabwriter.
 */
import type { AnyObject } from '../../api/objects.ts';
import { formatLabels } from '../../api/labels.ts';

export interface Column {
  readonly name: string;
  /** Priority 1: shown only with `-o wide`. */
  readonly wide?: boolean;
}

export interface PrintContext {
  /** Simulated now, in milliseconds (for AGE). */
  readonly now: number;
  readonly wide: boolean;
}

export interface TableDef<T = AnyObject> {
  readonly columns: readonly Column[];
  /** Every cell of every column (wide ones included); undefined prints as an empty cell. */
  row(obj: T, ctx: PrintContext): (string | number | boolean | undefined)[];
}

export interface TableOptions {
  readonly wide: boolean;
  readonly noHeaders: boolean;
  readonly withNamespace: boolean;
  /** `kind.group` prefix for the NAME cell, e.g. `deployment.apps`; undefined for none. */
  readonly kindPrefix?: string;
  readonly showLabels: boolean;
  /** `-L key`: one extra column per key. */
  readonly labelColumns: readonly string[];
}

/** `cellBreakChars`: a cell is cut at its first line break, with `...` appended. */
function cellText(v: string | number | boolean | undefined): string {
  if (v === undefined) return '';
  const s = String(v);
  const br = s.search(/[\n\r\f]/);
  return br >= 0 ? `${s.slice(0, br)}...` : s;
}

/** Header and rows as tab-separated lines (no trailing tabwriter pass). */
export function tableLines<T extends AnyObject>(
  def: TableDef<T>,
  objects: readonly T[],
  opts: TableOptions,
  ctx: PrintContext,
): string[] {
  const visible = def.columns.map((c, i) => ({ c, i })).filter(({ c }) => opts.wide || !c.wide);
  const lines: string[] = [];
  if (!opts.noHeaders && objects.length > 0) {
    const header = visible.map(({ c }) => c.name.toUpperCase());
    if (opts.withNamespace) header.unshift('NAMESPACE');
    for (const key of opts.labelColumns) header.push(key.split('/').pop()!.toUpperCase());
    if (opts.showLabels) header.push('LABELS');
    lines.push(header.join('\t'));
  }
  for (const obj of objects) {
    const cells = def.row(obj, ctx);
    const row = visible.map(({ i }) => cellText(cells[i]));
    if (opts.kindPrefix !== undefined && row.length > 0) row[0] = `${opts.kindPrefix}/${row[0]}`;
    if (opts.withNamespace) row.unshift(obj.metadata.namespace ?? '');
    for (const key of opts.labelColumns) row.push(obj.metadata.labels?.[key] ?? '');
    if (opts.showLabels) row.push(formatLabels(obj.metadata.labels));
    lines.push(row.join('\t'));
  }
  return lines;
}
