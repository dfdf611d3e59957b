/**
 * `kubectl label` and `kubectl annotate` (pkg/cmd/label, pkg/cmd/annotate): `key=value` sets,
 * `key-` removes, an existing key needs `--overwrite`
 * (`error: 'app' already has a value (web), and --overwrite is false`); prints `pod/web labeled`,
 * `unlabeled` when only removing, `not labeled` when nothing changed (annotate: `annotated`).
 */
import type { AnyObject } from '../../api/objects.ts';
import { setOwn } from '../../apiserver/json-values.ts';
import { deepClone, jsonEqual } from '../../util/json.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError, usageError } from '../errors.ts';
import { readManifests } from '../manifests.ts';
import {
  fetchRefs,
  kindPrefix,
  parseLabelSelector,
  parseResourceArgs,
  type Fetched,
} from '../resource-args.ts';
import { conflict } from '../../api/errors.ts';
import { reportErrors } from './create.ts';
import { refsFromManifests } from './file-refs.ts';
import { localTargets } from './targets.ts';
import { dryRunMode, dryRunSuffix, printOutcome, updateObject } from './write.ts';

/** polymorphichelpers.ChangeCauseAnnotation, which annotate may always overwrite. */
const CHANGE_CAUSE = 'kubernetes.io/change-cause';
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

interface Changes {
  readonly set: Record<string, string>;
  readonly remove: string[];
}

/** `parseLabels`/`parseAnnotations` argument split: resources first, then the changes. */
function splitArgs(
  args: readonly string[],
  what: 'label' | 'annotation',
): { resources: string[]; changes: string[] } {
  // cmdutil.GetResourcesAndPairs: `=x` and `-` are resource arguments.
  const isChange = (a: string): boolean =>
    (a.includes('=') && a[0] !== '=') || (a.endsWith('-') && a !== '-');
  const first = args.findIndex(isChange);
  if (first < 0) return { resources: [...args], changes: [] };
  const late = args.slice(first).find((a) => !isChange(a));
  if (late !== undefined) throw cmdError(`all resources must be specified before ${what} changes: ${late}`);
  return { resources: args.slice(0, first), changes: args.slice(first) };
}

/** The file names label.go / annotate.go give as examples in their `--local` errors. */
const LOCAL_EXAMPLE = {
  label: '-f pod.yaml or --filename=pod.json',
  annotation: '-f rsrc.yaml or --filename=rsrc.json',
} as const;

/**
 * label.go `parseLabels`: `k=v` must split into exactly two parts and its value be a valid label value;
 * keys are left to the API server. annotate.go goes through `cmdutil.ParsePairs`, which splits at the
 * first `=` and checks nothing. Every item is a change (splitArgs put the rest among the resources).
 */
function parseChanges(items: readonly string[], what: 'label' | 'annotation'): Changes {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq < 0) {
      remove.push(item.slice(0, -1));
      continue;
    }
    const k = item.slice(0, eq);
    const v = item.slice(eq + 1);
    if (what === 'label') {
      if (v.includes('=')) throw cmdError(`invalid label spec: ${item}`);
      if (!VALUE.test(v) || v.length > 63) {
        throw cmdError(
          `invalid label value: "${item}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
        );
      }
    }
    setOwn(set, k, v); // a `__proto__` key is data, for the server to judge
  }
  const both = remove.filter((k) => Object.hasOwn(set, k));
  if (both.length > 0) {
    throw cmdError(
      what === 'label'
        ? 'can not both modify and remove a label in the same command'
        : `can not both modify and remove the following annotation(s) in the same command: ${both.join(', ')}`,
    );
  }
  return { set, remove };
}

/**
 * label.go `validateNoOverwrites` (an aggregate: one error is `error: …`, several are bare lines) and
 * annotate.go `validateNoAnnotationOverwrites` (one message; the change-cause annotation is exempt).
 * Go walks a map; the arguments' order stands in for it.
 */
function checkOverwrites(
  what: 'label' | 'annotation',
  current: Record<string, string>,
  set: Changes['set'],
): void {
  const clashes = Object.entries(set).filter(
    ([k, v]) =>
      Object.hasOwn(current, k) && current[k] !== v && !(what === 'annotation' && k === CHANGE_CAUSE),
  );
  if (clashes.length === 0) return;
  if (what === 'annotation') {
    const found = clashes.map(([k]) => `'${k}' already has a value (${current[k]})`).join('; ');
    throw cmdError(`--overwrite is false but found the following declared annotation(s): ${found}`);
  }
  const lines = clashes.map(([k]) => `'${k}' already has a value (${current[k]}), and --overwrite is false`);
  throw lines.length === 1 ? cmdError(lines[0]!) : new KubectlError(lines.join('\n'));
}

function run(ctx: KubectlContext, what: 'label' | 'annotation'): number {
  const f = ctx.flags;
  const { resources, changes } = splitArgs(f.args, what);
  const filenames = f.array('filename');
  const local = f.bool('local');
  const mode = dryRunMode(ctx);
  // Validate: --local works on the -f files alone and never talks to the server.
  if (local) {
    if (mode === 'server')
      throw cmdError('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
    if (resources.length > 0)
      throw cmdError(`can only use local files by ${LOCAL_EXAMPLE[what]} when --local=true is set`);
    if (filenames.length === 0)
      throw cmdError(`one or more files must be specified as ${LOCAL_EXAMPLE[what]}`);
  }
  if (resources.length === 0 && filenames.length === 0) {
    throw cmdError('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  }
  if (changes.length === 0 && !f.bool('list')) throw cmdError(`at least one ${what} update is required`);
  const parsed = parseChanges(changes, what);
  let found: Fetched[] = [];
  let errors: Error[] = [];
  if (local) {
    ({ found, errors } = localTargets(ctx, ''));
  } else if (filenames.length > 0) {
    const manifests = readManifests(ctx.host.files, filenames, ctx.io.stdin, f.bool('recursive'));
    for (const { ref, namespace } of refsFromManifests(ctx, manifests)) {
      const r = fetchRefs(ctx.host.api, [ref], { namespace, allNamespaces: false, selector: [] });
      found.push(...r.found);
      errors.push(...r.errors);
    }
  } else {
    const refs = parseResourceArgs(resources);
    const fieldSelector = f.string('field-selector');
    if (
      !f.bool('all') &&
      f.string('selector') === '' &&
      fieldSelector === '' &&
      refs.some((r) => r.name === undefined)
    ) {
      throw usageError(ctx.commandPath, 'resource(s) were provided, but no name was specified');
    }
    ({ found, errors } = fetchRefs(ctx.host.api, refs, {
      namespace: ctx.namespace,
      allNamespaces: f.bool('all-namespaces'),
      selector: parseLabelSelector(f.string('selector')),
      fieldSelector,
      labelSelectorText: f.string('selector'),
    }));
  }
  const all: unknown[] = [...errors];
  for (const x of found) {
    try {
      apply(ctx, what, x, parsed, mode);
    } catch (e) {
      all.push(e);
    }
  }
  return reportErrors(ctx, all);
}

function apply(
  ctx: KubectlContext,
  what: 'label' | 'annotation',
  x: Fetched,
  changes: Changes,
  mode: string,
): void {
  const field = what === 'label' ? 'labels' : 'annotations';
  const current = { ...(x.object.metadata[field] ?? {}) } as Record<string, string>;
  if (ctx.flags.bool('list')) {
    for (const k of Object.keys(current).sort()) ctx.out(`${k}=${current[k]}\n`);
    return;
  }
  if (!ctx.flags.bool('overwrite')) checkOverwrites(what, current, changes.set);
  // Only a request to the server reports a missing key (label.go's non-local, non-client-dry-run path).
  const sends = mode !== 'client' && !ctx.flags.bool('local');
  const next = { ...current, ...changes.set };
  for (const k of changes.remove) {
    if (!Object.hasOwn(next, k) && what === 'label' && sends) ctx.out(`label "${k}" not found.\n`);
    delete next[k];
  }
  const changed = !jsonEqual(next, current);
  const verb = what === 'label' ? 'labeled' : 'annotated';
  const operation = !changed ? `not ${verb}` : Object.keys(changes.set).length === 0 ? `un${verb}` : verb;
  const obj = deepClone(x.object);
  obj.metadata = { ...obj.metadata, [field]: next };
  if (Object.keys(next).length === 0) delete (obj.metadata as unknown as Record<string, unknown>)[field];
  // --resource-version goes into the patch, so the server refuses it when the object has moved on.
  const rv = ctx.flags.string('resource-version');
  if (rv !== '') obj.metadata.resourceVersion = rv;
  let result: AnyObject = changed || !sends ? obj : x.object;
  if (sends && rv !== '' && rv !== x.object.metadata.resourceVersion) {
    throw conflict(
      x.info.group ? `${x.info.plural}.${x.info.group}` : x.info.plural,
      x.object.metadata.name,
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  }
  if (changed && sends) {
    // kubectl sends a merge patch of metadata only; the spec is never re-validated.
    result =
      mode === 'none' && ctx.host.api.updateMetadata
        ? ctx.host.api.updateMetadata(obj)
        : updateObject(ctx, obj, mode === 'server' ? 'server' : 'none');
  }
  if (ctx.outputRequested()) {
    printOutcome(ctx, result, operation, mode as 'none');
    return;
  }
  ctx.out(`${kindPrefix(x.info)}/${x.object.metadata.name} ${operation}${dryRunSuffix(mode as 'none')}\n`);
}

export function runLabel(ctx: KubectlContext): number {
  return run(ctx, 'label');
}

export function runAnnotate(ctx: KubectlContext): number {
  return run(ctx, 'annotation');
}
