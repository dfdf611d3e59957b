/**
 * Deterministic layout at lab size: a 900-unit-wide canvas, top to bottom in the order a packet from
 * outside meets things (note 002's diagram): the way in (north-south), the Services row with the DNAT
 * mark, the node frames with their pods, the overlay drawn once under the frames, the NetworkPolicies,
 * the legend. Only arithmetic on the model's sorted lists: same model, same boxes.
 *
 * Beyond four nodes the frames wrap into balanced rows of one grid (5 → 3 + 2, 9 → 3 × 3), and edges are
 * routed, not drawn straight: an edge runs in the channels between rows of frames and the gutters between
 * columns, and enters only the frame of the pod it ends at, so it never crosses a node it does not
 * connect. The overlay stays one drawing: a bus under each row of frames joined by a trunk in the left
 * margin.
 */
import type { TopologyModel, TopoNode, TopoPodGroup, TopoPod } from './types.ts';

export const WIDTH = 900;
const M = 12;
const GAP = 12;

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export type NodeItem =
  | { readonly kind: 'pod'; readonly pod: TopoPod; readonly box: Box }
  | { readonly kind: 'group'; readonly group: TopoPodGroup; readonly box: Box }
  | { readonly kind: 'more'; readonly count: number; readonly box: Box };

export interface NodeLayout {
  readonly node: TopoNode;
  readonly box: Box;
  readonly items: readonly NodeItem[];
  readonly hostLineY: number;
  /** A narrow frame (four in a row) puts the node IP and the pod CIDR on two lines. */
  readonly twoLineHeader: boolean;
}

/** A routed edge: an orthogonal polyline from its source box to the pod boxes it connects. */
export interface Route {
  /** `ew` Service → pods, `dns` kube-dns → CoreDNS, `pol` NetworkPolicy → selected pods. */
  readonly kind: 'ew' | 'dns' | 'pol';
  /** Model id of the source (the Service or the NetworkPolicy). */
  readonly from: string;
  /** Model ids of the pods drawn in the box it ends at (a group box stands for several). */
  readonly to: readonly string[];
  /** The node whose frame it enters. */
  readonly node: string;
  readonly points: readonly (readonly [number, number])[];
}

export interface OverlayLayout {
  /** Horizontal buses (one per row of frames) and the trunk joining them, as line segments. */
  readonly lines: readonly (readonly [number, number, number, number])[];
  /** Each frame's tick from its bottom edge down to its row's bus. */
  readonly ticks: readonly (readonly [number, number, number, number])[];
}

export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly internet?: Box;
  readonly entries: ReadonlyMap<string, Box>;
  readonly servicesLabelY?: number;
  readonly services: ReadonlyMap<string, Box>;
  readonly nodes: readonly NodeLayout[];
  readonly overlayY?: number;
  readonly overlay?: OverlayLayout;
  readonly routes: readonly Route[];
  readonly unscheduledY?: number;
  readonly policies: ReadonlyMap<string, Box>;
  readonly legendY: number;
  /** Where each pod is drawn (its own box, or its group's). */
  readonly podBox: ReadonlyMap<string, Box>;
}

export const POD_H = 34;
const MAX_ITEMS = 12;

/** Boxes of width `w` in rows across the canvas, starting at `y`; returns the boxes and the bottom. */
function rows(
  count: number,
  w: number,
  h: number,
  y: number,
  x0 = M,
  vgap = GAP,
): { boxes: Box[]; bottom: number } {
  const perRow = Math.max(1, Math.floor((WIDTH - x0 - M + GAP) / (w + GAP)));
  const boxes: Box[] = [];
  for (let i = 0; i < count; i++) {
    const r = Math.floor(i / perRow);
    const c = i % perRow;
    boxes.push({ x: x0 + c * (w + GAP), y: y + r * (h + vgap), w, h });
  }
  const nRows = Math.ceil(count / perRow);
  return { boxes, bottom: count === 0 ? y : y + nRows * (h + vgap) - vgap };
}

/** Frames per row: one row up to four nodes, then balanced rows of at most four (5 → 3 + 2). */
export function framesPerRow(nodes: number): number {
  const rowsNeeded = Math.max(1, Math.ceil(nodes / 4));
  return Math.max(1, Math.ceil(nodes / rowsNeeded));
}

/** Room between two rows of frames: the overlay bus, then policy lanes, then Service lanes. */
const ROW_GAP = 60;
/** Parallel lanes in a channel, 3 units apart, so edges of different sources stay apart. */
const LANES = 5;

export function layoutTopology(model: TopologyModel): Layout {
  let y = M;
  const entries = new Map<string, Box>();
  let internet: Box | undefined;
  if (model.entries.length > 0) {
    internet = { x: M, y, w: 150, h: 52 };
    const r = rows(model.entries.length, 220, 52, y, M + 150 + 36);
    model.entries.forEach((e, i) => entries.set(e.id, r.boxes[i]!));
    y = r.bottom + 40;
  }
  let servicesLabelY: number | undefined;
  const services = new Map<string, Box>();
  const svcs = [...model.services].sort((a, b) => Number(b.dns) - Number(a.dns));
  if (svcs.length > 0) {
    servicesLabelY = y + 10;
    y += 34;
    // Rows of Services leave room for the `→ :targetPort` label under each box.
    const r = rows(svcs.length, 208, 58, y, M, 28);
    svcs.forEach((s, i) => services.set(s.id, r.boxes[i]!));
    y = r.bottom + 44;
  }
  const perRow = framesPerRow(model.nodes.length);
  const frameW = (WIDTH - 2 * M - (perRow - 1) * GAP) / perRow;
  const cols = Math.max(1, Math.floor((frameW - 16 + 8) / (124 + 8)));
  const podW = (frameW - 16 - (cols - 1) * 8) / cols;
  // `node IP 172.18.0.12 · pods 10.244.12.0/24` needs about 280 units; a narrower frame wraps it.
  const twoLineHeader = frameW < 280;
  const head = twoLineHeader ? 62 : 48;
  const podBox = new Map<string, Box>();
  const podNode = new Map<string, string>();
  const nodes: NodeLayout[] = [];
  /** Top and bottom of each row of frames. */
  const rowSpans: { top: number; bottom: number }[] = [];
  for (let r = 0; r * perRow < model.nodes.length; r++) {
    if (r > 0) y += ROW_GAP - GAP;
    const rowNodes = model.nodes.slice(r * perRow, (r + 1) * perRow);
    const itemsOf = (n: TopoNode) => (n.groups ? n.groups.length : n.pods.length);
    const maxItems = Math.max(1, ...rowNodes.map((n) => Math.min(MAX_ITEMS, itemsOf(n))));
    const podRows = Math.ceil(maxItems / cols);
    const frameH = head + podRows * (POD_H + 6) + 24;
    rowSpans.push({ top: y, bottom: y + frameH });
    rowNodes.forEach((node, c) => {
      const box = { x: M + c * (frameW + GAP), y, w: frameW, h: frameH };
      const items: NodeItem[] = [];
      const at = (i: number): Box => ({
        x: box.x + 8 + (i % cols) * (podW + 8),
        y: box.y + head + Math.floor(i / cols) * (POD_H + 6),
        w: podW,
        h: POD_H,
      });
      const place = (key: string, b: Box) => {
        podBox.set(key, b);
        podNode.set(key, node.name);
      };
      const list: (TopoPod | TopoPodGroup)[] = node.groups ? [...node.groups] : [...node.pods];
      const shown = list.length > MAX_ITEMS ? list.slice(0, MAX_ITEMS - 1) : list;
      shown.forEach((it, i) => {
        const b = at(i);
        if ('podKeys' in it) {
          items.push({ kind: 'group', group: it, box: b });
          for (const k of it.podKeys) place(k, b);
        } else {
          items.push({ kind: 'pod', pod: it, box: b });
          place(it.key, b);
        }
      });
      if (list.length > shown.length) {
        const b = at(shown.length);
        items.push({ kind: 'more', count: list.length - shown.length, box: b });
        for (const it of list.slice(shown.length))
          for (const k of 'podKeys' in it ? it.podKeys : [it.key]) place(k, b);
      }
      nodes.push({ node, box, items, hostLineY: box.y + frameH - 10, twoLineHeader });
    });
    y += frameH + GAP;
  }
  let overlayY: number | undefined;
  let overlay: OverlayLayout | undefined;
  if (model.nodes.length > 0) {
    overlayY = y + 12;
    overlay = overlayLines(nodes, rowSpans, perRow, overlayY);
    y += 44;
  }
  let unscheduledY: number | undefined;
  if (model.unscheduled.length > 0) {
    unscheduledY = y + 4;
    y += 22;
  }
  const policies = new Map<string, Box>();
  if (model.policies.length > 0) {
    y += 20;
    const r = rows(model.policies.length, 284, 64, y);
    model.policies.forEach((p, i) => policies.set(p.id, r.boxes[i]!));
    y = r.bottom + 16;
  }
  const legendY = y + 6;
  const grid: Grid = { perRow, frameW, rowSpans, podBox, podNode, policiesTop: policyTop(policies) };
  const routes = [
    ...svcs.flatMap((s, i) => {
      const from = services.get(s.id);
      return from ? routesFrom(grid, model, from, s.id, s.backends, s.dns ? 'dns' : 'ew', i) : [];
    }),
    ...model.policies.flatMap((p, i) => {
      const from = policies.get(p.id);
      return from ? routesFrom(grid, model, from, p.id, p.selects, 'pol', i) : [];
    }),
  ];
  return {
    width: WIDTH,
    height: legendY + 44,
    ...(internet ? { internet } : {}),
    entries,
    ...(servicesLabelY !== undefined ? { servicesLabelY } : {}),
    services,
    nodes,
    ...(overlayY !== undefined ? { overlayY } : {}),
    ...(overlay ? { overlay } : {}),
    routes,
    ...(unscheduledY !== undefined ? { unscheduledY } : {}),
    policies,
    legendY,
    podBox,
  };
}

interface Grid {
  readonly perRow: number;
  readonly frameW: number;
  readonly rowSpans: readonly { readonly top: number; readonly bottom: number }[];
  readonly podBox: ReadonlyMap<string, Box>;
  readonly podNode: ReadonlyMap<string, string>;
  readonly policiesTop: number;
}

const policyTop = (policies: ReadonlyMap<string, Box>) =>
  Math.min(Infinity, ...[...policies.values()].map((b) => b.y));

/**
 * One bus per row of frames (under it, in the channel to the next row) from the trunk in the left margin
 * to the row's last frame, and a tick from each frame down to its bus. One row: a bus between the first
 * and the last frame, as on a one-row diagram.
 */
function overlayLines(
  nodes: readonly NodeLayout[],
  rowSpans: readonly { readonly top: number; readonly bottom: number }[],
  perRow: number,
  lastBusY: number,
): OverlayLayout {
  const centre = (n: NodeLayout) => n.box.x + n.box.w / 2;
  const busY = (r: number) => (r === rowSpans.length - 1 ? lastBusY : rowSpans[r]!.bottom + 12);
  const lines: [number, number, number, number][] = [];
  const ticks: [number, number, number, number][] = [];
  if (nodes.length < 2) return { lines, ticks };
  const trunkX = M / 2;
  rowSpans.forEach((_, r) => {
    const row = nodes.slice(r * perRow, (r + 1) * perRow);
    const y = busY(r);
    const x0 = rowSpans.length > 1 ? trunkX : centre(row[0]!);
    lines.push([x0, y, Math.max(...row.map(centre)), y]);
    for (const n of row) ticks.push([centre(n), n.box.y + n.box.h, centre(n), y]);
  });
  if (rowSpans.length > 1) lines.push([trunkX, busY(0), trunkX, busY(rowSpans.length - 1)]);
  return { lines, ticks };
}

/**
 * Edges from a Service (above the frames) or a NetworkPolicy (below them) to the boxes of the pods it
 * reaches, one per distinct box. Down from a Service: to a lane in the channel above the first row; to a
 * pod of a lower row, along the gutter nearest the pod to the channel above its row; then over to the
 * pod and into its frame. Up from a policy the same way through the channels under the rows.
 */
function routesFrom(
  g: Grid,
  model: TopologyModel,
  from: Box,
  fromId: string,
  podKeys: readonly string[],
  kind: Route['kind'],
  index: number,
): Route[] {
  const podId = new Map(model.nodes.flatMap((n) => n.pods).map((p) => [p.key, p.id]));
  const byBox = new Map<string, { box: Box; ids: string[]; node: string }>();
  for (const k of podKeys) {
    const b = g.podBox.get(k);
    if (!b) continue;
    const key = `${b.x},${b.y}`;
    const entry = byBox.get(key) ?? { box: b, ids: [], node: g.podNode.get(k) ?? '' };
    entry.ids.push(podId.get(k) ?? '');
    byBox.set(key, entry);
  }
  const lane = (index % LANES) * 3;
  const last = g.rowSpans.length - 1;
  const rowOf = (b: Box) =>
    Math.max(
      0,
      g.rowSpans.findIndex((r) => b.y >= r.top && b.y <= r.bottom),
    );
  const gutter = (b: Box) => {
    const cx = b.x + b.w / 2;
    let best = M + (g.frameW + GAP) - GAP / 2;
    // Gutter j lies between frame columns j-1 and j; the left margin (j = 0) carries the overlay trunk.
    for (let j = 1; j <= g.perRow; j++) {
      const x = M + j * (g.frameW + GAP) - GAP / 2;
      if (Math.abs(x - cx) < Math.abs(best - cx)) best = x;
    }
    return best;
  };
  const routes: Route[] = [];
  const sorted = [...byBox.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [, { box: b, ids, node }] of sorted) {
    const r = rowOf(b);
    const px = b.x + b.w / 2;
    const fx = from.x + from.w / 2;
    const pts: [number, number][] = [];
    if (kind === 'pol') {
      const below = (row: number) =>
        row === last ? g.policiesTop - 10 - lane : g.rowSpans[row]!.bottom + 22 + lane;
      pts.push([fx, from.y], [fx, below(last)]);
      if (r !== last) {
        // Policies keep to the right half of a gutter, Services to the left: they never overlap.
        const gx = gutter(b) + 2;
        pts.push([gx, below(last)], [gx, below(r)]);
      }
      pts.push([px, below(r)], [px, b.y + b.h]);
    } else {
      const above = (row: number) => g.rowSpans[row]!.top - 8 - lane;
      pts.push([fx, from.y + from.h], [fx, above(0)]);
      if (r !== 0) {
        const gx = gutter(b) - 2;
        pts.push([gx, above(0)], [gx, above(r)]);
      }
      pts.push([px, above(r)], [px, b.y]);
    }
    routes.push({ kind, from: fromId, to: ids, node, points: pts });
  }
  return routes;
}
