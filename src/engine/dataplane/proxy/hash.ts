/**
 * The hashes kube-proxy builds chain names from: `base32.StdEncoding.EncodeToString(sha256(x))`
 * (RFC 4648 standard alphabet, A–Z then 2–7). Callers only ever keep a prefix (16 characters for
 * iptables, 8 for nftables), so the `=` padding of the full 56-character encoding never shows.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base32Encode, utf8Encode } from '../../util/encoding.ts';

const cache = new Map<string, string>();
const CACHE_LIMIT = 200_000;

/**
 * base32(sha256(utf8Encode(text))), the 56-character string kube-proxy truncates. Memoised: every sync
 * re-derives the same chain names, and hashing dominated a 1,000-Service rendering.
 */
export function sha256Base32(text: string): string {
  let h = cache.get(text);
  if (h === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    h = base32Encode(sha256(utf8Encode(text)));
    cache.set(text, h);
  }
  return h;
}
