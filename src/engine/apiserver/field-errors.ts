/**
 * Field-level validation errors, worded exactly as apimachinery's `util/validation/field/errors.go`
 * (v0.35): `Required value`, `Invalid value: "x": detail`, `Unsupported value: "Foo": supported
 * values: "A", "B"`, `Duplicate value: 80`, `Forbidden: detail`. The bad value is printed as Go does:
 * strings with `%q`, numbers and booleans bare, anything else as JSON (`{"app":"x"}`).
 */
import { goQuote, type StatusCause } from '../api/errors.ts';
import { isPlainObject } from '../util/json.ts';

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  /** `OMIT` prints the type alone (TooMany with unknown count). */
  readonly badValue: unknown;
  readonly detail: string;
}

export const OMIT: unique symbol = Symbol('omit');

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

export const required = (field: string, detail = ''): FieldError => ({
  type: 'FieldValueRequired',
  field,
  badValue: '',
  detail,
});
export const invalidValue = (field: string, value: unknown, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  badValue: value,
  detail,
});
export const typeInvalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: 'FieldValueTypeInvalid',
  field,
  badValue: value,
  detail,
});
export const duplicate = (field: string, value: unknown): FieldError => ({
  type: 'FieldValueDuplicate',
  field,
  badValue: value,
  detail: '',
});
export const forbidden = (field: string, detail: string): FieldError => ({
  type: 'FieldValueForbidden',
  field,
  badValue: '',
  detail,
});

/** `field.NotSupported`: the valid values quoted with strconv.Quote, in the order given. */
export function notSupported(field: string, value: unknown, valid: readonly string[]): FieldError {
  const detail = valid.length > 0 ? `supported values: ${valid.map(goQuote).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field, badValue: value, detail };
}

/** `field.TooLong`: the value is never printed. */
export function tooLong(field: string, maxLength: number): FieldError {
  return {
    type: 'FieldValueTooLong',
    field,
    badValue: '',
    detail: `may not be more than ${maxLength} bytes`,
  };
}

/** `(*Error).ErrorBody`. */
export function errorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      break;
    default:
      if (e.badValue !== OMIT) s += `: ${goValue(e.badValue)}`;
  }
  return e.detail ? `${s}: ${e.detail}` : s;
}

/** A Go value as ErrorBody prints it. */
export function goValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === undefined || v === null) return 'null';
  return goJson(v);
}

const STRUCT = Symbol('go-struct');

/**
 * Marks an object as a Go struct: `json.Marshal` writes struct fields in declaration order, where it
 * sorts map keys. Give the fields in the Go type's order.
 */
export function goStruct<T extends object>(fields: T): T {
  Object.defineProperty(fields, STRUCT, { value: true, enumerable: false });
  return fields;
}

/** Go's `json.Marshal`: map keys sorted, and `<`, `>`, `&`, U+2028/9 escaped as encoding/json does. */
export function goJson(v: unknown): string {
  const sortKeys = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sortKeys);
    if (isPlainObject(x) && Object.hasOwn(x, STRUCT)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(x))
        Object.defineProperty(out, k, { value: sortKeys(x[k]), enumerable: true });
      return out;
    }
    if (isPlainObject(x)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(x).sort())
        Object.defineProperty(out, k, { value: sortKeys(x[k]), enumerable: true });
      return out;
    }
    return x;
  };
  return JSON.stringify(sortKeys(v)).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function fieldErrorCause(e: FieldError): StatusCause {
  return { reason: e.type, message: errorBody(e), field: e.field };
}

export function causesOf(errors: readonly FieldError[]): StatusCause[] {
  return errors.map(fieldErrorCause);
}
