/**
 * Request bodies in Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`): the magic
 * `k8s\0`, then a runtime.Unknown holding the apiVersion, kind and the object's message. client-go's
 * typed clients send built-in objects this way (kubectl `create deployment`, `create service` …),
 * so the server decodes them to the JSON form the engine's API server takes. Field numbers and
 * types come from k8s.io/api's generated.proto files (k8s-proto.json, scripts/gen-k8s-proto.mjs).
 *
 * Go's generated marshallers write every non-pointer field, zero values included, where JSON's
 * `omitempty` leaves them out; the decoded object drops empty strings, false, zero numbers, empty
 * lists and maps the same way, except for the pointer fields below whose zero is meaningful.
 */
import { readFileSync } from 'node:fs';
import { badRequest } from './status.ts';

type Field = [name: string, type: string, repeated: boolean, mapValue?: string];

const SCHEMA = JSON.parse(readFileSync(new URL('./k8s-proto.json', import.meta.url), 'utf8')) as {
  messages: Record<string, Record<string, Field>>;
};

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
/** Pointer fields (`*int32`, `*bool`) whose zero value is written on purpose and must survive. */
const KEEP_ZERO = new Set([
  'replicas',
  'automountServiceAccountToken',
  'enableServiceLinks',
  'allocateLoadBalancerNodePorts',
  'terminationGracePeriodSeconds',
  'revisionHistoryLimit',
  'runAsUser',
  'runAsGroup',
  'runAsNonRoot',
  'privileged',
  'readOnlyRootFilesystem',
  'allowPrivilegeEscalation',
  'hostUsers',
  'nodePort',
  'healthCheckNodePort',
]);

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MAGIC = [0x6b, 0x38, 0x73, 0x00];

class Reader {
  pos = 0;
  readonly buf: Uint8Array;
  readonly end: number;
  constructor(buf: Uint8Array) {
    this.buf = buf;
    this.end = buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.end || shift > 63n) throw badRequest('invalid protobuf: truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  bytes(): Uint8Array {
    const len = Number(this.varint());
    if (len < 0 || this.pos + len > this.end) throw badRequest('invalid protobuf: truncated field');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw badRequest(`invalid protobuf: wire type ${wire}`);
    if (this.pos > this.end) throw badRequest('invalid protobuf: truncated field');
  }
}

/** Objects decoded from protobuf maps: their entries are data, kept even when empty. */
const MAPS = new WeakSet<object>();

const utf8 = new TextDecoder('utf-8', { fatal: false });

function scalar(type: string, wire: number, r: Reader): unknown {
  switch (type) {
    case 'string':
      return utf8.decode(r.bytes());
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    case 'bool':
      return r.varint() !== 0n;
    case 'int32':
    case 'int64':
      return Number(BigInt.asIntN(64, r.varint()));
    case 'uint32':
    case 'uint64':
      return Number(r.varint());
    case 'double': {
      if (wire !== 1) throw badRequest('invalid protobuf: double without fixed64');
      const v = Buffer.from(r.buf.buffer, r.buf.byteOffset + r.pos, 8).readDoubleLE(0);
      r.pos += 8;
      return v;
    }
    default:
      throw badRequest(`invalid protobuf: unsupported field type ${type}`);
  }
}

/** A message's JSON form, with the well-known apimachinery types mapped as their JSON marshallers do. */
function message(type: string, buf: Uint8Array, depth: number): unknown {
  if (depth > 100) throw badRequest('invalid protobuf: nesting too deep');
  const raw = decodeFields(type, buf, depth);
  switch (type) {
    case `${META}.Time`:
    case `${META}.MicroTime`: {
      const seconds = Number(raw.seconds ?? 0);
      if (seconds === 0 && !raw.nanos) return null;
      return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return raw.type === 1 ? (raw.strVal ?? '') : (raw.intVal ?? 0);
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return raw.string ?? '0';
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
    case `${META}.FieldsV1`: {
      const text = raw.raw ?? raw.Raw;
      return typeof text === 'string' ? JSON.parse(Buffer.from(text, 'base64').toString('utf8')) : {};
    }
    case `${META}.Duration`:
      return `${Number(raw.duration ?? 0) / 1e9}s`;
    default:
      return raw;
  }
}

function decodeFields(type: string, buf: Uint8Array, depth: number): Record<string, unknown> {
  const fields = SCHEMA.messages[type];
  if (!fields) throw badRequest(`invalid protobuf: no message ${type}`);
  const out: Record<string, unknown> = {};
  const r = new Reader(buf);
  while (r.pos < r.end) {
    const key = Number(r.varint());
    const num = key >>> 3;
    const wire = key & 7;
    const field = fields[String(num)];
    if (!field) {
      r.skip(wire);
      continue;
    }
    const [name, ftype, repeated, mapValue] = field;
    let value: unknown;
    if (ftype === 'map') {
      const entry = new Reader(r.bytes());
      let k = '';
      let v: unknown = mapValue === 'string' ? '' : undefined;
      while (entry.pos < entry.end) {
        const ek = Number(entry.varint());
        if (ek >>> 3 === 1) k = utf8.decode(entry.bytes());
        else if (ek >>> 3 === 2)
          v = SCHEMA.messages[mapValue!]
            ? message(mapValue!, entry.bytes(), depth + 1)
            : scalar(mapValue!, ek & 7, entry);
        else entry.skip(ek & 7);
      }
      let map = out[name] as Record<string, unknown> | undefined;
      if (!map) MAPS.add((out[name] = map = {}));
      map[k] = v;
      continue;
    }
    if (SCHEMA.messages[ftype]) value = message(ftype, r.bytes(), depth + 1);
    else if (repeated && wire === 2 && ftype !== 'string' && ftype !== 'bytes') {
      // A packed list of numbers.
      const packed = new Reader(r.bytes());
      const list = (out[name] ??= []) as unknown[];
      while (packed.pos < packed.end) list.push(scalar(ftype, 0, packed));
      continue;
    } else value = scalar(ftype, wire, r);
    if (repeated) ((out[name] ??= []) as unknown[]).push(value);
    else out[name] = value;
  }
  return out;
}

/** Drops what JSON's omitempty would have left out (see the module comment). */
function omitEmpty(value: unknown, key: string | undefined): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => omitEmpty(v, undefined)).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const isMap = MAPS.has(value);
    for (const [k, v] of Object.entries(value)) {
      const kept = isMap ? v : omitEmpty(v, k);
      if (kept !== undefined) out[k] = kept;
    }
    return Object.keys(out).length === 0 && !isMap ? undefined : out;
  }
  if (value === null) return undefined;
  if (
    (value === '' || value === false || value === 0) &&
    !(key !== undefined && KEEP_ZERO.has(key) && value !== '')
  )
    return undefined;
  return value;
}

export function isProtobuf(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim() === PROTOBUF;
}

/** The object a protobuf request body carries, as JSON. */
export function decodeProtobufObject(body: Uint8Array): Record<string, unknown> {
  if (body.length < 4 || MAGIC.some((b, i) => body[i] !== b))
    throw badRequest('invalid protobuf: the body does not start with the Kubernetes protobuf magic');
  const unknown = decodeFields('k8s.io.apimachinery.pkg.runtime.Unknown', body.subarray(4), 0);
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const { apiVersion = '', kind = '' } = typeMeta;
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
  const pkg = group === 'core' ? 'k8s.io.api.core' : `k8s.io.api.${group!.split('.')[0]}`;
  const type = `${pkg}.${version}.${kind}`;
  if (!SCHEMA.messages[type]) throw badRequest(`no kind "${kind}" is registered for version "${apiVersion}"`);
  const raw = typeof unknown.raw === 'string' ? Buffer.from(unknown.raw, 'base64') : new Uint8Array();
  const obj = omitEmpty(message(type, raw, 0), undefined) as Record<string, unknown> | undefined;
  return { apiVersion, kind, ...(obj ?? {}) };
}
