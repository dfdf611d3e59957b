/**
 * kubectl's `pkg/util/hash` (`create configmap|secret --append-hash`): sha256 of the JSON encoding
 * of {kind, name, data[, binaryData]} (Secret: {kind, type, name, data}), encoding/json style (keys
 * sorted, `<`, `>`, `&` and U+2028/U+2029 escaped), then `encodeHash`: the first 10 hex digits with
 * 0, 1, 3, a, e mapped to g, h, k, m, t so the suffix never spells a word.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8Encode } from '../../util/encoding.ts';

/** Go's json.Marshal of a value made of strings, null and string-keyed maps (sorted keys). */
function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string')
    return JSON.stringify(v).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${goJson(k)}:${goJson(obj[k])}`).join(',')}}`;
}

const SWAP: Readonly<Record<string, string>> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };

function encodeHash(text: string): string {
  const hex = [...sha256(utf8Encode(text))].map((b) => b.toString(16).padStart(2, '0')).join('');
  return [...hex.slice(0, 10)].map((c) => SWAP[c] ?? c).join('');
}

/** `hash.ConfigMapHash`; `data` is null when the ConfigMap has no data map at all. */
export function configMapHash(name: string, data: Record<string, string> | null): string {
  return encodeHash(goJson({ kind: 'ConfigMap', name, data }));
}

/** `hash.SecretHash`; `data` holds the base64 of each value, as []byte marshals. */
export function secretHash(name: string, type: string, data: Record<string, string> | null): string {
  return encodeHash(goJson({ kind: 'Secret', type, name, data }));
}
