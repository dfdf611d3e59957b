/**
 * API errors, shaped like `metav1.Status` so kubectl can print them exactly as the real client prints
 * apimachinery's errors (`Error from server (NotFound): pods "x" not found`).
 */
import { unsimulatedBuiltin } from './resources.ts';

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Invalid'
  | 'BadRequest'
  | 'Conflict'
  | 'Forbidden'
  | 'MethodNotAllowed'
  | 'RequestEntityTooLarge'
  | 'InternalError';

export interface StatusCause {
  /** e.g. `FieldValueInvalid`, `FieldValueRequired`, `FieldValueNotSupported`, `FieldValueDuplicate`. */
  readonly reason: string;
  readonly message: string;
  /** The JSON path of the field, e.g. `spec.ports[0].nodePort`. */
  readonly field: string;
}

const CODES: Record<StatusReason, number> = {
  NotFound: 404,
  AlreadyExists: 409,
  Conflict: 409,
  Invalid: 422,
  BadRequest: 400,
  Forbidden: 403,
  MethodNotAllowed: 405,
  RequestEntityTooLarge: 413,
  InternalError: 500,
};

/** `metav1.StatusDetails`: what kubectl prints Invalid errors from (`The <kind> "<name>" is invalid`). */
export interface StatusDetails {
  readonly group: string;
  /** The bare Kind (`Deployment`, never `Deployment.apps`). */
  readonly kind: string;
  readonly name: string;
}

export class StatusError extends Error {
  readonly reason: StatusReason;
  readonly code: number;
  readonly causes: readonly StatusCause[];
  readonly details: StatusDetails | undefined;

  constructor(
    reason: StatusReason,
    message: string,
    causes: readonly StatusCause[] = [],
    details?: StatusDetails,
  ) {
    super(message);
    this.name = 'StatusError';
    this.reason = reason;
    this.code = CODES[reason];
    this.causes = causes;
    this.details = details;
  }

  /** A copy whose message names the source, as kubectl's `AddSourceToErr` does. */
  withSource(verb: string, source: string): StatusError {
    return new StatusError(
      this.reason,
      `error when ${verb} "${source}": ${this.message}`,
      this.causes,
      this.details,
    );
  }
}

/**
 * Go's `%q` (`strconv.Quote`), which every apimachinery message uses for names and values: control
 * characters come out escaped (`"\x1b[31m"`), so a hostile name cannot paint the learner's terminal.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c === 0x07) out += '\\a';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0b) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (
      (c >= 0x80 && c <= 0x9f) ||
      c === 0xad ||
      (c >= 0x2028 && c <= 0x202e) ||
      (c >= 0xd800 && c <= 0xdfff)
    ) {
      out += `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return out + '"';
}

/** `pods "x" not found`; `qualifiedResource` is `pods` or `deployments.apps`. */
export function notFound(qualifiedResource: string, name: string): StatusError {
  return new StatusError('NotFound', `${qualifiedResource} ${goQuote(name)} not found`);
}

export function alreadyExists(qualifiedResource: string, name: string): StatusError {
  return new StatusError('AlreadyExists', `${qualifiedResource} ${goQuote(name)} already exists`);
}

/**
 * apimachinery `NewInvalid`: the message is `<Kind>[.<group>] "<name>" is invalid: <aggregate>`, where
 * the aggregate is the one error, or `[a, b]` for several (`utilerrors.aggregate.Error`, duplicates
 * dropped). kubectl does not print this message: its `checkErr` rebuilds `The <Kind> "<name>" is
 * invalid: …` from `details` and the causes (see `kubectlInvalidText`).
 */
export function invalid(kind: string, name: string, causes: readonly StatusCause[], group = ''): StatusError {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const c of causes) {
    const line = c.field ? `${c.field}: ${c.message}` : c.message;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  const body = lines.length === 0 ? '' : `: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`;
  return new StatusError('Invalid', `${qualifiedKind} ${goQuote(name)} is invalid${body}`, causes, {
    group,
    kind,
    name,
  });
}

/**
 * What kubectl's `checkErr` prints for an Invalid error with details (kubectl `pkg/cmd/util/helpers.go`):
 * one cause inline, several as a `* field: message` list under the header, without the final newline.
 */
export function kubectlInvalidText(e: StatusError): string | undefined {
  if (e.reason !== 'Invalid' || !e.details) return undefined;
  const header = `The ${e.details.kind} ${goQuote(e.details.name)} is invalid`;
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const c of e.causes) {
    const line = `${c.field}: ${c.message}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  if (lines.length === 0) return header;
  if (lines.length === 1) return `${header}: ${lines[0]}`;
  return `${header}: \n${lines.map((l) => `* ${l}`).join('\n')}`;
}

export function badRequest(message: string): StatusError {
  return new StatusError('BadRequest', message);
}

export function conflict(qualifiedResource: string, name: string, detail: string): StatusError {
  return new StatusError(
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource} ${goQuote(name)}: ${detail}`,
  );
}

/** kube-apiserver's body limit (`MaxRequestBodyBytes`, 3 MiB): `Request entity too large: limit is 3145728`. */
export function requestEntityTooLarge(limit: number): StatusError {
  return new StatusError('RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

export function forbidden(qualifiedResource: string, name: string, detail: string): StatusError {
  return new StatusError('Forbidden', `${qualifiedResource} ${goQuote(name)} is forbidden: ${detail}`);
}

/**
 * kubectl's client-side schema check of a manifest's type fields (kubectl `pkg/validation`
 * `getObjectKind`): `apiVersion not set`, `kind not set`, `apiVersion isn't string type`. kubectl
 * prints it as `error: error validating "<file>": error validating data: <problems>; if you choose to
 * ignore these errors, turn validation off with --validate=false`.
 */
export class ManifestTypeError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    // An aggregate of one prints bare; of several, as `[a, b]`.
    super(problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`);
    this.name = 'ManifestTypeError';
    this.problems = problems;
  }
}

/**
 * The RESTMapper found no resource for a manifest's apiVersion + kind (apimachinery `NoKindMatchError`).
 * `message` is `no matches for kind "Foo" in version "v1"`; cli-runtime wraps it as in `mappingText`.
 */
export class NoKindMatchError extends Error {
  readonly kind: string;
  readonly apiVersion: string;
  /** metadata.name / metadata.namespace as written in the manifest ('' when absent). */
  readonly objectName: string;
  readonly objectNamespace: string;

  constructor(kind: string, apiVersion: string, objectName: string, objectNamespace: string) {
    // meta.NoKindMatchError: no version searched (none given) names the group instead.
    super(
      apiVersion === ''
        ? `no matches for kind "${kind}" in group ""`
        : `no matches for kind "${kind}" in version "${apiVersion}"`,
    );
    this.name = 'NoKindMatchError';
    this.kind = kind;
    this.apiVersion = apiVersion;
    this.objectName = objectName;
    this.objectNamespace = objectNamespace;
  }

  /** cli-runtime `mapper.go`: the text after kubectl's `error: ` prefix for a manifest read from `source`. */
  mappingText(source: string): string {
    const prefix = `resource mapping not found for name: "${this.objectName}" namespace: "${this.objectNamespace}" from "${source}": `;
    // A built-in kind the simulation lacks is no CRD problem: say so instead of the CRD hint.
    const missing = unsimulatedBuiltin({ apiVersion: this.apiVersion, kind: this.kind });
    if (missing) return `${prefix}${missing}`;
    return `${prefix}${this.message}\nensure CRDs are installed first`;
  }
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}
