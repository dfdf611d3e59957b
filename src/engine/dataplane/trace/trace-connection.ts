/**
 * The packet walk behind `trace`: what a client command would send, from where, and every hop it meets.
 * The request really happens (kube-proxy picks a backend, conntrack records it, CoreDNS logs it), exactly
 * once, so the trace is the connection the command would have made. `TraceResult` is the structured
 * form the lab UI draws and the grader names hops from; `formatTrace` prints it.
 */
import type { DataplaneHost } from '../network/view.ts';
import { parseIPv4 } from '../../util/ip.ts';
import { connect, resolveName } from '../network/connect.ts';
import { resolveSource } from '../network/origin.ts';
import type { ConnectRequest, ConnectResult, Hop, Outcome, Source } from '../network/types.ts';
import { buildView } from '../network/view.ts';
import { curlBody, parseCurlArgs, parseUrl } from '../network/curl-args.ts';

export type TraceProgram = 'curl' | 'wget' | 'nc' | 'ping' | 'nslookup' | 'dig' | 'host' | 'getent';
export const TRACE_PROGRAMS: readonly TraceProgram[] = [
  'curl',
  'wget',
  'nc',
  'ping',
  'nslookup',
  'dig',
  'host',
  'getent',
];

export interface TraceRequest {
  readonly from: Source;
  readonly argv: readonly string[];
  /**
   * Reads a file named by the command (`curl -d @big.json`, `-T report.txt`). trace runs where it is
   * typed, so the body comes from the session's files (the lab's editor files), not the pod's disk.
   */
  readonly readFile?: (path: string) => string | undefined;
}

export interface TraceResult {
  readonly program: TraceProgram;
  readonly argv: readonly string[];
  readonly from: Source;
  /** What the command would connect to (or look up). */
  readonly target: {
    readonly host: string;
    readonly port?: number;
    readonly protocol: 'TCP' | 'UDP' | 'ICMP' | 'DNS';
  };
  readonly outcome: Outcome | 'resolved';
  readonly hops: readonly Hop[];
  readonly decidingHop?: Hop;
  readonly connection?: ConnectResult;
  readonly summary: string;
  /** What the traced program would have printed as warnings (curl's unreadable -d @file). */
  readonly warnings?: readonly string[];
}

export type TraceError = { readonly error: string };

interface Plan {
  readonly warnings?: readonly string[];
  readonly request?: ConnectRequest;
  readonly lookup?: string;
  readonly target: TraceResult['target'];
}

/** Works out what the command would do, from its arguments as the real program reads them. */
export function planFor(
  from: Source,
  argv: readonly string[],
  readFile: (path: string) => string | undefined = () => undefined,
): Plan | TraceError {
  const program = argv[0] ?? '';
  const args = argv.slice(1);
  switch (program) {
    case 'curl':
    case 'wget': {
      const urls =
        program === 'curl'
          ? (() => {
              const p = parseCurlArgs(args);
              return p.ok ? p.opts.urls : [];
            })()
          : args.filter(
              (a, i) =>
                !a.startsWith('-') &&
                !['-O', '-T', '-U', '-P', '-o', '--header', '--post-data'].includes(args[i - 1] ?? ''),
            );
      const first = urls[0];
      if (!first) return { error: `${program}: no URL to trace` };
      const url = parseUrl(first);
      if ('error' in url) return { error: `${program}: ${url.error}` };
      const headers: [string, string][] = [
        ['Host', url.hostHeader],
        ['User-Agent', program === 'curl' ? 'curl/8.17.0' : 'Wget'],
        ['Accept', '*/*'],
      ];
      // curl's -H replaces a header of the same name (Host included) or adds one.
      const parsed = program === 'curl' ? parseCurlArgs(args) : undefined;
      const extra = parsed?.ok ? parsed.opts.headers : [];
      for (const [k, v] of extra) {
        const i = headers.findIndex(([h]) => h.toLowerCase() === k.toLowerCase());
        if (i >= 0) headers.splice(i, 1, [k, v]);
        else headers.push([k, v]);
      }
      const sni = /^[\d.]+$|:/.test(url.host) ? {} : { sni: url.host };
      // The body sizes the packets the MTU hop weighs: -d/--data-binary (@FILE read), -T FILE.
      const body = parsed?.ok ? curlBody(parsed.opts, url.path, readFile) : undefined;
      if (body && 'error' in body) return { error: body.error.trimEnd() };
      for (const h of body?.headers ?? [])
        if (!headers.some(([k]) => k.toLowerCase() === h[0].toLowerCase())) headers.push([h[0], h[1]]);
      return {
        ...(body && body.warnings.length > 0 ? { warnings: body.warnings } : {}),
        request: {
          from,
          to: url.host,
          port: url.port,
          protocol: 'TCP',
          payload: {
            http: {
              method: body?.method ?? 'GET',
              path: body?.path ?? url.path,
              host: url.hostHeader,
              headers,
              ...(body?.body !== undefined ? { body: body.body } : {}),
              scheme: url.scheme,
              ...sni,
            },
          },
        },
        target: { host: url.host, port: url.port, protocol: 'TCP' },
      };
    }
    case 'nc': {
      const udp = args.some((a) => /^-\w*u/.test(a));
      const words: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (/^-\w*[wpq]$/.test(a)) i++;
        else if (!a.startsWith('-')) words.push(a);
      }
      const [host, port] = words;
      if (!host || !port || !/^\d+$/.test(port)) return { error: 'nc: give a host and a port to trace' };
      return {
        request: { from, to: host, port: Number(port), protocol: udp ? 'UDP' : 'TCP' },
        target: { host, port: Number(port), protocol: udp ? 'UDP' : 'TCP' },
      };
    }
    case 'ping': {
      const host = args.filter((a, i) => !a.startsWith('-') && !/^-[cWwis]$/.test(args[i - 1] ?? '')).pop();
      if (!host) return { error: 'ping: give a host to trace' };
      return { request: { from, to: host, protocol: 'ICMP' }, target: { host, protocol: 'ICMP' } };
    }
    case 'nslookup':
    case 'dig':
    case 'host':
    case 'getent': {
      const names = args.filter(
        (a) =>
          !a.startsWith('-') &&
          !a.startsWith('+') &&
          !a.startsWith('@') &&
          a !== 'hosts' &&
          a !== 'ahosts' &&
          !/^(A|AAAA|SRV|PTR|TXT|MX|NS|SOA|CNAME)$/i.test(a),
      );
      const name = names[0];
      if (!name) return { error: `${program}: give a name to trace` };
      return { lookup: name, target: { host: name, protocol: 'DNS' } };
    }
    default:
      return { error: `cannot trace "${program}": trace follows ${TRACE_PROGRAMS.join(', ')}` };
  }
}

function summarize(program: string, r: ConnectResult): string {
  switch (r.outcome) {
    case 'connected': {
      if (r.stalled) return 'connected, but the answer never arrives (the client waits until it times out)';
      const resp = r.response;
      if (resp?.empty) return 'connected, then closed without a reply (empty reply)';
      if (resp && resp.status !== undefined)
        return (
          `connected: HTTP/${resp.version ?? '1.1'} ${resp.status} ${resp.reason ?? ''}`.trimEnd() +
          `, ${resp.body.length} bytes`
        );
      if (program === 'ping') return `echo reply from ${r.replyFrom ?? r.remote?.ip ?? ''}`;
      return 'connected';
    }
    case 'refused':
      return 'refused: the connection is rejected at once';
    case 'timeout':
      return 'timed out: the packet is dropped and nothing comes back';
    case 'unreachable':
      return 'unreachable: no host answers for this address';
    case 'dns-failure':
      return `name resolution failed${r.dns?.error ? ` (${r.dns.error.message})` : ''}`;
  }
}

export function traceConnection(cluster: DataplaneHost, req: TraceRequest): TraceResult | TraceError {
  const program = req.argv[0] as TraceProgram;
  if (!TRACE_PROGRAMS.includes(program))
    return { error: `cannot trace "${req.argv[0] ?? ''}": trace follows ${TRACE_PROGRAMS.join(', ')}` };
  const plan = planFor(req.from, req.argv, req.readFile);
  if ('error' in plan) return plan;
  const view = buildView(cluster);
  const src = resolveSource(view, req.from);
  if ('error' in src) return { error: src.error };
  if (plan.lookup !== undefined) {
    const r = resolveName(view, src, plan.lookup, cluster.rng, program === 'dig' ? 'A' : 'both');
    const failed = r.addresses.length === 0;
    const deciding =
      [...r.hops].reverse().find((h) => h.kind === 'network-policy' && h.verdict === 'blocked') ??
      r.hops[r.hops.length - 1];
    return {
      program,
      argv: req.argv,
      from: req.from,
      target: plan.target,
      outcome: failed ? 'dns-failure' : 'resolved',
      hops: r.hops,
      ...(deciding ? { decidingHop: deciding } : {}),
      summary: failed
        ? `name resolution failed${r.summary.error ? ` (${r.summary.error.message})` : ''}`
        : `${plan.lookup} resolved to ${r.addresses.join(', ')} in ${r.summary.queries} quer${r.summary.queries === 1 ? 'y' : 'ies'}`,
    };
  }
  const request = plan.request!;
  const result = connect(request, cluster, cluster.rng);
  return {
    program,
    argv: req.argv,
    from: req.from,
    target: plan.target,
    outcome: result.outcome,
    hops: result.hops,
    ...(result.decidingHop ? { decidingHop: result.decidingHop } : {}),
    connection: result,
    summary: summarize(program, result),
    ...(plan.warnings ? { warnings: plan.warnings } : {}),
  };
}

export function isAddress(text: string): boolean {
  return parseIPv4(text) !== undefined;
}
