/**
 * Reading `-f` sources like kubectl's resource builder: a file, a directory (its .yaml/.yml/.json
 * files, sorted; `-R` descends), or `-` for stdin. Each source is split into YAML documents and each
 * document decoded on its own (so `yaml: line N` counts from the document's start, as go-yaml does).
 * YAML errors are worded like go-yaml v2 through sigs.k8s.io/yaml.
 */
import { parseDocument, Parser } from 'yaml';
import type { Manifest } from '../api/objects.ts';
import { isPlainObject } from '../util/json.ts';
import { cmdError, KubectlError } from './errors.ts';
import { normalisePath, type LabFiles } from '../shell/lab-files.ts';
import { YAML_LIMITS } from '../util/yaml-limits.ts';
import { readBlockYaml } from '../util/block-yaml.ts';
import { goYamlDepthError, goYamlFlowError, goYamlToJsError } from './go-yaml-limits.ts';

export interface SourcedManifest {
  /** The source as kubectl names it in messages: the path given, or `STDIN`. */
  readonly source: string;
  readonly manifest: Manifest;
}

const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];

/** Expands `-f` values into (source, text) pairs; throws kubectl's path errors. */
export function readSources(
  files: LabFiles,
  paths: readonly string[],
  stdin: string,
  recursive: boolean,
): { source: string; text: string }[] {
  const out: { source: string; text: string }[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push({ source: 'STDIN', text: stdin });
      continue;
    }
    if (/^https?:\/\//.test(p)) {
      throw cmdError(`unable to read URL "${p}", server reported 404 Not Found, status code=404`);
    }
    const text = files.read(p);
    if (text !== undefined) {
      out.push({ source: p, text });
      continue;
    }
    const listed = files.listDir(p);
    if (listed === undefined || (listed.length === 0 && p !== '.' && p !== ''))
      throw cmdError(`the path "${p}" does not exist`);
    const base = p.replace(/\/+$/, '');
    const norm = normalisePath(p) ?? '';
    const dirPrefix = norm === '' ? '' : `${norm}/`;
    for (const full of listed) {
      const rel = full.slice(dirPrefix.length);
      if (!recursive && rel.includes('/')) continue;
      if (!MANIFEST_EXTENSIONS.some((ext) => full.endsWith(ext))) continue;
      const shown = base === '' || base === '.' ? full : `${base}/${rel}`;
      out.push({ source: shown, text: files.read(full) ?? '' });
    }
  }
  return out;
}

/** Splits a stream at `---` document separators, keeping each document's own line numbering. */
export function splitDocuments(text: string): string[] {
  const docs: string[] = [];
  let cur: string[] = [];
  for (const line of text.split('\n')) {
    if (/^---(\s|$)/.test(line)) {
      // The line break before the separator belongs to the document, as in the YAML reader.
      docs.push(cur.length > 0 ? `${cur.join('\n')}\n` : '');
      cur = [];
      const rest = line.slice(3).trim();
      if (rest !== '' && !rest.startsWith('#')) cur.push(rest);
    } else cur.push(line);
  }
  docs.push(cur.join('\n'));
  return docs;
}

/** go-yaml's message and line for a `yaml` package error (scanner errors count lines from 1, parser errors from 0). */
export function goYamlError(code: string, message: string, line: number): string {
  switch (code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
      return `yaml: line ${line}: mapping values are not allowed in this context`;
    case 'TAB_AS_INDENT':
      return `yaml: line ${line}: found character that cannot start any token`;
    case 'MULTILINE_IMPLICIT_KEY':
      return `yaml: line ${line + 1}: could not find expected ':'`;
    case 'BAD_INDENT':
      // An unclosed `[` or `{`: go-yaml reaches the end of the document looking for the next item.
      if (/^Flow (sequence|map) in block collection/.test(message))
        return `yaml: line ${line - 1}: did not find expected node content`;
      return `yaml: line ${line - 1}: did not find expected key`;
    case 'MISSING_CHAR':
      if (/quote/.test(message)) return `yaml: line ${line}: found unexpected end of stream`;
      if (/Sequence item without/.test(message))
        return `yaml: line ${line - 1}: did not find expected '-' indicator`;
      return `yaml: line ${line - 1}: did not find expected key`;
    case 'BAD_DQ_ESCAPE':
      return `yaml: line ${line}: found unknown escape character while parsing a quoted scalar`;
    default:
      return `yaml: line ${Math.max(1, line - 1)}: did not find expected key`;
  }
}

/**
 * The offset of the first `[`/`{` in the document that the `yaml` package's CST leaves without its
 * matching close; go-yaml reports that collection's first unexpected token.
 */
function unclosedFlowStart(docText: string): number | undefined {
  let best: number | undefined;
  // An explicit stack, not recursion: the CST of a 10,000-deep flow collection is 10,000 levels deep.
  const stack: unknown[] = [...new Parser().parse(docText)];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    if (!isPlainObject(v)) continue;
    if (v.type === 'flow-collection' && isPlainObject(v.start) && Array.isArray(v.end)) {
      const close = v.start.source === '[' ? ']' : '}';
      const end: unknown = v.end[0];
      if (!(isPlainObject(end) && end.source === close) && typeof v.offset === 'number')
        best = Math.min(best ?? v.offset, v.offset);
    }
    for (const key of Object.keys(v)) if (typeof v[key] === 'object') stack.push(v[key]);
  }
  return best;
}

/**
 * Decodes one source's text document by document, as cli-runtime's `StreamVisitor` does: the
 * documents before a decode error are kept, and the error ends that source (later documents are not
 * read). `kind: List` documents contribute their items.
 */
export function decodeStream(
  source: string,
  text: string,
): { manifests: SourcedManifest[]; error: KubectlError | undefined } {
  const manifests: SourcedManifest[] = [];
  for (const docText of splitDocuments(text)) {
    if (docText.trim() === '') continue;
    let value: unknown;
    try {
      value = decodeDocument(source, docText);
    } catch (e) {
      if (e instanceof KubectlError) return { manifests, error: e };
      throw e;
    }
    if (value === null || value === undefined) continue;
    if (isPlainObject(value) && value.kind === 'List' && Array.isArray(value.items)) {
      for (const item of value.items) if (isPlainObject(item)) manifests.push({ source, manifest: item });
      continue;
    }
    manifests.push({ source, manifest: value as Manifest });
  }
  return { manifests, error: undefined };
}

function decodeDocument(source: string, docText: string): unknown {
  const tooDeep = goYamlDepthError(docText);
  if (tooDeep) throw cmdError(`error parsing ${source}: error converting YAML to JSON: ${tooDeep}`);
  // Most manifests are plain block YAML that the fast reader takes; it declines everything else.
  const value = readBlockYaml(docText) ?? parsedWithYaml(source, docText);
  if (value !== null && value !== undefined && !isPlainObject(value)) {
    throw cmdError(
      `error parsing ${source}: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : 'number'} into Go value of type map[string]interface {}`,
    );
  }
  return value;
}

/** The document's value by the `yaml` package; throws its errors worded as go-yaml's. */
function parsedWithYaml(source: string, docText: string): unknown {
  const doc = parseDocument(docText, { version: '1.1', uniqueKeys: false, prettyErrors: true });
  const first = doc.errors[0];
  if (first) {
    // The `yaml` package may first trip over what follows an unclosed `[`/`{` (a multi-line key,
    // the indentation); go-yaml stops inside the collection.
    const from = unclosedFlowStart(docText);
    const flow = from === undefined || from > first.pos[0] ? undefined : goYamlFlowError(docText, from);
    if (flow) throw cmdError(`error parsing ${source}: error converting YAML to JSON: ${flow}`);
    const line = first.linePos?.[0]?.line ?? 1;
    throw cmdError(
      `error parsing ${source}: error converting YAML to JSON: ${goYamlError(first.code, first.message, line)}`,
    );
  }
  try {
    return doc.toJS(YAML_LIMITS);
  } catch (e) {
    throw cmdError(`error parsing ${source}: error converting YAML to JSON: ${goYamlToJsError(e)}`);
  }
}

/** Decodes one source's text into manifests; throws the first decode error. */
export function decodeSource(source: string, text: string): SourcedManifest[] {
  const { manifests, error } = decodeStream(source, text);
  if (error) throw error;
  return manifests;
}

/** Reads and decodes every `-f` source. `error: no objects passed to apply` is the caller's to raise. */
export function readManifests(
  files: LabFiles,
  paths: readonly string[],
  stdin: string,
  recursive: boolean,
): SourcedManifest[] {
  const out: SourcedManifest[] = [];
  for (const { source, text } of readSources(files, paths, stdin, recursive))
    out.push(...decodeSource(source, text));
  return out;
}

/** Reads every `-f` source and decodes each as a stream (see decodeStream); path errors throw. */
export function readStreams(
  files: LabFiles,
  paths: readonly string[],
  stdin: string,
  recursive: boolean,
): { manifests: SourcedManifest[]; error: KubectlError | undefined }[] {
  return readSources(files, paths, stdin, recursive).map(({ source, text }) => decodeStream(source, text));
}
