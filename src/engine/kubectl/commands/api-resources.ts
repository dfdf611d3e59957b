/**
 * `kubectl api-resources` (NAME SHORTNAMES APIVERSION NAMESPACED KIND; `-o wide` adds VERBS and
 * CATEGORIES; `-o name`; `--namespaced`, `--api-group`) and `kubectl api-versions`, from the API
 * server's discovery table, groups in discovery order (core first) and resources by name.
 */
import { RESOURCES, apiVersionOf } from '../../api/resources.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
import { tabwrite } from '../../util/tabwriter.ts';

const VERBS = '[create delete deletecollection get list patch update watch]';

export function runApiResources(ctx: KubectlContext): number {
  const f = ctx.flags;
  const output = f.string('output');
  if (output !== '' && output !== 'wide' && output !== 'name')
    throw cmdError(`--output ${output} is not available`);
  let list = [...RESOURCES];
  if (f.changed('namespaced')) list = list.filter((r) => r.namespaced === f.bool('namespaced'));
  if (f.changed('api-group')) list = list.filter((r) => r.group === f.string('api-group'));
  if (output === 'name') {
    ctx.out(list.map((r) => `${r.group ? `${r.plural}.${r.group}` : r.plural}\n`).join(''));
    return 0;
  }
  const wide = output === 'wide';
  const header = [
    'NAME',
    'SHORTNAMES',
    'APIVERSION',
    'NAMESPACED',
    'KIND',
    ...(wide ? ['VERBS', 'CATEGORIES'] : []),
  ];
  const rows = list.map((r) =>
    [
      r.plural,
      r.shortNames.join(','),
      apiVersionOf(r),
      String(r.namespaced),
      r.kind,
      ...(wide ? [VERBS, r.categories.join(',')] : []),
    ].join('\t'),
  );
  const lines = f.bool('no-headers') ? rows : [header.join('\t'), ...rows];
  ctx.out(tabwrite(`${lines.join('\n')}\n`));
  return 0;
}

export function runApiVersions(ctx: KubectlContext): number {
  const versions = [...new Set(RESOURCES.map(apiVersionOf))].sort();
  ctx.out(versions.map((v) => `${v}\n`).join(''));
  return 0;
}
