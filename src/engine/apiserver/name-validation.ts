/**
 * Name, label and port-name rules with apimachinery's exact texts (k8s.io/apimachinery v0.35
 * `pkg/util/validation/validation.go`, `pkg/api/validate/content/{dns,kube,errors}.go`,
 * `pkg/apis/meta/v1/validation`). Note the double space in RegexError's example list
 * (`'my-name',  or '123-abc'`): it is upstream's.
 */
import { invalidValue, forbidden, required, type FieldError } from './field-errors.ts';
import { isPlainObject } from '../util/json.ts';

/** `RegexError`. */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) out += ' or ';
    out += `'${e}', `;
  });
  return `${out}regex used for validation is '${re}')`;
}

/** Go's `len(string)` counts UTF-8 bytes. */
export function byteLength(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/** util/validation's MaxLenError counts characters in its text; the content package's says bytes. */
const maxLenChars = (n: number) => `must be no more than ${n} characters`;
const maxLenBytes = (n: number) => `must be no more than ${n} bytes`;

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenChars(63));
  if (!DNS1123_LABEL.test(value)) {
    if (DNS1123_SUBDOMAIN.test(value)) errs.push('must not contain dots');
    else {
      errs.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          DNS1123_LABEL_FMT,
          'my-name',
          '123-abc',
        ),
      );
    }
  }
  return errs;
}

export function isDNS1123Subdomain(value: string, maxLen = maxLenChars): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLen(253));
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        'example.com',
      ),
    );
  }
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenChars(63));
  if (!DNS1035_LABEL.test(value)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL_FMT,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errs;
}

export type NameRule = 'subdomain' | 'label' | 'dns1035';

/** `ValidateNameFunc`: with `prefix` (generateName) a trailing dash is masked (`maskTrailingDash`). */
export function nameErrors(rule: NameRule, name: string, prefix = false): string[] {
  const n = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
  switch (rule) {
    case 'subdomain':
      return isDNS1123Subdomain(n);
    case 'label':
      return isDNS1123Label(n);
    case 'dns1035':
      return isDNS1035Label(n);
  }
}

const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY = new RegExp(`^${LABEL_KEY_FMT}$`);
const LABEL_KEY_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** content.IsLabelKey (= IsQualifiedName). */
export function isLabelKey(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix, maxLenBytes).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenBytes(63)}`);
  if (!LABEL_KEY.test(name))
    errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);

export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenBytes(63));
  if (!LABEL_VALUE.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** `IsValidPortNum`. */
export function portNumErrors(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** `IsValidPortName` (IANA_SVC_NAME). */
export function portNameErrors(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenChars(15));
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-')))
    errs.push('must not begin or end with a hyphen');
  return errs;
}

/** `IsConfigMapKey` (ConfigMap and Secret data keys). */
export function configMapKeyErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenChars(253));
  if (!/^[-._a-zA-Z0-9]+$/.test(value)) {
    errs.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        '[-._a-zA-Z0-9]+',
        'key.name',
        'KEY_NAME',
        'key-name',
      ),
    );
  }
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** metav1 validation `ValidateLabels`: keys sorted (Go's map order is random; ours must be stable). */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  if (!isPlainObject(labels)) return [];
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels).sort()) {
    for (const msg of isLabelKey(k)) errs.push(invalidValue(path, k, msg));
    const v = labels[k];
    for (const msg of isLabelValue(typeof v === 'string' ? v : '')) errs.push(invalidValue(path, v, msg));
  }
  return errs;
}

/** metav1 validation `ValidateLabelSelector`. */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (!isPlainObject(selector)) return [];
  const errs = validateLabels(selector.matchLabels, `${path}.matchLabels`);
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  exprs.forEach((e: unknown, i) => {
    if (!isPlainObject(e)) return;
    const p = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(e.values) ? (e.values as unknown[]) : [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errs.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errs.push(
            forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
          );
        break;
      default:
        errs.push(invalidValue(`${p}.operator`, e.operator ?? '', 'not a valid selector operator'));
    }
    for (const msg of isLabelKey(typeof e.key === 'string' ? e.key : ''))
      errs.push(invalidValue(`${p}.key`, e.key ?? '', msg));
    values.forEach((v, j) => {
      for (const msg of isLabelValue(typeof v === 'string' ? v : ''))
        errs.push(invalidValue(`${p}.values[${j}]`, v, msg));
    });
  });
  return errs;
}
