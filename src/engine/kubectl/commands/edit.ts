/**
 * `kubectl edit` (pkg/cmd/util/editor): writes the object(s) as YAML under the edit header to
 * `/tmp/kubectl-edit-<n>.yaml`, runs `$KUBE_EDITOR`, else `$EDITOR`, else `vi` on it through the
 * shell (editor.go `defaultEnvEditor`: split at spaces, or `sh -c` when the value has quotes or
 * backslashes), reads it back, and sends a two-way merge patch of what changed: `service/web edited`.
 * An unchanged file is `Edit cancelled, no changes made.`, an empty one `Edit cancelled, saved file
 * was empty.` (stderr).
 *
 * When the server rejects a change as invalid (or the file does not parse), editoptions.go reopens
 * the editor on a new file: the header, then the reasons as comments (`# services "web" was not
 * valid:` / `# * spec.type: …`), then the edited text. Saving that file unchanged ends with `A copy
 * of your changes has been stored to "…"` and `error: Edit cancelled, no valid changes were saved.`
 * Other API errors end the edit at once (`could not be patched`, then the `kubectl replace -f` hint).
 */
import { goQuote, notFound, StatusError } from '../../api/errors.ts';
import type { AnyObject, Manifest } from '../../api/objects.ts';
import type { FieldValidation } from '../../apiserver/apiserver.ts';
import { isPlainObject } from '../../util/json.ts';
import { goJSON, twoWayMergePatch, withLastApplied } from '../apply-merge.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, type KubectlError } from '../errors.ts';
import { decodeStream } from '../manifests.ts';
import { mergePatch, strategicMergePatch } from '../patch.ts';
import { asList, printGeneric } from '../printers/output.ts';
import type { Fetched } from '../resource-args.ts';
import { CRD_GROUPS } from './apply.ts';
import { reportErrors } from './create.ts';
import { visitTargets } from './targets.ts';
import { fieldValidation, printOutcome, printWarnings } from './write.ts';

const HEADER = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
`;

/** editor.go `defaultEnvEditor`: the argv to run, and the text errors quote. */
export function editorCommand(env: Readonly<Record<string, string>>): {
  argv: string[];
  shell: boolean;
  text: string;
} {
  const text = env.KUBE_EDITOR || env.EDITOR || 'vi';
  if (!text.includes(' ')) return { argv: [text], shell: false, text };
  if (!/["'\\]/.test(text)) return { argv: text.split(' '), shell: false, text };
  // defaultEnvShell: $SHELL, else sh. The simulated workstation resolves programs by name only.
  const shell = (env.SHELL || 'sh').replace(/^.*\//, '');
  return { argv: [shell, '-c', text], shell: true, text };
}

/** cmdutil `ManualStrip`: the text without its comment lines (`#!` lines stay). */
function manualStrip(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.trim().startsWith('#') || l.trim().startsWith('#!'))
    .join('\n');
}

/** cmdutil `StripComments`: the YAML as JSON when it parses (so only data counts), else manualStrip. */
function stripComments(text: string): string {
  const { manifests, error } = decodeStream('edited-file', text);
  return error ? manualStrip(text) : JSON.stringify(manifests.map((sm) => sm.manifest));
}

/** editoptions.go `hasLines`: some line that is neither blank nor a comment. */
function hasLines(text: string): boolean {
  return text.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'));
}

/** editoptions.go `hashOnLineBreak`: continuation lines of a reason stay comments. */
function hashOnLineBreak(s: string): string {
  return s.replace(/\n(?!#)/g, '\n# ');
}

interface EditReason {
  readonly head: string;
  readonly other: readonly string[];
}

/** editHeader `writeTo`. */
function headerWith(reasons: readonly EditReason[]): string {
  let out = HEADER;
  for (const r of reasons) {
    out += `# ${hashOnLineBreak(r.head)}${r.other.length > 0 ? ':' : ''}\n`;
    for (const o of r.other) out += `# * ${hashOnLineBreak(o)}\n`;
    out += '#\n';
  }
  return out;
}

/**
 * A real editor loop only ends when the learner saves a valid or unchanged file; an editor command
 * that changes the file again on every round would loop for ever, so the simulation stops after this
 * many rounds as if the last one had been saved unchanged.
 */
const MAX_ROUNDS = 10;

interface Round {
  reasons: EditReason[];
  invalid: number;
  retryable: number;
  notfound: number;
}

export function runEdit(ctx: KubectlContext): number {
  const f = ctx.flags;
  // Validate the flags before any file is written.
  const validation = fieldValidation(ctx);
  const { found, errors } = visitTargets(ctx, f.args, { selectors: true });
  if (errors.length > 0) return reportErrors(ctx, errors);
  if (found.length === 0) return 0;
  const files = ctx.io.files;
  const run = ctx.io.run;
  const editor = editorCommand(ctx.io.env);
  if (!files || !run) throw cmdError(`unable to launch the editor ${JSON.stringify(editor.text)}`);

  const shown: unknown = found.length === 1 ? found[0]!.object : asList(found.map((x) => x.object));
  const original =
    HEADER + printGeneric({ kind: 'yaml' }, shown, { showManagedFields: f.bool('show-managed-fields') });
  files.mkdir('/tmp');
  /** editoptions.go `preservedFile`: say where the learner's text is kept, then fail with `err`. */
  const preserved = (err: KubectlError, path: string): never => {
    if (path !== '' && 'content' in files.read(path))
      ctx.err(`A copy of your changes has been stored to ${JSON.stringify(path)}\n`);
    throw err;
  };

  let buffer = original;
  let edited = '';
  let previous = '';
  let containsError = false;
  for (let round = 1; ; round++) {
    const path = `/tmp/kubectl-edit-${ctx.host.rng.int(4_294_967_295)}.yaml`;
    if (files.write(path, buffer)) preserved(cmdError(`open ${path}: permission denied`), previous);
    // editor.go Editor.args: in shell form the path is appended with Go's %q.
    const argv = editor.shell
      ? [...editor.argv.slice(0, -1), `${editor.argv.at(-1)!} ${JSON.stringify(path)}`]
      : [...editor.argv, path];
    const r = run(argv, '');
    // exec.ErrNotFound: the program is not there (the shell's own 127); any other failure is the editor's.
    if (!editor.shell && r.exitCode === 127) {
      files.remove(path);
      preserved(cmdError(`unable to launch the editor ${JSON.stringify(editor.text)}`), previous);
    }
    ctx.err(r.stderr);
    if (r.exitCode !== 0) {
      files.remove(path);
      preserved(cmdError(`there was a problem with the editor ${JSON.stringify(editor.text)}`), previous);
    }
    const before = edited;
    const read = files.read(path);
    edited = 'content' in read ? read.content : '';
    if (containsError && (stripComments(before) === stripComments(edited) || round > MAX_ROUNDS))
      preserved(cmdError('Edit cancelled, no valid changes were saved.'), path);
    if (previous !== '') files.remove(previous);
    if (stripComments(original) === stripComments(edited)) {
      files.remove(path);
      ctx.err('Edit cancelled, no changes made.\n');
      return 0;
    }
    if (!hasLines(edited)) {
      files.remove(path);
      ctx.err('Edit cancelled, saved file was empty.\n');
      return 0;
    }
    previous = path;
    const decoded = decodeStream('edited-file', edited);
    if (decoded.error) {
      containsError = true;
      const head = `The edited file had a syntax error: ${decoded.error.text.replace(/^error: /, '')}`;
      buffer = headerWith([{ head, other: [] }]) + manualStrip(edited);
      continue;
    }
    const objects = decoded.manifests.map((sm) => sm.manifest);
    for (const obj of objects) {
      const ns = isPlainObject(obj.metadata) ? obj.metadata.namespace : undefined;
      if (typeof ns === 'string' && ns !== '' && ns !== ctx.namespace && !f.bool('all-namespaces'))
        preserved(
          cmdError(
            `the namespace from the provided object "${ns}" does not match the namespace "${ctx.namespace}". You must pass '--namespace=${ns}' to perform this operation.`,
          ),
          path,
        );
    }
    const results: Round = { reasons: [], invalid: 0, retryable: 0, notfound: 0 };
    for (const obj of objects) {
      const sent = f.bool('save-config') ? (withLastApplied(obj) as Manifest) : obj;
      const failure = patchOne(ctx, found, sent, validation, results);
      if (failure) preserved(failure, path);
    }
    if (results.retryable > 0) {
      ctx.err(`You can run \`kubectl replace -f ${path}\` to try this update again.\n`);
      return 1;
    }
    if (results.notfound > 0) {
      ctx.err(`The edits you made on deleted resources have been saved to ${JSON.stringify(path)}\n`);
      return 1;
    }
    if (results.invalid === 0) {
      files.remove(path);
      return 0;
    }
    containsError = true;
    buffer = headerWith(results.reasons) + manualStrip(edited);
  }
}

/**
 * editoptions.go `visitToPatch` for one edited object: the patch against the object as shown, sent to
 * the live one. API errors are recorded in `results` (and printed); a client-side refusal is returned.
 */
function patchOne(
  ctx: KubectlContext,
  found: readonly Fetched[],
  obj: Manifest,
  validation: FieldValidation,
  results: Round,
): KubectlError | undefined {
  const uid = isPlainObject(obj.metadata) ? obj.metadata.uid : undefined;
  const before = found.find((x) => x.object.metadata.uid === uid);
  if (!before) return cmdError('no original object found for the edited object');
  const strategic = !CRD_GROUPS.has(before.info.group);
  const shownObj = before.object as Record<string, unknown>;
  const patch = twoWayMergePatch(shownObj, obj, strategic);
  if (Object.keys(patch).length === 0) {
    printOutcome(ctx, before.object, 'skipped', 'none');
    return undefined;
  }
  const meta = isPlainObject(patch.metadata) ? patch.metadata : {};
  if ('apiVersion' in patch || 'kind' in patch || 'name' in meta || 'managedFields' in meta)
    return cmdError('At least one of apiVersion, kind and name was changed');
  if (ctx.flags.bool('output-patch')) ctx.out(`Patch: ${goJSON(patch)}\n`);
  const info = before.info;
  const resource = info.group ? `${info.plural}.${info.group}` : info.plural;
  const name = before.object.metadata.name;
  const warnings: string[] = [];
  try {
    const live = ctx.host.api.get(info.key, before.object.metadata.namespace, name) as AnyObject | undefined;
    if (!live) throw notFound(resource, name);
    const current = live as Record<string, unknown>;
    const next = strategic ? strategicMergePatch(current, patch) : mergePatch(current, patch);
    const result = ctx.host.api.update(next as Manifest, { fieldValidation: validation, warnings });
    printWarnings(ctx, warnings);
    printOutcome(ctx, result, 'edited', 'none');
  } catch (e) {
    printWarnings(ctx, warnings);
    if (!(e instanceof StatusError)) throw e;
    // editResults `addError`.
    if (e.reason === 'Invalid') {
      results.invalid++;
      results.reasons.push({
        head: `${resource} ${goQuote(name)} was not valid`,
        other: e.causes.map((c) => `${c.field}: ${c.message}`),
      });
      ctx.err(`error: ${resource} ${goQuote(name)} is invalid\n`);
    } else if (e.reason === 'NotFound') {
      results.notfound++;
      ctx.err(`error: ${resource} ${goQuote(name)} could not be found on the server\n`);
    } else {
      results.retryable++;
      ctx.err(`error: ${resource} ${goQuote(name)} could not be patched: ${e.message}\n`);
    }
  }
  return undefined;
}
