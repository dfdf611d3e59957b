/**
 * The scalar formats Kubernetes types decode themselves, with the errors their unmarshalers return:
 * `resource.Quantity` (apimachinery `api/resource/quantity.go`), `metav1.Time` (RFC 3339 through Go's
 * time.Parse) and `[]byte` (base64, Go's `encoding/base64` StdEncoding).
 */

export const QUANTITY_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const QUANTITY_SUFFIX = /^(|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][-+]?[0-9]+)$/;

/** `ParseQuantity`'s error for a text, or undefined when it parses. */
export function quantityError(text: string): string | undefined {
  const m = QUANTITY.exec(text);
  if (!m) return QUANTITY_ERROR;
  return QUANTITY_SUFFIX.test(m[2]!) ? undefined : "unable to parse quantity's suffix";
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `metav1.Time.UnmarshalJSON`'s error for a text (the common case: it is not a timestamp at all). */
export function timeError(text: string): string | undefined {
  if (RFC3339.test(text)) return undefined;
  return `parsing time ${JSON.stringify(text)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(text)} as "2006"`;
}

const BASE64 = /^[A-Za-z0-9+/]$/;

/**
 * Where Go's `base64.StdEncoding` (padding required; CR and LF skipped) reports `illegal base64 data at
 * input byte N`, or undefined when the text decodes.
 */
export function base64ErrorIndex(text: string): number | undefined {
  const chars: { c: string; at: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\r' && c !== '\n') chars.push({ c, at: i });
  }
  for (let q = 0; q < chars.length; q += 4) {
    const quantum = chars.slice(q, q + 4);
    for (let j = 0; j < quantum.length; j++) {
      const { c, at } = quantum[j]!;
      if (c === '=') {
        // Padding is legal only in the last quantum, at positions 2 or 3, filling it to the end.
        const rest = quantum.slice(j);
        const last = q + 4 >= chars.length;
        if (j < 2 || !last || quantum.length !== 4 || !rest.every((r) => r.c === '=')) return at;
        return undefined;
      }
      if (!BASE64.test(c)) return at;
    }
    if (quantum.length < 4) return quantum[0]!.at;
  }
  return undefined;
}
