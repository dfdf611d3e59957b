/**
 * `--field-selector`, evaluated as kube-apiserver evaluates a list's `fieldSelector`: the text parses
 * like apimachinery `fields.ParseSelector` (terms joined by `,`, operators `!=`, `==`, `=`, `\`
 * escapes), each field is checked by the kind's field-label conversion (`pkg/apis/core/v1/conversion.go`
 * `AddFieldLabelConversionFunc`, else `runtime.DefaultMetaV1FieldSelectorConversion`), and objects match
 * on their selectable field set (`ToSelectableFields` in each registry's strategy.go). A bad selector is
 * the server's BadRequest, reworded by cli-runtime's selector visitor:
 * `Unable to find "/v1, Resource=pods" that match label selector "", field selector "foo=bar": field label not supported: foo`.
 */
import type { AnyObject } from '../api/objects.ts';
import type { ResourceInfo } from '../api/resources.ts';
import { StatusError } from '../api/errors.ts';

export interface FieldRequirement {
  readonly field: string;
  readonly op: '=' | '!=';
  readonly value: string;
}

/** The fields each kind's conversion func accepts (besides none: every kind lists its own). */
const SELECTABLE: Readonly<Record<string, readonly string[]>> = {
  Pod: [
    'metadata.name',
    'metadata.namespace',
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
  ],
  Node: ['metadata.name', 'spec.unschedulable'],
  ReplicationController: ['metadata.name', 'metadata.namespace', 'status.replicas'],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    'metadata.namespace',
    'metadata.name',
  ],
  Namespace: ['status.phase', 'metadata.name'],
  Secret: ['type', 'metadata.namespace', 'metadata.name'],
  Service: ['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type'],
  ReplicaSet: ['metadata.name', 'metadata.namespace', 'status.replicas'],
  Job: ['metadata.name', 'metadata.namespace', 'status.successful'],
};

/** `fields.ParseSelector`; throws the parser's error text. */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  if (text === '') return out;
  for (const term of splitTerms(text)) {
    if (term === '') continue;
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(term);
    if (!m) throw new Error(`invalid selector: '${text}'; can't understand '${term}'`);
    out.push({ field: unescape(m[1]!), op: m[2] === '!=' ? '!=' : '=', value: unescape(m[3]!) });
  }
  return out;
}

function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      cur += c + text[++i]!;
    } else if (c === ',') {
      terms.push(cur);
      cur = '';
    } else cur += c;
  }
  terms.push(cur);
  return terms;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** `schema.GroupVersionResource.String()`: `/v1, Resource=pods`, `apps/v1, Resource=deployments`. */
export function gvrString(info: ResourceInfo): string {
  return `${info.group}/${info.version}, Resource=${info.plural}`;
}

/**
 * The API server's check of a field selector against the kind's selectable fields: the requirements,
 * or a BadRequest with the registry's own message (`field label not supported: spec.foo`).
 */
export function serverFieldSelector(info: ResourceInfo, text: string): FieldRequirement[] {
  let reqs: FieldRequirement[];
  try {
    reqs = parseFieldSelector(text);
  } catch (e) {
    throw new StatusError('BadRequest', e instanceof Error ? e.message : String(e));
  }
  const allowed = SELECTABLE[info.kind];
  for (const r of reqs) {
    if (allowed) {
      if (!allowed.includes(r.field)) throw new StatusError('BadRequest', `field label not supported: ${r.field}`);
    } else if (r.field !== 'metadata.name' && r.field !== 'metadata.namespace') {
      throw new StatusError(
        'BadRequest',
        `"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
      );
    }
  }
  return reqs;
}

/**
 * Checks the selector against the kind's selectable fields; throws the BadRequest kubectl prints
 * (the server's message under the resource builder's `Unable to find …`).
 * `labelSelector` is the `-l` text as given (it appears in the message).
 */
export function checkFieldSelector(
  info: ResourceInfo,
  text: string,
  labelSelector: string,
): FieldRequirement[] {
  try {
    return serverFieldSelector(info, text);
  } catch (e) {
    throw new StatusError(
      'BadRequest',
      `Unable to find "${gvrString(info)}" that match label selector "${labelSelector}", field selector "${text}": ${(e as Error).message}`,
    );
  }
}

type Fields = Record<string, unknown>;

function at(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Fields)[p];
  }
  return cur;
}

/** The value the registry puts in the object's selectable field set (absent fields are ""). */
function fieldValue(obj: AnyObject, field: string): string {
  if (obj.kind === 'Pod') {
    if (field === 'spec.hostNetwork') return String(at(obj, field) === true);
    if (field === 'spec.restartPolicy') return String(at(obj, field) ?? 'Always');
    if (field === 'spec.schedulerName') return String(at(obj, field) ?? 'default-scheduler');
    if (field === 'status.podIPs') {
      const ips = at(obj, 'status.podIPs');
      return Array.isArray(ips) ? ips.map((p) => String((p as Fields).ip ?? '')).join(',') : '';
    }
  }
  if (obj.kind === 'Node' && field === 'spec.unschedulable') return String(at(obj, field) === true);
  if (obj.kind === 'Event' && field === 'source') return String(at(obj, 'source.component') ?? '');
  const v = at(obj, field);
  return v === undefined || v === null ? '' : String(v);
}

export function matchesFields(reqs: readonly FieldRequirement[], obj: AnyObject): boolean {
  return reqs.every((r) => (fieldValue(obj, r.field) === r.value) === (r.op === '='));
}
