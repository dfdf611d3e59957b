import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  base32Encode,
  base64Decode,
  base64Encode,
  base64UrlEncode,
  utf8Decode,
  utf8Encode,
  utf8Length,
} from './encoding.ts';

// Expected strings from GNU coreutils 9 (`printf %s "$s" | base64 -w0`, `basenc --base64url -w0 | tr -d =`,
// `basenc --base32 -w0`, `wc -c`): the RFC 4648 §10 test vectors plus a non-ASCII line.
const VECTORS: [string, string, string, string, number][] = [
  ['', '', '', '', 0],
  ['f', 'Zg==', 'Zg', 'MY======', 1],
  ['fo', 'Zm8=', 'Zm8', 'MZXQ====', 2],
  ['foo', 'Zm9v', 'Zm9v', 'MZXW6===', 3],
  ['foob', 'Zm9vYg==', 'Zm9vYg', 'MZXW6YQ=', 4],
  ['fooba', 'Zm9vYmE=', 'Zm9vYmE', 'MZXW6YTB', 5],
  ['foobar', 'Zm9vYmFy', 'Zm9vYmFy', 'MZXW6YTBOI======', 6],
  ['ação ✓ 🚀', 'YcOnw6NvIOKckyDwn5qA', 'YcOnw6NvIOKckyDwn5qA', 'MHB2PQ5DN4QOFHETEDYJ7GUA', 15],
];

describe('encodings', () => {
  it.each(VECTORS)('%j encodes as coreutils does', (text, b64, b64url, b32, bytes) => {
    const raw = utf8Encode(text);
    expect(base64Encode(raw)).toBe(b64);
    expect(base64UrlEncode(raw)).toBe(b64url);
    expect(base32Encode(raw)).toBe(b32);
    expect(utf8Length(text)).toBe(bytes);
    expect(raw.length).toBe(bytes);
    expect(utf8Decode(base64Decode(b64)!)).toBe(text);
  });

  it('uses the URL alphabet only for base64url (bytes fb ff bf: `+/+/` and `-_-_`)', () => {
    expect(base64Encode([0xfb, 0xff, 0xbf])).toBe('+/+/');
    expect(base64UrlEncode([0xfb, 0xff, 0xbf])).toBe('-_-_');
  });

  it('skips the line breaks of a PEM body and refuses characters outside the alphabet', () => {
    expect(utf8Decode(base64Decode('Zm9v\nYmFy\n')!)).toBe('foobar');
    expect(base64Decode('Zm9v*')).toBeUndefined();
  });

  it('writes U+FFFD for a lone surrogate and reads it for a malformed sequence', () => {
    expect([...utf8Encode('\ud800')]).toEqual([0xef, 0xbf, 0xbd]);
    expect(utf8Decode([0x66, 0xc3])).toBe('f\ufffd');
  });

  it('round-trips any string through UTF-8 and base64', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(utf8Decode(base64Decode(base64Encode(utf8Encode(s)))!)).toBe(s);
        expect(utf8Length(s)).toBe(utf8Encode(s).length);
      }),
    );
  });
});
