/**
 * The reachability matrix: source pods × destination pod:port, from the dataplane's
 * `reachabilityMatrix` cells, with a one-line summary that makes over-permissive ("all allowed: no
 * policy isolates these pods") and over-strict ("all blocked") policies obvious. Pure data for the
 * `<pp-matrix>` grid; verdicts carry a symbol as well as a colour.
 */
import { elementId, objectKey } from '../escape.ts';
import { translator, type Locale } from '../strings.ts';
import type { MatrixCell, ProbeVerdict } from '../../engine/dataplane/network/index.ts';

export type { MatrixCell, ProbeVerdict };

export const VERDICT_SYMBOL: Readonly<Record<ProbeVerdict, string>> = {
  allowed: '✓',
  blocked: '✕',
  refused: '⊘',
};

export interface MatrixColumn {
  readonly key: string;
  readonly pod: string;
  readonly port: number;
  readonly protocol: string;
  readonly label: string;
}

export interface MatrixGridCell {
  readonly from: string;
  readonly to: string;
  readonly port: number;
  readonly protocol: string;
  readonly verdict: ProbeVerdict;
  readonly symbol: string;
  readonly reason: string;
  /** Accessible name: `default/x → default/y port 80: blocked`. */
  readonly label: string;
  /** Diagram ids of both pods (to highlight on the topology). */
  readonly targets: readonly string[];
}

export interface MatrixView {
  readonly rows: readonly string[];
  readonly columns: readonly MatrixColumn[];
  /** `grid[row][column]`; undefined where nothing was probed (a pod to itself). */
  readonly grid: readonly (readonly (MatrixGridCell | undefined)[])[];
  readonly counts: Readonly<Record<ProbeVerdict, number>> & { readonly total: number };
  readonly summary: string;
  readonly summaryKind:
    | 'empty'
    | 'allAllowedNoPolicy'
    | 'allAllowedNotEnforced'
    | 'allAllowedByRules'
    | 'allBlocked'
    | 'mixed';
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function matrixView(
  cells: readonly MatrixCell[],
  locale: Locale,
  opts: { readonly cni?: string } = {},
): MatrixView {
  const t = translator(locale);
  const rowSet = new Set<string>();
  const colMap = new Map<string, MatrixColumn>();
  for (const c of cells) {
    const from = objectKey(c.from.namespace, c.from.name);
    const to = objectKey(c.to.namespace, c.to.name);
    rowSet.add(from);
    rowSet.add(to);
    const key = `${to}:${c.port}/${c.protocol}`;
    if (!colMap.has(key))
      colMap.set(key, {
        key,
        pod: to,
        port: c.port,
        protocol: c.protocol,
        label: `${to}:${c.port}${c.protocol === 'TCP' ? '' : `/${c.protocol}`}`,
      });
  }
  const rows = [...rowSet].sort(cmp);
  const columns = [...colMap.values()].sort(
    (a, b) => cmp(a.pod, b.pod) || a.port - b.port || cmp(a.protocol, b.protocol),
  );
  const rowIndex = new Map(rows.map((r, i) => [r, i]));
  const colIndex = new Map(columns.map((c, i) => [c.key, i]));
  const grid: (MatrixGridCell | undefined)[][] = rows.map(() => columns.map(() => undefined));
  const counts = { allowed: 0, blocked: 0, refused: 0 };
  for (const c of cells) {
    const from = objectKey(c.from.namespace, c.from.name);
    const to = objectKey(c.to.namespace, c.to.name);
    const verdict = c.verdict;
    counts[verdict]++;
    const direction = c.direction ? t(`walk.direction.${c.direction}`) : '';
    grid[rowIndex.get(from)!]![colIndex.get(`${to}:${c.port}/${c.protocol}`)!] = {
      from,
      to,
      port: c.port,
      protocol: c.protocol,
      verdict,
      symbol: VERDICT_SYMBOL[verdict],
      reason: t(`matrix.reason.${c.reason}`, { direction }),
      label: t('matrix.cell', { from, to, port: c.port, verdict: t(`matrix.${verdict}`) }),
      targets: [elementId('pod', from), elementId('pod', to)],
    };
  }
  const total = cells.length;
  let summaryKind: MatrixView['summaryKind'];
  if (total === 0) summaryKind = 'empty';
  else if (counts.allowed === total)
    summaryKind = cells.some((c) => c.reason === 'not-enforced')
      ? 'allAllowedNotEnforced'
      : cells.every((c) => c.reason === 'not-isolated')
        ? 'allAllowedNoPolicy'
        : 'allAllowedByRules';
  else if (counts.blocked === total) summaryKind = 'allBlocked';
  else summaryKind = 'mixed';
  return {
    rows,
    columns,
    grid,
    counts: { ...counts, total },
    summary: t(`matrix.summary.${summaryKind}`, { total, ...counts, cni: opts.cni ?? 'CNI' }),
    summaryKind,
  };
}
