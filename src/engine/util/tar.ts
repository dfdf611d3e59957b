/**
 * The tar archive format (POSIX ustar headers with GNU's `ustar  ` magic, as GNU tar and BusyBox
 * write them): what `tar cf -` streams out of a container for `kubectl cp`, and what kubectl's
 * untarAll reads back. Regular files and directories only; names up to 100 bytes (longer names would
 * need GNU's ././@LongLink entries, which are not written: `pack` refuses them).
 */
import { utf8Decode, utf8Encode } from './encoding.ts';

const BLOCK = 512;

export interface TarEntry {
  /** The member name, without a leading `/` (directories end with `/`). */
  readonly name: string;
  readonly type: 'file' | 'dir';
  readonly data: Uint8Array;
  /** Permission bits (0o644 for files, 0o755 for directories by default). */
  readonly mode?: number;
  /** Seconds since the epoch. */
  readonly mtime: number;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(e: TarEntry): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const put = (offset: number, text: string) => h.set(utf8Encode(text), offset);
  put(0, e.name);
  put(100, octal(e.mode ?? (e.type === 'dir' ? 0o755 : 0o644), 8));
  put(108, octal(0, 8));
  put(116, octal(0, 8));
  put(124, octal(e.type === 'dir' ? 0 : e.data.length, 12));
  put(136, octal(e.mtime, 12));
  put(148, '        ');
  h[156] = e.type === 'dir' ? 0x35 : 0x30;
  put(257, 'ustar  \0');
  put(265, 'root');
  put(297, 'root');
  let sum = 0;
  for (const b of h) sum += b;
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** An archive of the entries; `record` pads the end to a multiple of it (GNU tar: 10240; BusyBox: none). */
export function pack(entries: readonly TarEntry[], record = BLOCK): Uint8Array | { readonly error: string } {
  const parts: Uint8Array[] = [];
  let length = 0;
  for (const e of entries) {
    if (utf8Encode(e.name).length > 100) return { error: `${e.name}: file name is too long` };
    const data = e.type === 'dir' ? new Uint8Array(0) : e.data;
    const padded = Math.ceil(data.length / BLOCK) * BLOCK;
    const body = new Uint8Array(padded);
    body.set(data);
    parts.push(header(e), body);
    length += BLOCK + padded;
  }
  length += 2 * BLOCK;
  length = Math.ceil(length / record) * record;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function field(h: Uint8Array, offset: number, width: number): string {
  const raw = h.subarray(offset, offset + width);
  const end = raw.indexOf(0);
  return utf8Decode(end < 0 ? raw : raw.subarray(0, end));
}

/** The entries of an archive; an error for a header whose checksum or size does not hold. */
export function unpack(archive: Uint8Array): TarEntry[] | { readonly error: string } {
  const entries: TarEntry[] = [];
  let at = 0;
  while (at + BLOCK <= archive.length) {
    const h = archive.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
    const recorded = parseInt(field(h, 148, 8).trim(), 8);
    const size = parseInt(field(h, 124, 12).trim() || '0', 8);
    if (recorded !== sum || !Number.isFinite(size) || at + BLOCK + size > archive.length)
      return { error: 'archive/tar: invalid tar header' };
    const prefix = field(h, 345, 155);
    const base = field(h, 0, 100);
    const name = field(h, 257, 6) === 'ustar' && prefix ? `${prefix}/${base}` : base;
    const type = h[156] === 0x35 ? 'dir' : 'file';
    entries.push({
      name,
      type,
      data: archive.slice(at + BLOCK, at + BLOCK + size),
      mode: parseInt(field(h, 100, 8).trim() || '0', 8),
      mtime: parseInt(field(h, 136, 12).trim() || '0', 8),
    });
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}
