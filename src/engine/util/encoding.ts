/**
 * The byte encodings the engine writes and reads: UTF-8 (the engine's lib has no TextEncoder),
 * base64 (RFC 4648 §4, a Secret's data, PEM bodies, `base64`), base64url without padding (§5, JWS
 * tokens, Calico's rule hashes) and base32 (§6, kube-proxy's chain-name hashes). One home, so every
 * tool and component encodes the same bytes the same way.
 */

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The UTF-8 bytes of a string. A lone surrogate (no UTF-8 form) becomes U+FFFD's bytes, as
 * TextEncoder and Go's string conversion both do.
 */
export function utf8Encode(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    let c = ch.codePointAt(0) ?? 0;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

/** How many bytes `text` takes in UTF-8 (a Content-Length, `wc -c`, `ls -l`'s size). */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** Text from UTF-8 bytes; each malformed or truncated sequence reads as U+FFFD. */
export function utf8Decode(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    const need = b >= 0xf0 && b < 0xf8 ? 3 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xc0 && b < 0xe0 ? 1 : -1;
    let c = b & (0x3f >> Math.max(need, 0));
    let ok = need > 0 && i + need < bytes.length;
    for (let k = 1; ok && k <= need; k++) {
      const nb = bytes[i + k]!;
      if ((nb & 0xc0) !== 0x80) ok = false;
      c = (c << 6) | (nb & 63);
    }
    out += ok ? String.fromCodePoint(c) : '\uFFFD';
    i += ok ? need + 1 : 1;
  }
  return out;
}

function encode64(bytes: ArrayLike<number>, alphabet: string, pad: boolean): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const kept = Math.min(4, bytes.length - i + 1);
    for (let j = 0; j < kept; j++) out += alphabet[(n >>> (18 - 6 * j)) & 63];
    if (pad) out += '='.repeat(4 - kept);
  }
  return out;
}

/** Standard base64 with `=` padding (Go's `base64.StdEncoding`). */
export function base64Encode(bytes: ArrayLike<number>): string {
  return encode64(bytes, BASE64_ALPHABET, true);
}

/** URL-safe base64 without padding (Go's `base64.RawURLEncoding`, JWS segments). */
export function base64UrlEncode(bytes: ArrayLike<number>): string {
  return encode64(bytes, BASE64URL_ALPHABET, false);
}

/**
 * Standard base64 to bytes. Whitespace and `=` are skipped (PEM bodies wrap at 64 columns); any other
 * character outside the alphabet makes it undefined.
 */
export function base64Decode(text: string): Uint8Array | undefined {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of text) {
    if (ch === '=' || /\s/.test(ch)) continue;
    const v = BASE64_ALPHABET.indexOf(ch);
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** RFC 4648 §6 base32 with `=` padding, like Go's `base32.StdEncoding.EncodeToString`. */
export function base32Encode(bytes: ArrayLike<number>): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    buffer = ((buffer << 8) | bytes[i]!) & 0xffff;
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

/**
 * Files hold strings. Text is Unicode and is UTF-8 on disk; binary data (a pcap from `tcpdump -w`, a
 * tar stream) is a byte string, one char per byte. A NUL byte tells them apart, the mark of binary
 * data grep and git go by: a byte string with a NUL is its own bytes, anything else is UTF-8.
 */
export function isByteString(content: string): boolean {
  return content.includes('\0') && !/[^\0-\xff]/.test(content);
}

/** The bytes a file's content stands for (see isByteString). */
export function fileBytes(content: string): Uint8Array {
  return isByteString(content) ? fromBinaryString(content) : utf8Encode(content);
}

/** A file's content from its bytes: a byte string when they hold a NUL, UTF-8 text otherwise. */
export function fileContent(bytes: Uint8Array): string {
  return bytes.includes(0) ? toBinaryString(bytes) : utf8Decode(bytes);
}

/** Bytes as a byte string, one char per byte. */
export function toBinaryString(b: Uint8Array): string {
  // Spreading a plain array is fast; spreading a typed array walks its iterator one byte at a time.
  const parts: string[] = [];
  for (let i = 0; i < b.length; i += 8192) {
    const end = Math.min(b.length, i + 8192);
    const codes = new Array<number>(end - i);
    for (let j = i; j < end; j++) codes[j - i] = b[j]!;
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

export function fromBinaryString(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 255;
  return out;
}

/** How many bytes a file's content takes (`ls -l`, `wc -c`): see isByteString. */
export function fileSize(content: string): number {
  return isByteString(content) ? content.length : utf8Length(content);
}
