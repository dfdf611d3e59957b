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
import type { MatrixCell, ProbeVerdict } from '../../engine/dataplane/network/index.ts';

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
        target: to,
        port: c.port,
        protocol: c.protocol,
        label: `${to}:${c.port}${c.protocol === 'TCP' ? '' : `/${c.protocol}`}`,
      });
  }
  const rows = [...rowSet].sort(cmp);
  const columns = [...colMap.values()].sort(
    (a, b) => cmp(a.target, b.target) || a.port - b.port || cmp(a.protocol, b.protocol),
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
  const summaryKind = summaryKindOf(cells, counts);
  return {
    mode: 'pods',
    rows,
    columns,
    grid,
    counts: { ...counts, total: cells.length },
    summary: t(`matrix.summary.${summaryKind}`, { total: cells.length, ...counts, cni: opts.cni ?? 'CNI' }),
    summaryKind,
  };
}

function summaryKindOf(
  cells: readonly { readonly reason: string }[],
  counts: Readonly<Record<ProbeVerdict, number>>,
): MatrixView['summaryKind'] {
  const total = cells.length;
  if (total === 0) return 'empty';
  if (counts.allowed === total)
    return cells.some((c) => c.reason === 'not-enforced')
      ? 'allAllowedNotEnforced'
      : cells.every((c) => c.reason === 'not-isolated')
        ? 'allAllowedNoPolicy'
        : 'allAllowedByRules';
  if (counts.blocked === total) return 'allBlocked';
  return 'mixed';
}

/** A Service port's column label: `default/web:http 10.96.0.10:80` (`/UDP` when not TCP). */
function serviceColumnLabel(c: ServiceMatrixCell): string {
  return `${c.service}${c.portName ? `:${c.portName}` : ''} ${c.clusterIP}:${c.port}${c.protocol === 'TCP' ? '' : `/${c.protocol}`}`;
}

/**
 * Source pods × Service ports. A cell is one connection to ClusterIP:port: kube-proxy picks one endpoint
 * and the verdict is that connection's; its reason names the endpoint, so a Service whose backends are not
 * all reachable shows which one the probe met.
 */
export function serviceMatrixView(
  cells: readonly ServiceMatrixCell[],
  locale: Locale,
  opts: { readonly cni?: string } = {},
): MatrixView {
  const t = translator(locale);
  const rows = [...new Set(cells.map((c) => c.from))].sort(cmp);
  const colMap = new Map<string, MatrixColumn>();
  for (const c of cells) {
    const key = `${c.service}:${c.port}/${c.protocol}`;
    if (!colMap.has(key))
      colMap.set(key, {
        key,
        target: c.service,
        port: c.port,
        protocol: c.protocol,
        label: serviceColumnLabel(c),
        address: c.clusterIP,
      });
  }
  const columns = [...colMap.values()].sort(
    (a, b) => cmp(a.target, b.target) || a.port - b.port || cmp(a.protocol, b.protocol),
  );
  const rowIndex = new Map(rows.map((r, i) => [r, i]));
  const colIndex = new Map(columns.map((c, i) => [c.key, i]));
  const grid: (MatrixGridCell | undefined)[][] = rows.map(() => columns.map(() => undefined));
  const counts = { allowed: 0, blocked: 0, refused: 0 };
  for (const c of cells) {
    counts[c.verdict]++;
    const direction = c.direction ? t(`walk.direction.${c.direction}`) : '';
    const reason = t(`matrix.reason.${c.reason}`, { direction });
    const via = c.backend
      ? t('matrix.svc.backend', {
          backend: c.backend.pod ?? c.backend.node ?? '',
          address: c.backend.address,
        })
      : '';
    grid[rowIndex.get(c.from)!]![colIndex.get(`${c.service}:${c.port}/${c.protocol}`)!] = {
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
        address: `${c.clusterIP}:${c.port}${c.protocol === 'TCP' ? '' : `/${c.protocol}`}`,
        verdict: t(`matrix.${c.verdict}`),
      }),
      targets: [
        elementId('pod', c.from),
        elementId('svc', c.service),
        ...(c.backend?.pod ? [elementId('pod', c.backend.pod)] : []),
      ],
    };
  }
  const summaryKind = summaryKindOf(cells, counts);
  return {
    mode: 'services',
    rows,
    columns,
    grid,
    counts: { ...counts, total: cells.length },
    summary:
      summaryKind === 'empty'
        ? t('matrix.summary.servicesEmpty')
        : t(`matrix.summary.${summaryKind}`, { total: cells.length, ...counts, cni: opts.cni ?? 'CNI' }),
    summaryKind,
  };
}
