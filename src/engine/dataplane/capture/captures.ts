/**
 * Running captures, kept in the node's local state (plain JSON, so a snapshot carries a capture that
 * is still running): which namespace and interface each listens on, its filter, snap length, count
 * and direction, and the frames it has taken so far with their timestamps. A frame is filtered when
 * it is recorded, as the kernel runs the BPF program on each packet.
 */
import type { DataplaneHost } from '../network/view.ts';
import { isPlainObject, type Json } from '../../util/json.ts';
import { decodeFrame, LINKTYPE_LINUX_SLL2, LINKTYPE_RAW } from './decode.ts';
import { compileFilter, type FrameFilter } from './filter.ts';
import { netnsKey, type Leg } from './legs.ts';
import { fromBinaryString, toBinaryString } from './pcap.ts';
import { sll2 } from './wire.ts';

const STATE_KEY = 'captures';

export interface CapturedFrame {
  readonly ms: number;
  readonly us: number;
  /** Binary string of the bytes kept (at most the snap length). */
  readonly data: string;
  readonly length: number;
}

export interface CaptureSpec {
  readonly id: string;
  readonly netns: string;
  /** The interface name, or `any`. */
  readonly iface: string;
  readonly linktype: number;
  readonly snaplen: number;
  readonly filter: string;
  readonly count?: number;
  readonly direction: 'in' | 'out' | 'inout';
  readonly startedAt: number;
  /** Interface names by index, for `-i any` (what `if_indextoname` gives the live tcpdump). */
  readonly ifnames: Record<string, string>;
}

export interface CaptureState extends CaptureSpec {
  readonly frames: CapturedFrame[];
  /** Set when `-c` was reached: the time of the last packet. */
  endedAt?: number;
}

function recordOf(cluster: DataplaneHost, node: string): Record<string, Json> | undefined {
  const v = cluster.nodeState.get(node, STATE_KEY);
  return isPlainObject(v) ? v : undefined;
}

/** The state startCapture wrote (kept as JSON in the node's state, so a snapshot carries it). */
function isCapture(v: Json | undefined): v is Json & CaptureState {
  return (
    isPlainObject(v) &&
    typeof v['id'] === 'string' &&
    typeof v['netns'] === 'string' &&
    typeof v['filter'] === 'string' &&
    Array.isArray(v['frames'])
  );
}

function parseCapture(v: Json | undefined): CaptureState | undefined {
  return isCapture(v) ? v : undefined;
}

/** An id no running capture on the node has (two tcpdumps started in the same millisecond differ). */
export function nextCaptureId(cluster: DataplaneHost, node: string, prefix: string): string {
  const taken = recordOf(cluster, node) ?? {};
  let n = 1;
  while (`${prefix}#${n}` in taken) n++;
  return `${prefix}#${n}`;
}

export function startCapture(cluster: DataplaneHost, node: string, spec: CaptureSpec): void {
  const state: CaptureState = { ...spec, frames: [] };
  cluster.nodeState.updateRecord(node, STATE_KEY, (r) => {
    r[spec.id] = JSON.parse(JSON.stringify(state)) as Json;
  });
}

export function getCapture(cluster: DataplaneHost, node: string, id: string): CaptureState | undefined {
  return parseCapture(recordOf(cluster, node)?.[id]);
}

export function stopCapture(cluster: DataplaneHost, node: string, id: string): CaptureState | undefined {
  const c = getCapture(cluster, node, id);
  cluster.nodeState.updateRecord(node, STATE_KEY, (r) => {
    delete r[id];
  });
  return c;
}

/** True when any node has a capture running: the traffic hooks return at once otherwise. */
export function capturesRunning(
  cluster: DataplaneHost,
  nodes: readonly { readonly name: string }[],
): boolean {
  for (const n of nodes) {
    const r = recordOf(cluster, n.name);
    if (r && Object.keys(r).length > 0) return true;
  }
  return false;
}

/** Compiled filters by expression: a memo of a pure function (the state itself is the expression). */
const filters = new Map<string, FrameFilter>();

function filterOf(expression: string): FrameFilter {
  let f = filters.get(expression);
  if (!f) {
    f = compileFilter(expression);
    filters.set(expression, f);
  }
  return f;
}

function frameFor(c: CaptureSpec, leg: Leg): Uint8Array | undefined {
  if (c.iface !== 'any') {
    if (leg.iface !== c.iface) return undefined;
    if (c.linktype === LINKTYPE_RAW) return leg.link === 'raw' ? leg.frame : leg.frame.subarray(14);
    return leg.link === 'ether' ? leg.frame : undefined;
  }
  if (leg.link === 'raw')
    return sll2(0x0800, leg.ifindex, 768, leg.direction === 'out' ? 4 : 0, '', leg.frame);
  const f = leg.frame;
  const broadcast = f[0] === 0xff && f[1] === 0xff;
  const packetType = leg.direction === 'out' ? 4 : broadcast ? 1 : 0;
  const src = [...f.subarray(6, 12)].map((b) => b.toString(16).padStart(2, '0')).join(':');
  return sll2((f[12]! << 8) | f[13]!, leg.ifindex, 1, packetType, src, f.subarray(14));
}

/**
 * Offers the sightings of one packet to the captures of the namespaces they happen in; `atMs` is the
 * moment the packet left its socket.
 */
export function recordLegs(cluster: DataplaneHost, legs: readonly Leg[], atMs: number, atUs: number): void {
  const byNode = new Map<string, Leg[]>();
  for (const leg of legs) {
    const list = byNode.get(leg.netns.node) ?? [];
    list.push(leg);
    byNode.set(leg.netns.node, list);
  }
  for (const [node, nodeLegs] of byNode) {
    const r = recordOf(cluster, node);
    if (!r || Object.keys(r).length === 0) continue;
    cluster.nodeState.updateRecord(node, STATE_KEY, (record) => {
      for (const value of Object.values(record)) {
        const c = parseCapture(value);
        if (!c || c.endedAt !== undefined) continue;
        for (const leg of nodeLegs) offer(c, leg, atMs, atUs);
      }
    });
  }
}

function offer(c: CaptureState, leg: Leg, atMs: number, atUs: number): void {
  if (c.endedAt !== undefined || netnsKey(leg.netns) !== c.netns) return;
  if (c.direction !== 'inout' && c.direction !== leg.direction) return;
  const frame = frameFor(c, leg);
  if (!frame) return;
  const linktype = c.iface === 'any' ? LINKTYPE_LINUX_SLL2 : c.linktype;
  if (!filterOf(c.filter)(decodeFrame(linktype, frame))) return;
  const totalUs = atUs + leg.delayUs;
  const ms = atMs + Math.floor(totalUs / 1000);
  const us = ((ms % 1000) * 1000 + (totalUs % 1000)) % 1_000_000;
  c.frames.push({ ms, us, data: toBinaryString(frame.subarray(0, c.snaplen)), length: frame.length });
  if (c.count !== undefined && c.frames.length >= c.count) c.endedAt = ms;
}

export function frameBytes(f: CapturedFrame): Uint8Array {
  return fromBinaryString(f.data);
}
