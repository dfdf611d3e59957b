/**
 * CoreDNS's `log` plugin line (coredns `plugin/log/log.go`, `plugin/pkg/replacer/replacer.go`): the default
 * Common Log Format
 *   {remote}:{port} - {>id} "{type} {class} {name} {proto} {size} {>do} {>bufsize}" {rcode} {>rflags} {rsize} {duration}
 * written with `log.Infof`, hence the `[INFO] ` prefix:
 *   [INFO] 10.244.1.5:45678 - 12345 "A IN api.exemplo.com.default.svc.cluster.local. udp 59 false 512" NXDOMAIN qr,aa,rd 152 0.000109s
 * Sizes are uncompressed wire lengths; `{>bufsize}` is the EDNS0 size or 512 without EDNS (65535 over TCP);
 * `{duration}` is seconds as `strconv.AppendFloat(secs, 'f', -1)` + "s".
 */
import type { LogClass, LogConfig } from './corefile-plugins.ts';
import type { Corefile, CorefileFiles } from './corefile.ts';
import { corefileSha512 } from './reload-log.ts';
import { parseCpu } from '../../api/quantity.ts';
import type { DnsQuery } from './coredns.ts';
import { isSubdomain, queryWireLength, responseWireLength, type DnsResponse } from './message.ts';

/** response.Classify(response.Typify(...)): success, denial (NXDOMAIN/NODATA) or error. */
export function responseClass(r: DnsResponse): Exclude<LogClass, 'all'> {
  if (r.rcode === 'NXDOMAIN') return 'denial';
  if (r.rcode === 'NOERROR') return r.answer.length === 0 ? 'denial' : 'success';
  return 'error';
}

function rflags(r: DnsResponse): string {
  const f: string[] = ['qr'];
  if (r.flags.aa) f.push('aa');
  if (r.flags.tc) f.push('tc');
  if (r.flags.rd) f.push('rd');
  if (r.flags.ra) f.push('ra');
  return f.join(',');
}

/** Go's `strconv.FormatFloat(v, 'f', -1, 64)`: shortest decimal, no exponent. */
function goFloat(v: number): string {
  const s = String(v);
  if (!/e/i.test(s)) return s;
  return v.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

export function formatLogLine(
  cfg: LogConfig,
  q: DnsQuery,
  r: DnsResponse,
  duration: number,
): string | undefined {
  const name = r.question.name;
  const cls = responseClass(r);
  const rule = cfg.rules.find((rl) => isSubdomain(name, rl.nameScope));
  if (!rule) return undefined;
  if (!rule.classes.includes('all') && !rule.classes.includes(cls)) return undefined;
  const proto = q.proto ?? 'udp';
  const bufsize = proto === 'tcp' ? 65535 : q.edns ? Math.max(q.edns.udpSize, 512) : 512;
  const values: Record<string, string> = {
    '{remote}': q.client.includes(':') ? `[${q.client}]` : q.client,
    '{port}': String(q.clientPort ?? 53000),
    '{>id}': String(r.id),
    '{type}': r.question.type,
    '{class}': 'IN',
    '{name}': name,
    '{proto}': proto,
    '{size}': String(queryWireLength(r.question, q.edns)),
    '{>do}': String(q.edns?.do ?? false),
    '{>bufsize}': String(bufsize),
    '{rcode}': r.rcode,
    '{>rflags}': rflags(r),
    '{rsize}': String(responseWireLength(r)),
    '{duration}': `${goFloat(duration)}s`,
    '{>opcode}': '0',
  };
  const line = rule.format.replace(
    /\{[^{}]*\}/g,
    (ph) => values[ph.startsWith('{>') ? ph.toLowerCase() : ph] ?? '-',
  );
  return `[INFO] ${line}`;
}

/** `go version` and short commit of the official CoreDNS builds (a real v1.13.1 banner). */
const BUILDS: Readonly<Record<string, string>> = {
  '1.13.1': 'go1.25.2, 1db4568',
};

/** What the CoreDNS container's process sees of its CPUs: its env, its CPU limit, the node's count. */
export interface MaxprocsContext {
  readonly env: Readonly<Record<string, string>>;
  /** `resources.limits.cpu`, which the kubelet turns into the cgroup's CPU quota. */
  readonly cpuLimit?: string;
  readonly nodeCpus: number;
}

/**
 * CoreDNS 1.12+ (coremain/run.go, coredns#6948) calls automaxprocs' `maxprocs.Set(maxprocs.Logger(log.Printf))`
 * before reading the Corefile; go.uber.org/automaxprocs v1.6.0 logs one of these lines (quota rounded
 * down, at least 1). With no quota GOMAXPROCS stays at the node's CPU count.
 */
export function maxprocsLine(ctx: MaxprocsContext): string {
  const env = ctx.env.GOMAXPROCS;
  if (env !== undefined) return `maxprocs: Honoring GOMAXPROCS=${JSON.stringify(env)} as set in environment`;
  const millis = ctx.cpuLimit === undefined ? 0 : parseCpu(ctx.cpuLimit);
  if (millis <= 0) return `maxprocs: Leaving GOMAXPROCS=${ctx.nodeCpus}: CPU quota undefined`;
  const procs = Math.floor(millis / 1000);
  return procs < 1
    ? 'maxprocs: Updating GOMAXPROCS=1: using minimum allowed GOMAXPROCS'
    : `maxprocs: Updating GOMAXPROCS=${procs}: determined from CPU quota`;
}

/**
 * What CoreDNS prints when it starts serving: automaxprocs' line (maxprocsLine) first, then each server's `zone:port` (`.:53`, from dnsserver's
 * startup message), the `reload` plugin's SHA512 of the Corefile's server blocks (reload-log.ts) when
 * the Corefile enables `reload`, then `coremain`'s
 * version banner (`CoreDNS-1.13.1` / `linux/amd64, go1.25.2, 1db4568`). caddy's warnings while reading
 * the Corefile (an import glob matching no file: k3s's optional `coredns-custom`) come first.
 */
export function coreDnsStartupBanner(
  text: string,
  corefile: Corefile,
  version: string,
  files?: CorefileFiles,
  maxprocs?: MaxprocsContext,
): string[] {
  const out: string[] = [];
  if (maxprocs) out.push(maxprocsLine(maxprocs));
  out.push(...(corefile.warnings ?? []));
  for (const server of corefile.servers) for (const zone of server.zones) out.push(`${zone}:${server.port}`);
  const sha = corefile.servers.some((s) => s.reload) ? corefileSha512(text, files) : undefined;
  if (sha?.ok) out.push(`[INFO] plugin/reload: Running configuration SHA512 = ${sha.hex}`);
  const v = version.replace(/^v/, '');
  out.push(`CoreDNS-${v}`, `linux/amd64, ${BUILDS[v] ?? BUILDS['1.13.1']!}`);
  return out;
}
