/**
 * `kubectl edit` (pkg/cmd/util/editor): writes the object(s) as YAML under the edit header to
 * `/tmp/kubectl-edit-<n>.yaml`, runs `$KUBE_EDITOR`, else `$EDITOR`, else `vi` on it through the
 * shell (editor.go `defaultEnvEditor`: split at spaces, or `sh -c` when the value has quotes or
 * backslashes), reads it back, and sends what changed: `service/web edited`. An unchanged file is
 * `Edit cancelled, no changes made.`, an empty one `Edit cancelled, saved file was empty.` (stderr).
 *
 * Simplified: the real command reopens the editor with the server's errors in the header until the
 * user saves a valid file or quits; with a non-interactive editor that second round changes nothing,
 * so here a rejected edit ends at once the way that round ends (file kept, `no valid changes`), with
 * the server's error printed first.
 */
import type { AnyObject, Manifest } from '../../api/objects.ts';
import { isPlainObject, jsonEqual } from '../../util/json.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, errorText } from '../errors.ts';
import { decodeSource } from '../manifests.ts';
import { asList, printGeneric, resourceName } from '../printers/output.ts';
import type { Fetched } from '../resource-args.ts';
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

function stripComments(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.trim().startsWith('#'))
    .join('\n');
}

export function runEdit(ctx: KubectlContext): number {
  const f = ctx.flags;
  // Validate the flags before any file is written.
  fieldValidation(ctx);
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
  const path = `/tmp/kubectl-edit-${ctx.host.rng.int(4_294_967_295)}.yaml`;
  files.mkdir('/tmp');
  const werr = files.write(path, original);
  if (werr) throw cmdError(`open ${path}: permission denied`);

  const argv = editor.shell
    ? [...editor.argv.slice(0, -1), `${editor.argv.at(-1)!} ${path}`]
    : [...editor.argv, path];
  const r = run(argv, '');
  // exec.ErrNotFound: the program is not there (the shell's own 127); any other failure is the editor's.
  if (!editor.shell && r.exitCode === 127) {
    files.remove(path);
    throw cmdError(`unable to launch the editor ${JSON.stringify(editor.text)}`);
  }
  ctx.err(r.stderr);
  if (r.exitCode !== 0) {
    files.remove(path);
    throw cmdError(`there was a problem with the editor ${JSON.stringify(editor.text)}`);
  }
  const read = files.read(path);
  const edited = 'content' in read ? read.content : '';
  if (stripComments(edited) === stripComments(original)) {
    files.remove(path);
    ctx.err('Edit cancelled, no changes made.\n');
    return 0;
  }
  if (stripComments(edited).trim() === '') {
    files.remove(path);
    ctx.err('Edit cancelled, saved file was empty.\n');
    return 0;
  }
  const failed = (e: unknown): number => {
    ctx.err(`${errorText(e)}\n`);
    ctx.err(`A copy of your changes has been stored to ${JSON.stringify(path)}\n`);
    ctx.err('error: Edit cancelled, no valid changes were saved.\n');
    return 1;
  };
  let objects: Manifest[];
  try {
    objects = decodeSource(path, stripComments(edited)).map((sm) => sm.manifest);
  } catch (e) {
    return failed(e);
  }
  for (const obj of objects) {
    const before = matching(found, obj);
    if (!before) return failed(cmdError('At least one of apiVersion, kind and name was changed'));
    if (jsonEqual(obj, before.object)) continue;
    const warnings: string[] = [];
    try {
      const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
      const next = { ...obj, metadata: { ...meta, resourceVersion: before.object.metadata.resourceVersion } };
      const result = ctx.host.api.update(next as Manifest, {
        fieldValidation: fieldValidation(ctx),
        warnings,
      });
      printWarnings(ctx, warnings);
      printOutcome(ctx, result as AnyObject, 'edited', 'none');
    } catch (e) {
      printWarnings(ctx, warnings);
      return failed(e);
    }
  }
  files.remove(path);
  return 0;
}

function matching(found: readonly Fetched[], obj: Manifest): Fetched | undefined {
  const name = isPlainObject(obj.metadata) ? obj.metadata.name : undefined;
  return found.find(
    (x) =>
      x.object.apiVersion === obj.apiVersion &&
      x.object.kind === obj.kind &&
      x.object.metadata.name === name &&
      resourceName(x.object) === resourceName(obj as AnyObject),
  );
}
