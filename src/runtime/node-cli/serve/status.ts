/**
 * metav1.Status, the body of every error the API server returns (apimachinery `errors.StatusError`):
 * kubectl prints `Error from server (NotFound): pods "x" not found` from `reason` and `message`, and
 * `The Pod "x" is invalid: …` from `details.causes`, so these must be shaped as the real server shapes them.
 */
import { StatusError, type StatusCause } from '../../../engine/index.ts';

export interface StatusDetailsJson {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusJson {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Failure' | 'Success';
  readonly message?: string;
  readonly reason?: string;
  readonly details?: StatusDetailsJson;
  readonly code: number;
}

/** An error the HTTP layer answers with: a status code and a Status body. */
export class HttpStatus extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: StatusDetailsJson | undefined;
  readonly headers: Record<string, string>;
  constructor(
    code: number,
    reason: string,
    message: string,
    details?: StatusDetailsJson,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }
}

export function statusBody(e: HttpStatus): StatusJson {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: e.message,
    reason: e.reason,
    ...(e.details ? { details: e.details } : {}),
    code: e.code,
  };
}

/** Where an error happened, for the details the real registry fills in (`kind` is the resource). */
export interface ErrorTarget {
  readonly resource: string;
  readonly group: string;
  readonly name?: string;
}

/**
 * The engine's StatusError as the HTTP error the real server sends: NotFound, AlreadyExists and
 * Conflict carry `{name, group, kind: <resource>}`; Invalid carries the Kind and its causes.
 */
export function fromStatusError(e: StatusError, target?: ErrorTarget): HttpStatus {
  if (e.reason === 'Invalid' && e.details) {
    return new HttpStatus(e.code, e.reason, e.message, {
      name: e.details.name,
      ...(e.details.group ? { group: e.details.group } : {}),
      kind: e.details.kind,
      causes: [...e.causes],
    });
  }
  const named = ['NotFound', 'AlreadyExists', 'Conflict'].includes(e.reason);
  const details: StatusDetailsJson | undefined =
    named && target
      ? {
          ...(nameFromMessage(e.message, target.name) !== undefined
            ? { name: nameFromMessage(e.message, target.name)! }
            : {}),
          ...(target.group ? { group: target.group } : {}),
          kind: target.resource,
        }
      : e.causes.length > 0
        ? { causes: [...e.causes] }
        : undefined;
  return new HttpStatus(e.code, e.reason, e.message, details);
}

/** The name a NotFound names (`namespaces "x" not found` raised while creating a pod names the namespace). */
function nameFromMessage(message: string, fallback: string | undefined): string | undefined {
  const m = /^[a-z0-9.]+ "((?:[^"\\]|\\.)*)" /.exec(message);
  return m ? JSON.parse(`"${m[1]!}"`) : fallback;
}

export const notFoundPath = (): HttpStatus =>
  new HttpStatus(404, 'NotFound', 'the server could not find the requested resource', {});

export const methodNotAllowed = (): HttpStatus =>
  new HttpStatus(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {},
  );

export const badRequest = (message: string): HttpStatus => new HttpStatus(400, 'BadRequest', message);

/** kube-apiserver's max-in-flight answer, with the Retry-After client-go honours. */
export const tooManyRequests = (): HttpStatus =>
  new HttpStatus(
    429,
    'TooManyRequests',
    'Too many requests, please try again later.',
    { retryAfterSeconds: 1 },
    { 'Retry-After': '1' },
  );

export const unauthorized = (): HttpStatus => new HttpStatus(401, 'Unauthorized', 'Unauthorized');

export function toHttpStatus(e: unknown, target?: ErrorTarget): HttpStatus {
  if (e instanceof HttpStatus) return e;
  if (e instanceof StatusError) return fromStatusError(e, target);
  return new HttpStatus(
    500,
    'InternalError',
    `Internal error occurred: ${(e as Error)?.message ?? String(e)}`,
  );
}
