/**
 * The hashes kube-proxy builds chain names from: `base32.StdEncoding.EncodeToString(sha256(x))`
 * (RFC 4648 standard alphabet, A–Z then 2–7). Callers only ever keep a prefix (16 characters for
 * iptables, 8 for nftables), so the `=` padding of the full 56-character encoding never shows.
 */
import { sha256 } from '@noble/hashes/sha2.js';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 §6 base32 with `=` padding, like Go's `base32.StdEncoding.EncodeToString`. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

/** UTF-8 bytes of a string (the engine's lib has no TextEncoder). */
export function utf8(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

const cache = new Map<string, string>();
const CACHE_LIMIT = 200_000;

/**
 * base32(sha256(utf8(text))), the 56-character string kube-proxy truncates. Memoised: every sync
 * re-derives the same chain names, and hashing dominated a 1,000-Service rendering.
 */
export function sha256Base32(text: string): string {
  let h = cache.get(text);
  if (h === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    h = base32Encode(sha256(utf8(text)));
    cache.set(text, h);
  }
  return h;
}
