/**
 * Tab completion for kubectl, following what kubectl's cobra completion offers: subcommands, then
 * resource types (plural, singular, short names), then object names of that type (also in
 * `type/name` form), namespaces after `-n`, output formats after `-o`, and flags after `-`.
 */
import type { ResourceInfo } from '../api/resources.ts';

export interface KubectlCompletionData {
  readonly verbs: readonly string[];
  readonly resources: readonly ResourceInfo[];
  /** Object names of a resource (in a namespace, or all namespaces when undefined), sorted. */
  names(resource: ResourceInfo, namespace: string | undefined): readonly string[];
  namespaces(): readonly string[];
}

const TYPE_VERBS = new Set([
  'get',
  'describe',
  'delete',
  'edit',
  'label',
  'annotate',
  'explain',
  'patch',
  'wait',
  'scale',
  'expose',
  'set',
]);
const POD_VERBS = new Set(['logs', 'exec', 'attach', 'port-forward', 'cp']);
const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  rollout: ['history', 'pause', 'restart', 'resume', 'status', 'undo'],
  create: ['configmap', 'deployment', 'ingress', 'job', 'namespace', 'secret', 'service', 'serviceaccount'],
  config: ['current-context', 'get-contexts', 'set-context', 'use-context', 'view'],
  auth: ['can-i', 'whoami'],
};
const OUTPUTS = ['custom-columns=', 'go-template=', 'json', 'jsonpath=', 'name', 'wide', 'yaml'];
const FLAGS = [
  '--all-namespaces',
  '--container',
  '--dry-run=client',
  '--dry-run=server',
  '--filename',
  '--force',
  '--help',
  '--image',
  '--labels',
  '--namespace',
  '--output',
  '--port',
  '--replicas',
  '--save-config',
  '--selector',
  '--show-labels',
  '--stdin',
  '--target-port',
  '--tty',
  '--type',
  '--watch',
  '-A',
  '-c',
  '-f',
  '-h',
  '-i',
  '-it',
  '-l',
  '-n',
  '-o',
  '-t',
  '-w',
];
const VALUE_FLAGS = new Set([
  '-n',
  '--namespace',
  '-o',
  '--output',
  '-l',
  '--selector',
  '-c',
  '--container',
  '--image',
  '--port',
  '--replicas',
  '--type',
  '--target-port',
  '-f',
  '--filename',
]);

function typeWords(resources: readonly ResourceInfo[]): string[] {
  return resources.flatMap((r) => [r.plural, r.singular, ...r.shortNames]);
}

function findType(resources: readonly ResourceInfo[], typed: string): ResourceInfo | undefined {
  const t = typed.toLowerCase().split('.')[0]!;
  return resources.find(
    (r) => r.plural === t || r.singular === t || r.shortNames.includes(t) || r.kind.toLowerCase() === t,
  );
}

export function completeKubectl(
  argv: readonly string[],
  current: string,
  data: KubectlCompletionData,
): readonly string[] | undefined {
  const prev = argv[argv.length - 1];
  if (prev === '-n' || prev === '--namespace') return data.namespaces();
  if (prev === '-o' || prev === '--output') return OUTPUTS;
  if (prev === '-f' || prev === '--filename') return undefined;
  if (current.startsWith('-')) return FLAGS;
  let namespace: string | undefined = 'default';
  const positional: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-A' || a === '--all-namespaces') namespace = undefined;
    else if (a === '-n' || a === '--namespace') namespace = argv[++i] ?? namespace;
    else if (a.startsWith('--namespace=')) namespace = a.slice('--namespace='.length);
    else if (VALUE_FLAGS.has(a)) i++;
    else if (!a.startsWith('-')) positional.push(a);
  }
  const verb = positional[0];
  if (verb === undefined) return data.verbs;
  const sub = SUBCOMMANDS[verb];
  if (sub && positional.length === 1) return sub;
  if (verb === 'rollout' && positional.length >= 2) {
    if (positional.length === 2)
      return current.includes('/')
        ? slashNames(data, current, namespace)
        : ['daemonset', 'deployment', 'statefulset'];
    return undefined;
  }
  if (POD_VERBS.has(verb)) {
    if (positional.length > 1) return [];
    const pods = data.resources.find((r) => r.plural === 'pods');
    return current.includes('/')
      ? slashNames(data, current, namespace)
      : pods
        ? data.names(pods, namespace)
        : [];
  }
  if (TYPE_VERBS.has(verb)) {
    if (positional.length === 1) {
      if (current.includes('/')) return slashNames(data, current, namespace);
      return typeWords(data.resources);
    }
    const type = findType(data.resources, positional[1]!);
    if (!type || positional[1]!.includes('/')) return [];
    return data.names(type, type.namespaced ? namespace : undefined);
  }
  return [];
}

function slashNames(data: KubectlCompletionData, current: string, namespace: string | undefined): string[] {
  const [typed] = current.split('/');
  const type = findType(data.resources, typed ?? '');
  if (!type) return [];
  return data.names(type, type.namespaced ? namespace : undefined).map((n) => `${typed}/${n}`);
}
