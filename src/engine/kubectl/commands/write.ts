/**
 * Shared by the commands that write objects: `--dry-run` and `--validate` parsing with kubectl's
 * errors, API warnings printed as `Warning: …`, and the result line (`deployment.apps/web created`,
 * `… (dry run)`, `… (server dry run)`) or the object in the `-o` format.
 */
import type { AnyObject, Manifest } from '../../api/objects.ts';
import type { FieldValidation } from '../../apiserver/apiserver.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
import { parseOutputFormat, printGeneric, resourceName } from '../printers/output.ts';

export type DryRun = 'none' | 'client' | 'server';

export function dryRunMode(ctx: KubectlContext): DryRun {
  const v = ctx.flags.string('dry-run');
  switch (v) {
    case '':
    case 'none':
    case 'false':
      return 'none';
    case 'client':
    case 'unchanged':
    case 'true':
      return 'client';
    case 'server':
      return 'server';
    default:
      throw cmdError(`Invalid dry-run value (${v}). Must be "none", "server", or "client".`);
  }
}

export function fieldValidation(ctx: KubectlContext): FieldValidation {
  const v = ctx.flags.string('validate').toLowerCase();
  switch (v) {
    case '':
    case 'strict':
    case 'true':
      return 'Strict';
    case 'warn':
      return 'Warn';
    case 'ignore':
    case 'false':
      return 'Ignore';
    default:
      throw cmdError(
        `invalid - validate option "${ctx.flags.string('validate')}"; must be one of: strict (or true), warn, ignore (or false)`,
      );
  }
}

export function printWarnings(ctx: KubectlContext, warnings: readonly string[]): void {
  for (const w of warnings) ctx.err(w.startsWith('Warning: ') ? `${w}\n` : `Warning: ${w}\n`);
}

/** The suffix kubectl appends to operation lines in dry-run mode. */
export function dryRunSuffix(mode: DryRun): string {
  return mode === 'client' ? ' (dry run)' : mode === 'server' ? ' (server dry run)' : '';
}

/**
 * Prints the outcome of a write: the object in the `-o` format when one was asked for, else
 * `<kind.group>/<name> <operation>`. `keepOrder` keeps a client-built object's Go field order in JSON.
 */
export function printOutcome(
  ctx: KubectlContext,
  obj: AnyObject | Manifest,
  operation: string,
  mode: DryRun,
  keepOrder = false,
): void {
  if (ctx.outputRequested()) {
    const format = parseOutputFormat(ctx.flags.string('output'), false, ctx.templateInput());
    if (format.kind === 'table' || format.kind === 'custom-columns') return;
    if (format.kind === 'name') {
      ctx.out(`${resourceName(obj as AnyObject)}\n`);
      return;
    }
    ctx.out(
      printGeneric(format, obj, { keepOrder, showManagedFields: ctx.flags.bool('show-managed-fields') }),
    );
    return;
  }
  ctx.out(`${resourceName(obj as AnyObject)} ${operation}${dryRunSuffix(mode)}\n`);
}

/** POSTs a manifest with the command's validation and dry-run settings. */
export function createObject(ctx: KubectlContext, manifest: Manifest, mode: DryRun): AnyObject {
  const warnings: string[] = [];
  try {
    return ctx.host.api.create(manifest, {
      fieldValidation: fieldValidation(ctx),
      dryRun: mode === 'server',
      warnings,
    });
  } finally {
    printWarnings(ctx, warnings);
  }
}

export function updateObject(ctx: KubectlContext, manifest: Manifest, mode: DryRun): AnyObject {
  const warnings: string[] = [];
  try {
    return ctx.host.api.update(manifest, {
      fieldValidation: fieldValidation(ctx),
      dryRun: mode === 'server',
      warnings,
    });
  } finally {
    printWarnings(ctx, warnings);
  }
}
