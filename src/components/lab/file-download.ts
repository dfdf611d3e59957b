/**
 * A lab file as the browser downloads it. Session files hold text, and a capture (`tcpdump -w`) is
 * held as a binary string, one character per byte (the engine's capture/pcap.ts): such a file is saved
 * as its bytes, so Wireshark or `tcpdump -r` read it; any other file is saved as UTF-8 text. (On the
 * page's main thread: the engine's own converters are not imported, they would pull the engine in.)
 */

/** The libpcap savefile magics (microsecond and nanosecond), in either byte order. */
const PCAP_MAGICS = new Set([0xa1b2c3d4, 0xa1b23c4d, 0xd4c3b2a1, 0x4d3cb2a1]);

/** One byte per character (the low 8 bits): a binary string's bytes. */
const bytesOf = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 255);

export function isCapture(content: string): boolean {
  if (content.length < 24) return false;
  const head = bytesOf(content.slice(0, 4));
  const le = (head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24)) >>> 0;
  return PCAP_MAGICS.has(le);
}

export function fileDownload(path: string, content: string): { readonly name: string; readonly blob: Blob } {
  const name = path.slice(path.lastIndexOf('/') + 1) || 'file';
  if (isCapture(content)) {
    const bytes = bytesOf(content);
    return { name, blob: new Blob([bytes.buffer as ArrayBuffer], { type: 'application/vnd.tcpdump.pcap' }) };
  }
  const type = /\.ya?ml$/i.test(name) ? 'application/yaml' : 'text/plain';
  return { name, blob: new Blob([content], { type: `${type};charset=utf-8` }) };
}
