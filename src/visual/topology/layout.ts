/**
 * Deterministic layout at lab size: a 900-unit-wide canvas, top to bottom in the order a packet from
 * outside meets things (note 002's diagram): the way in (north-south), the Services row with the DNAT
 * mark, the node frames with their pods, the overlay drawn once under the frames, the NetworkPolicies,
 * the legend. Only arithmetic on the model's sorted lists: same model, same boxes.
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
  const perRow = Math.min(4, Math.max(1, model.nodes.length));
  const frameW = (WIDTH - 2 * M - (perRow - 1) * GAP) / perRow;
  const cols = Math.max(1, Math.floor((frameW - 16 + 8) / (124 + 8)));
  const podW = (frameW - 16 - (cols - 1) * 8) / cols;
  const podBox = new Map<string, Box>();
  const nodes: NodeLayout[] = [];
  for (let r = 0; r * perRow < model.nodes.length; r++) {
    const rowNodes = model.nodes.slice(r * perRow, (r + 1) * perRow);
    const itemsOf = (n: TopoNode) => (n.groups ? n.groups.length : n.pods.length);
    const maxItems = Math.max(1, ...rowNodes.map((n) => Math.min(MAX_ITEMS, itemsOf(n))));
    const podRows = Math.ceil(maxItems / cols);
    const frameH = 48 + podRows * (POD_H + 6) + 24;
    rowNodes.forEach((node, c) => {
      const box = { x: M + c * (frameW + GAP), y, w: frameW, h: frameH };
      const items: NodeItem[] = [];
      const at = (i: number): Box => ({
        x: box.x + 8 + (i % cols) * (podW + 8),
        y: box.y + 48 + Math.floor(i / cols) * (POD_H + 6),
        w: podW,
        h: POD_H,
      });
      const list: (TopoPod | TopoPodGroup)[] = node.groups ? [...node.groups] : [...node.pods];
      const shown = list.length > MAX_ITEMS ? list.slice(0, MAX_ITEMS - 1) : list;
      shown.forEach((it, i) => {
        const b = at(i);
        if ('podKeys' in it) {
          items.push({ kind: 'group', group: it, box: b });
          for (const k of it.podKeys) podBox.set(k, b);
        } else {
          items.push({ kind: 'pod', pod: it, box: b });
          podBox.set(it.key, b);
        }
      });
      if (list.length > shown.length) {
        const b = at(shown.length);
        items.push({ kind: 'more', count: list.length - shown.length, box: b });
        for (const it of list.slice(shown.length))
          for (const k of 'podKeys' in it ? it.podKeys : [it.key]) podBox.set(k, b);
      }
      nodes.push({ node, box, items, hostLineY: box.y + frameH - 10 });
    });
    y += frameH + GAP;
  }
  let overlayY: number | undefined;
  if (model.nodes.length > 0) {
    overlayY = y + 12;
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
  return {
    width: WIDTH,
    height: legendY + 44,
    ...(internet ? { internet } : {}),
    entries,
    ...(servicesLabelY !== undefined ? { servicesLabelY } : {}),
    services,
    nodes,
    ...(overlayY !== undefined ? { overlayY } : {}),
    ...(unscheduledY !== undefined ? { unscheduledY } : {}),
    policies,
    legendY,
    podBox,
  };
}
