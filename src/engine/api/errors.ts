/**
 * API errors, shaped like `metav1.Status` so kubectl can print them exactly as the real client prints
 * apimachinery's errors (`Error from server (NotFound): pods "x" not found`).
 */
export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Invalid'
  | 'BadRequest'
  | 'Conflict'
  | 'Forbidden'
  | 'MethodNotAllowed'
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
  InternalError: 500,
};

export class StatusError extends Error {
  readonly reason: StatusReason;
  readonly code: number;
  readonly causes: readonly StatusCause[];

  constructor(reason: StatusReason, message: string, causes: readonly StatusCause[] = []) {
    super(message);
    this.name = 'StatusError';
    this.reason = reason;
    this.code = CODES[reason];
    this.causes = causes;
  }

  /** A copy whose message names the source, as kubectl's `AddSourceToErr` does. */
  withSource(verb: string, source: string): StatusError {
    return new StatusError(this.reason, `error when ${verb} "${source}": ${this.message}`, this.causes);
  }
}

/** `pods "x" not found`; `qualifiedResource` is `pods` or `deployments.apps`. */
export function notFound(qualifiedResource: string, name: string): StatusError {
  return new StatusError('NotFound', `${qualifiedResource} "${name}" not found`);
}

export function alreadyExists(qualifiedResource: string, name: string): StatusError {
  return new StatusError('AlreadyExists', `${qualifiedResource} "${name}" already exists`);
}

/** `The Service "x" is invalid: spec.ports[0].port: Required value` (apimachinery `NewInvalid`). */
export function invalid(kind: string, name: string, causes: readonly StatusCause[]): StatusError {
  const details = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const body = details.length === 1 ? details[0] : `[${details.join(', ')}]`;
  return new StatusError('Invalid', `${kind} "${name}" is invalid: ${body}`.replace(/^/, 'The '), causes);
}

export function badRequest(message: string): StatusError {
  return new StatusError('BadRequest', message);
}

export function conflict(qualifiedResource: string, name: string, detail: string): StatusError {
  return new StatusError(
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource} "${name}": ${detail}`,
  );
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}
