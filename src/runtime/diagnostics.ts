/**
 * Places kubectl's error text on the lines of a manifest, for the editor's markers. kubectl names the
 * problem by field path (`spec.replicas: Invalid value…`, `strict decoding error: unknown field
 * "spec.replica"`, `ValidationError(Deployment.spec)`) or by YAML line (`yaml: line 7: …`); we find
 * that path's key in the YAML document the error is about and mark it. Errors we cannot place go on
 * the first line, so nothing is ever silently dropped.
 */
import { isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import type { Diagnostic } from './protocol.ts';
import { YAML_LIMITS } from '../engine/data.ts';

type Range = { start: number; end: number };

function offsetToPosition(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** `spec.ports[0].port` → ['spec', 'ports', 0, 'port']. */
export function splitFieldPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[1] !== undefined) out.push(m[1]);
  }
  return out;
}

/** The range of the deepest key (or sequence item) on `path` that exists in the document. */
function locate(doc: Document, path: readonly (string | number)[]): Range | undefined {
  let node: unknown = doc.contents;
  let found: Range | undefined;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(part));
      if (!pair) break;
      const key = pair.key as Node;
      if (key.range) found = { start: key.range[0], end: key.range[1] };
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number') {
      const item = node.items[part] as Node | undefined;
      if (!item) break;
      if (item.range) found = { start: item.range[0], end: item.range[0] + 1 };
      node = item;
    } else break;
  }
  return found;
}

const FIELD_PATH =
  /(?:^|[\s"'[(,*])((?:apiVersion|kind|metadata|spec|data|stringData|status|type|rules|subjects|roleRef)(?:\.[A-Za-z0-9_/-]+|\[\d+\])*)/;

/** Which document an error is about: `The Deployment "web" is invalid`, `deployments.apps "web"`. */
function pickDocument(docs: readonly Document[], line: string): Document | undefined {
  const m = /(?:The |^)([A-Z][A-Za-z]+) "([^"]+)"/.exec(line);
  if (m) {
    const hit = docs.find((d) => {
      // An alias bomb in the editor must not throw here: toJS with the limits throws early, caught below.
      let js: { kind?: unknown; metadata?: { name?: unknown } } | null;
      try {
        js = d.toJS(YAML_LIMITS) as typeof js;
      } catch {
        return false;
      }
      return js?.kind === m[1] && js?.metadata?.name === m[2];
    });
    if (hit) return hit;
  }
  return docs[0];
}

/** Turns kubectl's stderr for `apply --dry-run=server -f FILE` into positioned diagnostics. */
export function diagnosticsFor(text: string, stderr: string): Diagnostic[] {
  let docs: Document[] = [];
  try {
    docs = parseAllDocuments(text) as Document[];
  } catch {
    docs = [];
  }
  const lines = stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !/^\s*(See|Run) '/.test(l));
  const out: Diagnostic[] = [];
  for (const line of lines) {
    const message = line.replace(/^\s*\*\s*/, '');
    const yamlLine = /\bline (\d+)(?::(\d+))?/.exec(line);
    if (yamlLine) {
      const n = Number(yamlLine[1]);
      out.push({ message, line: n, column: 1, endLine: n, endColumn: 1000 });
      continue;
    }
    const unknownField = /unknown field "([^"]+)"/.exec(line);
    const fieldPath = unknownField?.[1] ?? FIELD_PATH.exec(line)?.[1];
    const doc = pickDocument(docs, line);
    const range = fieldPath && doc ? locate(doc, splitFieldPath(fieldPath)) : undefined;
    if (range) {
      const s = offsetToPosition(text, range.start);
      const e = offsetToPosition(text, range.end);
      out.push({ message, line: s.line, column: s.column, endLine: e.line, endColumn: e.column });
    } else {
      out.push({ message, line: 1, column: 1, endLine: 1, endColumn: 1000 });
    }
  }
  return out;
}
