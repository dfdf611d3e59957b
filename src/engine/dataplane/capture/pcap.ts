/**
 * The libpcap savefile format (little-endian, microsecond timestamps, version 2.4), as `tcpdump -w`
 * writes it, and its reader for `tcpdump -r`. Session files hold text, so a pcap is kept as a binary
 * string (one character per byte, 0–255): `toBinaryString`/`fromBinaryString` convert.
 */
export const PCAP_MAGIC = 0xa1b2c3d4;

export interface PcapRecord {
  /** Simulated wall clock in milliseconds, plus the microseconds within that second. */
  readonly seconds: number;
  readonly micros: number;
  readonly data: Uint8Array;
  /** The length on the wire (data may be cut to the snap length). */
  readonly originalLength: number;
}

export interface Pcap {
  readonly linktype: number;
  readonly snaplen: number;
  readonly records: readonly PcapRecord[];
}

function putU32(b: Uint8Array, at: number, n: number): void {
  b[at] = n & 255;
  b[at + 1] = (n >>> 8) & 255;
  b[at + 2] = (n >>> 16) & 255;
  b[at + 3] = (n >>> 24) & 255;
}

export function writePcap(p: Pcap): Uint8Array {
  const size = 24 + p.records.reduce((n, r) => n + 16 + r.data.length, 0);
  const out = new Uint8Array(size);
  putU32(out, 0, PCAP_MAGIC);
  out[4] = 2;
  out[6] = 4;
  putU32(out, 16, p.snaplen);
  putU32(out, 20, p.linktype);
  let at = 24;
  for (const r of p.records) {
    putU32(out, at, r.seconds);
    putU32(out, at + 4, r.micros);
    putU32(out, at + 8, r.data.length);
    putU32(out, at + 12, r.originalLength);
    out.set(r.data, at + 16);
    at += 16 + r.data.length;
  }
  return out;
}

export type PcapReadError = 'truncated' | 'bad-magic';

/** Reads a savefile in either byte order (microsecond or nanosecond magic). */
export function readPcap(b: Uint8Array): Pcap | { readonly error: PcapReadError } {
  if (b.length < 24) return { error: 'truncated' };
  const le = (at: number): number =>
    (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
  const be = (at: number): number =>
    ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
  const magicLe = le(0);
  const little = magicLe === PCAP_MAGIC || magicLe === 0xa1b23c4d;
  const big = be(0) === PCAP_MAGIC || be(0) === 0xa1b23c4d;
  if (!little && !big) return { error: 'bad-magic' };
  const nano = (little ? magicLe : be(0)) === 0xa1b23c4d;
  const u32 = little ? le : be;
  const records: PcapRecord[] = [];
  let at = 24;
  while (at + 16 <= b.length) {
    const caplen = u32(at + 8);
    if (at + 16 + caplen > b.length) break;
    const frac = u32(at + 4);
    records.push({
      seconds: u32(at),
      micros: nano ? Math.floor(frac / 1000) : frac,
      data: b.subarray(at + 16, at + 16 + caplen),
      originalLength: u32(at + 12),
    });
    at += 16 + caplen;
  }
  return { linktype: u32(20), snaplen: u32(16), records };
}

export { fromBinaryString, toBinaryString } from '../../util/encoding.ts';
