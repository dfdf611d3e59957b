/**
 * Text that goes into SVG or HTML markup. Object names, labels and annotations can hold anything the
 * API accepts (label values, annotation text, even `<script>` in a ConfigMap name typed by a learner
 * whose apply failed validation elsewhere), so every string a renderer writes passes through here.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');
}

/**
 * Shortens a name to `max` characters, keeping its end (pod names differ in their hash suffix:
 * `coredns-7fcdcb776c-qkvsf` reads better as `coredns-…6c-qkvsf` than `coredns-7fcdcb7…`).
 */
export function truncateMiddle(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  if (max <= 1) return '…';
  const tail = Math.floor((max - 1) / 2);
  const head = max - 1 - tail;
  return chars.slice(0, head).join('') + '…' + chars.slice(chars.length - tail).join('');
}

/** A deterministic 32-bit FNV-1a hash, as 8 hex digits (element ids, never security). */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export type ElementKind = 'node' | 'pod' | 'group' | 'svc' | 'dns' | 'pol' | 'entry' | 'overlay' | 'internet';

/**
 * The id of a diagram element, safe as an XML id and a CSS selector whatever the object's name:
 * a readable slug plus a hash of the exact key. The walk and the matrix compute the same ids from
 * the hops' object references, so they can highlight elements without reading the SVG.
 */
export function elementId(kind: ElementKind, key: string): string {
  const slug = key
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return `${kind}-${slug ? `${slug}-` : ''}${fnv1a(key)}`;
}

/** `namespace/name`, the key every model uses for namespaced objects. */
export const objectKey = (namespace: string | undefined, name: string): string =>
  `${namespace ?? 'default'}/${name}`;
