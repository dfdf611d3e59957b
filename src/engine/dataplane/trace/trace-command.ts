/**
 * `trace [-n NAMESPACE] [-o json] SOURCE -- COMMAND…`, Packet Path's own command (not a real tool):
 * makes the request COMMAND would make from SOURCE and prints every hop. SOURCE is a pod name, `pod/NAME`,
 * `deploy/NAME` (its first running pod), a prefix of a pod name, `node/NAME`, or `outside` (the learner's
 * machine). Bad input gets a usage error, never an exception.
 */
import type { DataplaneHost } from '../network/view.ts';
import type { CommandHandler } from '../../shell/types.ts';
import type { Source } from '../network/types.ts';
import { isRunning } from '../network/view.ts';
import { formatTrace } from './format-trace.ts';
import { TRACE_PROGRAMS, traceConnection } from './trace-connection.ts';

export const TRACE_HELP = `Follow one request through the simulated cluster and print every hop.

Usage:
  trace [-n NAMESPACE] [-o json] SOURCE -- COMMAND [ARGS...]

SOURCE is where the request starts:
  NAME, pod/NAME      a running pod (a unique prefix of a pod name works too)
  deploy/NAME         the first running pod of a Deployment
  node/NAME           a node's own network namespace
  outside             your machine, outside the cluster

COMMAND is one of: ${TRACE_PROGRAMS.join(', ')}. The request really happens once (kube-proxy
picks a backend, conntrack records it); trace prints the name resolution and each DNS query, the
Service rule that matched and the chosen endpoint, DNAT and SNAT, the route between nodes, the
NetworkPolicy verdicts and the delivery or refusal.

Examples:
  trace web -- curl http://api
  trace pod/web -n shop -- curl -s api.shop:80
  trace web -- nslookup api
  trace outside -- curl 172.18.0.3:30080

Options:
  -n, --namespace NAMESPACE   namespace of SOURCE (default: default)
  -o json                     print the structured hops as JSON
`;

function usage(msg: string): { stdout: string; stderr: string; exitCode: number } {
  return { stdout: '', stderr: `trace: ${msg}\nSee 'trace --help' for usage.\n`, exitCode: 2 };
}

function resolveSourceArg(cluster: DataplaneHost, text: string, namespace: string): Source | string {
  if (text === 'outside' || text === 'external' || text === 'host') return { kind: 'external' };
  const slash = text.indexOf('/');
  const kind = slash < 0 ? '' : text.slice(0, slash).toLowerCase();
  const name = slash < 0 ? text : text.slice(slash + 1);
  if (kind === 'node' || kind === 'nodes' || kind === 'no') {
    if (!cluster.store.get('nodes', undefined, name)) return `nodes "${name}" not found`;
    return { kind: 'node', node: name };
  }
  const pods = cluster.store.list('pods', namespace).filter((p) => !p.metadata.deletionTimestamp);
  if (kind === 'deploy' || kind === 'deployment' || kind === 'deployments') {
    const d = cluster.store.get('deployments.apps', namespace, name);
    if (!d) return `deployments.apps "${name}" not found`;
    const sel = d.spec?.selector?.matchLabels ?? {};
    const pod = pods
      .filter(isRunning)
      .find((p) => Object.entries(sel).every(([k, v]) => p.metadata.labels?.[k] === v));
    return pod
      ? { kind: 'pod', namespace, name: pod.metadata.name }
      : `deployment "${name}" has no running pod`;
  }
  if (kind !== '' && kind !== 'pod' && kind !== 'pods' && kind !== 'po')
    return `cannot trace from "${kind}": use a pod, deploy/NAME, node/NAME or outside`;
  const exact = pods.find((p) => p.metadata.name === name);
  if (exact) return { kind: 'pod', namespace, name };
  const prefixed = pods
    .filter((p) => p.metadata.name.startsWith(`${name}-`) && isRunning(p))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  if (prefixed[0] && kind === '') return { kind: 'pod', namespace, name: prefixed[0].metadata.name };
  return `pods "${name}" not found`;
}

export function traceCommand(cluster: DataplaneHost): CommandHandler {
  return (argv, io) => {
    const args = argv.slice(1);
    if (args.length === 0) return usage('missing SOURCE and COMMAND');
    if (args.includes('--help') || args.includes('-h')) {
      const dash = args.indexOf('--');
      const help = args.indexOf('--help') >= 0 ? args.indexOf('--help') : args.indexOf('-h');
      if (dash < 0 || help < dash) return { stdout: TRACE_HELP, stderr: '', exitCode: 0 };
    }
    const dash = args.indexOf('--');
    if (dash < 0) return usage('separate SOURCE from the command with "--" (trace web -- curl http://api)');
    const before = args.slice(0, dash);
    const command = args.slice(dash + 1);
    let namespace = 'default';
    let json = false;
    const positional: string[] = [];
    for (let i = 0; i < before.length; i++) {
      const a = before[i]!;
      if (a === '-n' || a === '--namespace') {
        const v = before[++i];
        if (!v) return usage(`flag needs an argument: ${a}`);
        namespace = v;
      } else if (a.startsWith('--namespace=')) namespace = a.slice(12);
      else if (a === '-o' || a === '--output') {
        const v = before[++i];
        if (v !== 'json') return usage(`unknown output format "${v ?? ''}" (use -o json)`);
        json = true;
      } else if (a === '-ojson' || a === '--output=json') json = true;
      else if (a.startsWith('-')) return usage(`unknown flag: ${a}`);
      else positional.push(a);
    }
    if (positional.length !== 1)
      return usage(
        positional.length === 0 ? 'missing SOURCE' : `one SOURCE expected, got ${positional.join(' ')}`,
      );
    if (command.length === 0) return usage('missing COMMAND after "--"');
    const from = resolveSourceArg(cluster, positional[0]!, namespace);
    if (typeof from === 'string') return { stdout: '', stderr: `trace: ${from}\n`, exitCode: 1 };
    const readFile = (path: string): string | undefined => {
      const r = io?.files?.read(path);
      return r && 'content' in r ? r.content : undefined;
    };
    const result = traceConnection(cluster, { from, argv: command, readFile });
    if ('error' in result) return { stdout: '', stderr: `trace: ${result.error}\n`, exitCode: 1 };
    const warnings = (result.warnings ?? []).join('');
    if (json) {
      const { connection, ...rest } = result;
      void connection;
      return { stdout: `${JSON.stringify(rest, null, 2)}\n`, stderr: warnings, exitCode: 0 };
    }
    const ok = result.outcome === 'connected' || result.outcome === 'resolved';
    return { stdout: formatTrace(result), stderr: warnings, exitCode: ok ? 0 : 1 };
  };
}
