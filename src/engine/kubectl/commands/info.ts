/**
 * Small informational commands: `version`, `cluster-info`, `config current-context|get-contexts|view`
 * (the kubeconfig kind or k3s writes), `top` (`error: Metrics API not available` without
 * metrics-server, as on kind; k3s ships metrics-server), `auth can-i` (the learner is cluster-admin),
 * `cordon`/`uncordon`.
 */
import { distributionOf } from '../../api/distribution.ts';
import type { Node, Pod } from '../../api/objects.ts';
import { KUBERNETES_VERSION } from '../../api/cluster-config.ts';
import { deepClone, isPlainObject } from '../../util/json.ts';
import { fnv32a } from '../../util/rng.ts';
import { matches } from '../../api/labels.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError, usageError } from '../errors.ts';
import { parseOutputFormat, printGeneric } from '../printers/output.ts';
import { tabwrite } from '../../util/tabwriter.ts';
import { fetchRefs, parseLabelSelector, parseResourceArgs } from '../resource-args.ts';
import { reportErrors } from './create.ts';
import { dryRunMode, dryRunSuffix, updateObject } from './write.ts';

/** The kustomize bundled with kubectl v1.35. */
export const KUSTOMIZE_VERSION = 'v5.7.1';
export const SERVER_URL = 'https://127.0.0.1:6443';

function serverVersion(ctx: KubectlContext): string {
  return distributionOf(ctx.host.config).serverVersion;
}

function contextName(ctx: KubectlContext): string {
  return distributionOf(ctx.host.config).kubectlContext(ctx.host.config.name);
}

export function runVersion(ctx: KubectlContext): number {
  const output = ctx.flags.string('output');
  const client = ctx.flags.bool('client');
  if (output === 'json' || output === 'yaml') {
    const info = (v: string) => ({
      major: '1',
      minor: v.replace(/^v1\.(\d+).*$/, '$1'),
      gitVersion: v,
      gitCommit: '',
      gitTreeState: 'clean',
      buildDate: '2025-12-17T00:00:00Z',
      goVersion: 'go1.25.5',
      compiler: 'gc',
      platform: 'linux/amd64',
    });
    const doc = {
      clientVersion: info(KUBERNETES_VERSION),
      kustomizeVersion: KUSTOMIZE_VERSION,
      ...(client ? {} : { serverVersion: info(serverVersion(ctx)) }),
    };
    ctx.out(printGeneric(parseOutputFormat(output, false) as { kind: 'json' }, doc, { keepOrder: true }));
    return 0;
  }
  if (output !== '') throw cmdError(`--output must be 'yaml' or 'json'`);
  ctx.out(`Client Version: ${KUBERNETES_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`);
  if (!client) ctx.out(`Server Version: ${serverVersion(ctx)}\n`);
  return 0;
}

export function runClusterInfo(ctx: KubectlContext): number {
  if (ctx.flags.args.length > 0)
    throw usageError(ctx.commandPath, `Unexpected args: [${ctx.flags.args.join(' ')}]`);
  let out = `Kubernetes control plane is running at ${SERVER_URL}\n`;
  const services = ctx.host.api
    .list('services', 'kube-system')
    .filter((s) => s.metadata.labels?.['kubernetes.io/cluster-service'] === 'true');
  for (const s of services) {
    const name = s.metadata.labels?.['kubernetes.io/name'] || s.metadata.name;
    const port = s.spec?.ports?.[0];
    const link = `${s.metadata.name}${port?.name ? `:${port.name}` : ''}`;
    out += `${name} is running at ${SERVER_URL}/api/v1/namespaces/kube-system/services/${link}/proxy\n`;
  }
  out += "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n";
  ctx.out(out);
  return 0;
}

export function runConfigCurrentContext(ctx: KubectlContext): number {
  ctx.out(`${contextName(ctx)}\n`);
  return 0;
}

export function runConfigGetContexts(ctx: KubectlContext): number {
  const name = contextName(ctx);
  const wanted = ctx.flags.args;
  if (wanted.length > 0 && !wanted.includes(name)) throw cmdError(`context ${wanted[0]} not found`);
  if (ctx.flags.string('output') === 'name') {
    ctx.out(`${name}\n`);
    return 0;
  }
  const header = ctx.flags.bool('no-headers') ? '' : 'CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n';
  ctx.out(tabwrite(`${header}*\t${name}\t${name}\t${name}\t\n`));
  return 0;
}

export function runConfigView(ctx: KubectlContext): number {
  const name = contextName(ctx);
  const raw = ctx.flags.bool('raw');
  const data = (label: string) => (raw ? `${label.toUpperCase()}-REDACTED-BY-SIMULATOR` : 'DATA+OMITTED');
  const config = {
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': data('ca'), server: SERVER_URL }, name }],
    contexts: [{ context: { cluster: name, user: name }, name }],
    'current-context': name,
    kind: 'Config',
    preferences: {},
    users: [{ name, user: { 'client-certificate-data': data('cert'), 'client-key-data': data('key') } }],
  };
  const output = ctx.flags.string('output') || (ctx.flags.string('template') !== '' ? '' : 'yaml');
  const format = parseOutputFormat(output, false, ctx.templateInput());
  if (format.kind === 'table' || format.kind === 'custom-columns' || format.kind === 'name')
    throw cmdError(`--output ${output} is not available in kubectl config view`);
  ctx.out(printGeneric(format, config));
  return 0;
}

function metricsAvailable(ctx: KubectlContext): boolean {
  return distributionOf(ctx.host.config).metricsServer(ctx.host.config);
}

/** Deterministic, plausible usage numbers (k3s's metrics-server); a pod's name picks them. */
function usage(seed: string): { cpu: number; mem: number } {
  const h = fnv32a(seed);
  return { cpu: 1 + (h % 9), mem: 4 + ((h >>> 8) % 60) };
}

export function runTop(ctx: KubectlContext, what: 'pod' | 'node'): number {
  if (!metricsAvailable(ctx)) throw new KubectlError('error: Metrics API not available');
  const api = ctx.host.api;
  if (what === 'node') {
    const nodes = api.list('nodes') as Node[];
    const rows = nodes.map((n) => {
      const pods = (api.list('pods') as Pod[]).filter((p) => p.spec?.nodeName === n.metadata.name);
      const cpu = 40 + pods.reduce((s, p) => s + usage(p.metadata.name).cpu, 0);
      const mem = 600 + pods.reduce((s, p) => s + usage(p.metadata.name).mem, 0);
      return `${n.metadata.name}\t${cpu}m\t${Math.round(cpu / 20)}%\t${mem}Mi\t${Math.round((mem / 7900) * 100)}%`;
    });
    ctx.out(tabwrite(`NAME\tCPU(cores)\tCPU(%)\tMEMORY(bytes)\tMEMORY(%)\n${rows.join('\n')}\n`));
    return 0;
  }
  const selector = parseLabelSelector(ctx.flags.string('selector'));
  const all = ctx.allNamespaces;
  let pods = (api.list('pods', all ? undefined : ctx.namespace) as Pod[]).filter(
    (p) => p.status?.phase === 'Running' && matches(selector, p.metadata.labels),
  );
  if (ctx.flags.args.length > 0) {
    pods = pods.filter((p) => p.metadata.name === ctx.flags.args[0]);
    if (pods.length === 0) throw cmdError(`pods "${ctx.flags.args[0]}" not found`);
  }
  if (pods.length === 0) {
    ctx.err(all ? 'No resources found\n' : `No resources found in ${ctx.namespace} namespace.\n`);
    return 0;
  }
  const rows = pods.map((p) => {
    const u = usage(p.metadata.name);
    return `${all ? `${p.metadata.namespace}\t` : ''}${p.metadata.name}\t${u.cpu}m\t${u.mem}Mi`;
  });
  ctx.out(tabwrite(`${all ? 'NAMESPACE\t' : ''}NAME\tCPU(cores)\tMEMORY(bytes)\n${rows.join('\n')}\n`));
  return 0;
}

export function runAuthCanI(ctx: KubectlContext): number {
  const args = ctx.flags.args;
  if (ctx.flags.bool('list')) {
    ctx.out(
      tabwrite('Resources\tNon-Resource URLs\tResource Names\tVerbs\n*.*\t[]\t[]\t[*]\n\t[*]\t[]\t[*]\n', {
        minwidth: 0,
        padding: 3,
      }),
    );
    return 0;
  }
  if (args.length < 2 && !(args.length === 1 && args[0]!.startsWith('/'))) {
    throw new KubectlError(
      "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.",
    );
  }
  ctx.out('yes\n');
  return 0;
}

export function runCordon(ctx: KubectlContext, cordon: boolean): number {
  const mode = dryRunMode(ctx);
  const refs = parseResourceArgs(
    ctx.flags.args.length > 0 && !ctx.flags.args[0]!.includes('/')
      ? ['nodes', ...ctx.flags.args]
      : ctx.flags.args,
  );
  if (refs.length === 0 && ctx.flags.string('selector') === '')
    throw usageError(ctx.commandPath, 'USAGE: cordon NODE [flags]');
  const { found, errors } = fetchRefs(ctx.host.api, refs.length > 0 ? refs : parseResourceArgs(['nodes']), {
    namespace: ctx.namespace,
    allNamespaces: false,
    selector: parseLabelSelector(ctx.flags.string('selector')),
  });
  const verb = cordon ? 'cordoned' : 'uncordoned';
  for (const x of found) {
    const node = x.object as Node;
    if (Boolean(node.spec?.unschedulable) === cordon) {
      ctx.out(`node/${node.metadata.name} already ${verb}\n`);
      continue;
    }
    if (mode !== 'client') {
      const next = deepClone(node) as Record<string, unknown>;
      const spec = isPlainObject(next.spec) ? next.spec : {};
      if (cordon) spec.unschedulable = true;
      else delete spec.unschedulable;
      next.spec = spec;
      updateObject(ctx, next, mode);
    }
    ctx.out(`node/${node.metadata.name} ${verb}${dryRunSuffix(mode)}\n`);
  }
  return reportErrors(ctx, errors);
}
