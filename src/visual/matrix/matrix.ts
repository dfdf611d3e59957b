/**
 * The reachability matrix in two modes: source pods × destination pod:port (`matrixView`, from the
 * dataplane's `reachabilityMatrix` cells) and source pods × Service port (`serviceMatrixView`, from one
 * probe per cell through ClusterIP:port, see `host.ts`), each with a one-line summary that makes
 * over-permissive ("all allowed: no policy isolates these pods") and over-strict ("all blocked")
 * policies obvious. Pure data for the `<pp-matrix>` grid; verdicts carry a symbol as well as a colour.
 */
import { elementId, objectKey } from '../escape.ts';
import { translator, type Locale } from '../strings.ts';
import type { ServiceMatrixCell } from '../state.ts';
import type { MatrixCell, ProbeVerdict } from '../../engine/index.ts';

export type { MatrixCell, ProbeVerdict, ServiceMatrixCell };

export type MatrixMode = 'pods' | 'services';

export { MAX_MATRIX_PODS } from './limits.ts';

export const VERDICT_SYMBOL: Readonly<Record<ProbeVerdict, string>> = {
  allowed: '✓',
  blocked: '✕',
  refused: '⊘',
};

export interface MatrixColumn {
  readonly key: string;
  /** The destination: a pod or a Service, `namespace/name`. */
  readonly target: string;
  readonly port: number;
  readonly protocol: string;
  readonly label: string;
  /** The address a trace of this column connects to (the ClusterIP of a Service column). */
  readonly address?: string;
}

export interface MatrixGridCell {
  readonly from: string;
  readonly to: string;
  /** Where a trace of this cell connects (the ClusterIP of a Service cell); absent: the pod's IP. */
  readonly address?: string;
  readonly port: number;
  readonly protocol: string;
  readonly verdict: ProbeVerdict;
  readonly symbol: string;
  readonly reason: string;
  /** Accessible name: `default/x → default/y port 80: blocked`. */
  readonly label: string;
  /** Diagram ids of both pods, or of the pod, the Service and the endpoint's pod (to highlight on the topology). */
  readonly targets: readonly string[];
}

export interface MatrixView {
  readonly rows: readonly string[];
  readonly columns: readonly MatrixColumn[];
  /** `grid[row][column]`; undefined where nothing was probed (a pod to itself). */
  readonly grid: readonly (readonly (MatrixGridCell | undefined)[])[];
  readonly counts: Readonly<Record<ProbeVerdict, number>> & { readonly total: number };
  readonly summary: string;
  readonly mode: MatrixMode;
  readonly summaryKind:
    | 'empty'
    | 'allAllowedNoPolicy'
    | 'allAllowedNotEnforced'
    | 'allAllowedByRules'
    | 'allBlocked'
    | 'mixed';
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One drawn cell and where it goes: its row (the source pod) and its column. */
interface Placed {
  readonly row: string;
  readonly column: MatrixColumn;
  readonly cell: MatrixGridCell;
}

const portLabel = (port: number, protocol: string) => `${port}${protocol === 'TCP' ? '' : `/${protocol}`}`;

/** Rows and columns sorted, the grid filled, the verdicts counted and summed up in one line. */
function assemble(
  mode: MatrixMode,
  rowKeys: Iterable<string>,
  placed: readonly Placed[],
  reasons: readonly { readonly reason: string }[],
  locale: Locale,
  opts: { readonly cni?: string },
): MatrixView {
  const t = translator(locale);
  const rows = [...new Set(rowKeys)].sort(cmp);
  const columns = [...new Map(placed.map((p) => [p.column.key, p.column])).values()].sort(
    (a, b) => cmp(a.target, b.target) || a.port - b.port || cmp(a.protocol, b.protocol),
  );
  const rowIndex = new Map(rows.map((r, i) => [r, i]));
  const colIndex = new Map(columns.map((c, i) => [c.key, i]));
  const grid: (MatrixGridCell | undefined)[][] = rows.map(() => columns.map(() => undefined));
  const counts = { allowed: 0, blocked: 0, refused: 0 };
  for (const p of placed) {
    counts[p.cell.verdict]++;
    grid[rowIndex.get(p.row)!]![colIndex.get(p.column.key)!] = p.cell;
  }
  const total = placed.length;
  let summaryKind: MatrixView['summaryKind'];
  if (total === 0) summaryKind = 'empty';
  else if (counts.allowed === total)
    summaryKind = reasons.some((c) => c.reason === 'not-enforced')
      ? 'allAllowedNotEnforced'
      : reasons.every((c) => c.reason === 'not-isolated')
        ? 'allAllowedNoPolicy'
        : 'allAllowedByRules';
  else if (counts.blocked === total) summaryKind = 'allBlocked';
  else summaryKind = 'mixed';
  return {
    mode,
    rows,
    columns,
    grid,
    counts: { ...counts, total },
    summary:
      summaryKind === 'empty' && mode === 'services'
        ? t('matrix.summary.servicesEmpty')
        : t(`matrix.summary.${summaryKind}`, { total, ...counts, cni: opts.cni ?? 'CNI' }),
    summaryKind,
  };
}

export function matrixView(
  cells: readonly MatrixCell[],
  locale: Locale,
  opts: { readonly cni?: string } = {},
): MatrixView {
  const t = translator(locale);
  const rowKeys: string[] = [];
  const placed = cells.map((c): Placed => {
    const from = objectKey(c.from.namespace, c.from.name);
    const to = objectKey(c.to.namespace, c.to.name);
    rowKeys.push(from, to);
    const direction = c.direction ? t(`walk.direction.${c.direction}`) : '';
    return {
      row: from,
      column: {
        key: `${to}:${c.port}/${c.protocol}`,
        target: to,
        port: c.port,
        protocol: c.protocol,
        label: `${to}:${portLabel(c.port, c.protocol)}`,
      },
      cell: {
        from,
        to,
        port: c.port,
        protocol: c.protocol,
        verdict: c.verdict,
        symbol: VERDICT_SYMBOL[c.verdict],
        reason: t(`matrix.reason.${c.reason}`, { direction }),
        label: t('matrix.cell', { from, to, port: c.port, verdict: t(`matrix.${c.verdict}`) }),
        targets: [elementId('pod', from), elementId('pod', to)],
      },
    };
  });
  return assemble('pods', rowKeys, placed, cells, locale, opts);
}

/**
 * Source pods × Service ports. A cell is one connection to ClusterIP:port: kube-proxy picks one endpoint
 * and the verdict is that connection's; its reason names the endpoint, so a Service whose backends are not
 * all reachable shows which one the probe met. Column label: `default/web:http 10.96.0.10:80`.
 */
export function serviceMatrixView(
  cells: readonly ServiceMatrixCell[],
  locale: Locale,
  opts: { readonly cni?: string } = {},
): MatrixView {
  const t = translator(locale);
  const placed = cells.map((c): Placed => {
    const address = `${c.clusterIP}:${portLabel(c.port, c.protocol)}`;
    const direction = c.direction ? t(`walk.direction.${c.direction}`) : '';
    const reason = t(`matrix.reason.${c.reason}`, { direction });
    const via = c.backend
      ? t('matrix.svc.backend', {
          backend: c.backend.pod ?? c.backend.node ?? '',
          address: c.backend.address,
        })
      : '';
    return {
      row: c.from,
      column: {
        key: `${c.service}:${c.port}/${c.protocol}`,
        target: c.service,
        port: c.port,
        protocol: c.protocol,
        label: `${c.service}${c.portName ? `:${c.portName}` : ''} ${address}`,
        address: c.clusterIP,
      },
      cell: {
        from: c.from,
        to: c.service,
        address: c.clusterIP,
        port: c.port,
        protocol: c.protocol,
        verdict: c.verdict,
        symbol: VERDICT_SYMBOL[c.verdict],
        reason: via ? `${reason}; ${via}` : reason,
        label: t('matrix.svcCell', {
          from: c.from,
          service: c.service,
          address,
          verdict: t(`matrix.${c.verdict}`),
        }),
        targets: [
          elementId('pod', c.from),
          elementId('svc', c.service),
          ...(c.backend?.pod ? [elementId('pod', c.backend.pod)] : []),
        ],
      },
    };
  });
  return assemble(
    'services',
    placed.map((p) => p.row),
    placed,
    cells,
    locale,
    opts,
  );
}
