/**
 * `type: looked`: the learner looked at a kind of object — some command they ran printed it on their
 * terminal. The engine records what each typed line displayed (`cluster.sightings`: kubectl's tables,
 * `describe`, `-o yaml`/`json`, through a pipe that printed something), so any spelling counts and a
 * command that failed (NotFound, a typo, output sent to a file or into a `grep` that matched nothing)
 * does not. Namespaced kinds count in the namespace the check names, or from an `-A` listing.
 * When nothing counts, the message says why the closest attempt did not and what would.
 */
import { msg } from '../messages/format.ts';
import { errorVerdict, verdict, type Verdict } from '../result.ts';
import type { CheckOf } from '../check-schema.ts';
import type { CheckEnv, Evaluator } from './env.ts';
import { commandsOf, kubectlShow } from './kubectl-line.ts';
import { resolveResource } from './objects.ts';

/** The verbs whose output shows the objects named. */
const SHOWING_VERBS = new Set(['get', 'describe']);

/** A tool per kernel table, as the message suggests it. */
const TABLE_EXAMPLES: Record<KernelTable, string> = {
  iptables: 'iptables-save',
  nftables: 'nft list ruleset',
  ipvs: 'ipvsadm -Ln',
  conntrack: 'conntrack -L',
};

type KernelTable = NonNullable<CheckOf<'looked'>['tables']>[number];

export const evaluateLooked: Evaluator<'looked'> = (check, env): Verdict => {
  if (check.tables && !check.resources) return lookedAtTables(check, check.tables, env);
  if (!check.resources || check.tables) {
    const detail = msg('check.looked.invalid');
    return errorVerdict(
      msg('check.looked.expected', { resources: '?' }),
      msg('check.error.invalid', { detail }),
    );
  }
  return lookedAtObjects(check, check.resources, env);
};

/**
 * A node's kernel tables, printed by a tool that succeeded there (directly, through `chroot /host`,
 * `docker exec` or a debug pod's shell). A pod's own netns is not the node's: listing it does not count.
 */
function lookedAtTables(check: CheckOf<'looked'>, tables: readonly KernelTable[], env: CheckEnv): Verdict {
  const wanted = new Set<string>(tables.map((t) => `node:${t}`));
  const what = tables.join(', ') + (check.table ? ` (${check.table})` : '');
  const example = check.example ?? TABLE_EXAMPLES[tables[0]!] + (check.table ? ` -t ${check.table}` : '');
  const expected = msg('check.looked.expected.tables', { tables: what });
  let inPod: string | undefined;
  let otherTable: string | undefined;
  for (const seen of env.cluster.sightings.list()) {
    if (!wanted.has(seen.resource)) continue;
    if (seen.on?.includes('/')) {
      inPod ??= seen.line;
      continue;
    }
    if (check.table && seen.resource === 'node:iptables' && !seen.names.includes(check.table)) {
      otherTable ??= seen.line;
      continue;
    }
    return verdict(true, expected, msg('check.history.observed.found', { line: seen.line }));
  }
  if (inPod !== undefined)
    return verdict(false, expected, msg('check.looked.observed.podNetns', { line: inPod, example }));
  if (otherTable !== undefined)
    return verdict(
      false,
      expected,
      msg('check.looked.observed.otherTable', { line: otherTable, table: check.table ?? '', example }),
    );
  return verdict(
    false,
    expected,
    msg('check.looked.observed.noTable', { count: env.history.length, example }),
  );
}

function lookedAtObjects(check: CheckOf<'looked'>, resources: readonly string[], env: CheckEnv): Verdict {
  const infos = resources.map((r) => resolveResource(r));
  const names = resources.join(', ');
  const ns = check.namespace;
  const example = `kubectl${ns ? ` -n ${ns}` : ''} get ${resources[0]!}`;
  const expected = ns
    ? msg('check.looked.expected.namespace', { resources: names, namespace: ns })
    : msg('check.looked.expected', { resources: names });
  const unknown = resources.find((_, i) => !infos[i]);
  if (unknown !== undefined) {
    const detail = msg('check.resource.unknownType', { resource: unknown });
    return errorVerdict(expected, msg('check.error.invalid', { detail }));
  }
  const wanted = new Set<string>(infos.map((i) => i!.key));
  const namespaced = infos.some((i) => i!.namespaced);
  let elsewhere: string | undefined;
  const fields = check.fields ?? [];
  let withoutFields: string | undefined;
  for (const seen of env.cluster.sightings.list()) {
    if (!wanted.has(seen.resource)) continue;
    if (!fields.every((f) => seen.fields?.includes(f))) {
      withoutFields ??= seen.line;
      continue;
    }
    const where = seen.namespace;
    if (!namespaced || ns === undefined || where === undefined || where === '*' || where === ns)
      return verdict(true, expected, msg('check.history.observed.found', { line: seen.line }));
    elsewhere ??= seen.line;
  }
  if (elsewhere === undefined && withoutFields !== undefined)
    return verdict(
      false,
      expected,
      msg('check.looked.observed.withoutFields', {
        line: withoutFields,
        fields: fields.join(', '),
        example: check.example ?? `kubectl describe ${resources[0]!}`,
      }),
    );
  if (elsewhere !== undefined)
    return verdict(
      false,
      expected,
      msg('check.looked.observed.otherNamespace', { line: elsewhere, namespace: ns ?? '', example }),
    );
  // A line that asked for them but showed nothing: it failed, or its output never reached the screen.
  const tried = env.history.find((line) =>
    commandsOf(line).some((words) => {
      const show = kubectlShow(words);
      return show && SHOWING_VERBS.has(show.verb) && show.resources.some((r) => wanted.has(r));
    }),
  );
  return verdict(
    false,
    expected,
    tried !== undefined
      ? msg('check.looked.observed.notShown', { line: tried, example })
      : msg('check.looked.observed.none', { count: env.history.length, example }),
  );
}
