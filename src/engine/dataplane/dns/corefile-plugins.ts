/**
 * Setup functions of the CoreDNS plugins we simulate, each following its upstream `setup.go` closely
 * enough to produce the same configuration and the same error texts (coredns HEAD 4b26cce:
 * plugin/kubernetes/setup.go, plugin/forward/setup.go + plugin/pkg/parse/host.go, plugin/cache/setup.go,
 * plugin/hosts/setup.go, plugin/log/setup.go, plugin/rewrite/{setup,name}.go).
 */
import { CorefileError, type Dispenser, type Token, Dispenser as TokenDispenser } from './caddyfile.ts';
import { fqdn } from './message.ts';
import { parseIPv4 } from '../../util/ip.ts';

export interface KubernetesConfig {
  readonly zones: readonly string[];
  readonly pods: 'disabled' | 'insecure' | 'verified';
  /** Zones for which NXDOMAIN falls through to the next plugin; `['.']` for a bare `fallthrough`. */
  readonly fallthrough: readonly string[];
  /** Record TTL; the plugin default is 5 ("The default is 5 seconds"), kubeadm sets 30. */
  readonly ttl: number;
  readonly endpointPodNames: boolean;
  /** Exposed namespaces; empty means all. */
  readonly namespaces: readonly string[];
}

export interface ForwardConfig {
  readonly from: string;
  /** As written: `/etc/resolv.conf`, `8.8.8.8`, `tls://1.1.1.1`. */
  readonly to: readonly string[];
  readonly except: readonly string[];
  readonly maxConcurrent?: number;
  readonly policy: 'random' | 'round_robin' | 'sequential';
}

export interface CacheConfig {
  readonly zones: readonly string[];
  /** TTL caps in seconds: success defaults to 3600, denial to 1800 (`maxTTL`, `maxNTTL`). */
  readonly successTtl: number;
  readonly denialTtl: number;
  readonly minSuccessTtl: number;
  readonly minDenialTtl: number;
  readonly disableSuccess: readonly string[];
  readonly disableDenial: readonly string[];
  readonly keepTtl: boolean;
}

export interface HostsEntry {
  readonly ip: string;
  readonly names: readonly string[];
}

export interface HostsConfig {
  readonly file?: string;
  readonly zones: readonly string[];
  readonly entries: readonly HostsEntry[];
  readonly ttl: number;
  readonly fallthrough?: readonly string[];
  readonly noReverse: boolean;
}

export type LogClass = 'all' | 'success' | 'denial' | 'error';

export interface LogRule {
  readonly nameScope: string;
  readonly format: string;
  readonly classes: readonly LogClass[];
}

export interface LogConfig {
  readonly rules: readonly LogRule[];
}

export interface RewriteRule {
  readonly mode: 'stop' | 'continue';
  readonly field: 'name';
  readonly match: 'exact' | 'prefix' | 'suffix' | 'substring' | 'regex';
  readonly from: string;
  readonly to: string;
  /** Rewrite answer names back to the question (`answer auto`; implied for exact matches). */
  readonly auto: boolean;
}

const atoiError = (s: string) => new CorefileError(`strconv.Atoi: parsing "${s}": invalid syntax`);

function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw atoiError(s);
  return Number(s);
}

/** `plugin.OriginsFromArgsOrServerBlock`: explicit zones, else the server block's. */
function origins(args: readonly string[], blockZones: readonly string[]): string[] {
  return args.length > 0 ? args.map((a) => fqdn(a)) : [...blockZones];
}

export function parseKubernetes(c: Dispenser, blockZones: readonly string[]): KubernetesConfig {
  const zones = origins(c.remainingArgs(), blockZones);
  if (!zones.some((z) => !z.endsWith('in-addr.arpa.') && !z.endsWith('ip6.arpa.'))) {
    throw new CorefileError('non-reverse zone name must be used');
  }
  let pods: KubernetesConfig['pods'] = 'disabled';
  let fallthrough: string[] = [];
  let ttl = 5;
  let endpointPodNames = false;
  let namespaces: string[] = [];
  while (c.nextBlock()) {
    const key = c.val;
    switch (key) {
      case 'endpoint_pod_names':
        if (c.remainingArgs().length > 0) throw c.argErr();
        endpointPodNames = true;
        break;
      case 'pods': {
        const args = c.remainingArgs();
        if (args.length !== 1) throw c.argErr();
        const v = args[0]!;
        if (v !== 'disabled' && v !== 'insecure' && v !== 'verified') {
          throw new CorefileError(
            `wrong value for pods: ${v},  must be one of: disabled, verified, insecure`,
          );
        }
        pods = v;
        break;
      }
      case 'namespaces': {
        const args = c.remainingArgs();
        if (args.length === 0) throw c.argErr();
        namespaces = args;
        break;
      }
      case 'fallthrough': {
        const args = c.remainingArgs();
        fallthrough = args.length === 0 ? ['.'] : args.map((a) => fqdn(a));
        break;
      }
      case 'ttl': {
        const args = c.remainingArgs();
        if (args.length === 0) throw c.argErr();
        const t = atoi(args[0]!);
        if (t < 0 || t > 3600) throw c.err(`ttl must be in range [0, 3600]: ${t}`);
        ttl = t;
        break;
      }
      case 'noendpoints':
      case 'zonal':
        if (c.remainingArgs().length !== 0) throw c.argErr();
        break;
      case 'endpoint':
      case 'labels':
      case 'namespace_labels':
      case 'kubeconfig':
      case 'multicluster':
      case 'startup_timeout':
      case 'apiserver_qps':
      case 'apiserver_burst':
      case 'apiserver_max_inflight':
      case 'ignore':
        if (c.remainingArgs().length === 0 && key !== 'multicluster') throw c.argErr();
        break;
      case 'tls':
        if (c.remainingArgs().length !== 3) throw c.argErr();
        break;
      default:
        throw c.err(`unknown property '${key}'`);
    }
  }
  return { zones, pods, fallthrough, ttl, endpointPodNames, namespaces };
}

/** `parse.HostPortOrFile`: an IP[:port] (optionally with a transport prefix) or a resolv.conf-style file. */
function checkUpstream(host: string): void {
  const h = host.replace(/^(dns|tls|grpc|https):\/\//, '');
  const ip = /^\[?([0-9a-fA-F:.]+)\]?(?::\d+)?$/.exec(h)?.[1];
  if (ip !== undefined && (parseIPv4(ip) !== undefined || ip.includes(':'))) return;
  // The CoreDNS container has /etc/resolv.conf (dnsPolicy: Default gives it the node's); no other file.
  if (h === '/etc/resolv.conf') return;
  throw new CorefileError(`not an IP address or file "${host}": stat ${h}: no such file or directory`);
}

export function parseForward(c: Dispenser): ForwardConfig {
  const fromArgs = c.nextArg() ? c.val : undefined;
  if (fromArgs === undefined) throw c.argErr();
  const to = c.remainingArgs();
  if (to.length === 0) throw c.argErr();
  for (const t of to) checkUpstream(t);
  if (to.length > 15) throw new CorefileError(`more than 15 TOs configured: ${to.length}`);
  let except: string[] = [];
  let maxConcurrent: number | undefined;
  let policy: ForwardConfig['policy'] = 'random';
  while (c.nextBlock()) {
    const key = c.val;
    const args = c.remainingArgs();
    switch (key) {
      case 'except':
        if (args.length === 0) throw c.argErr();
        except = args.map((a) => fqdn(a));
        break;
      case 'max_concurrent': {
        if (args.length !== 1) throw c.argErr();
        const n = atoi(args[0]!);
        if (n < 0) throw new CorefileError(`max_concurrent can't be negative: ${n}`);
        maxConcurrent = n;
        break;
      }
      case 'policy': {
        if (args.length !== 1) throw c.argErr();
        const p = args[0]!;
        if (p !== 'random' && p !== 'round_robin' && p !== 'sequential') throw c.err(`unknown policy '${p}'`);
        policy = p;
        break;
      }
      case 'force_tcp':
      case 'prefer_udp':
        if (args.length !== 0) throw c.argErr();
        break;
      case 'max_fails':
      case 'expire':
      case 'health_check':
      case 'tls_servername':
      case 'max_idle_conns':
      case 'max_age':
      case 'failfast_all_unhealthy_upstreams':
      case 'next':
      case 'failover':
      case 'tls':
        break;
      default:
        throw c.err(`unknown property '${key}'`);
    }
  }
  return { from: fqdn(fromArgs), to, except, maxConcurrent, policy };
}

export function parseCache(c: Dispenser, blockZones: readonly string[]): CacheConfig {
  let args = c.remainingArgs();
  let successTtl = 3600;
  let denialTtl = 1800;
  let minSuccessTtl = 5;
  let minDenialTtl = 5;
  if (args.length > 0 && /^[+-]?\d+$/.test(args[0]!)) {
    const ttl = Number(args[0]);
    if (ttl <= 0) throw new CorefileError(`cache TTL can not be zero or negative: ${ttl}`);
    successTtl = ttl;
    denialTtl = ttl;
    args = args.slice(1);
  }
  const zones = origins(args, blockZones);
  let disableSuccess: string[] = [];
  let disableDenial: string[] = [];
  let keepTtl = false;
  while (c.nextBlock()) {
    const key = c.val;
    switch (key) {
      case 'success':
      case 'denial': {
        const a = c.remainingArgs();
        if (a.length === 0) throw c.argErr();
        atoi(a[0]!);
        if (a[1] !== undefined) {
          const t = atoi(a[1]);
          if (t <= 0) throw new CorefileError(`cache TTL can not be zero or negative: ${t}`);
          if (key === 'success') successTtl = t;
          else denialTtl = t;
        }
        if (a[2] !== undefined) {
          const m = atoi(a[2]);
          if (m < 0) throw new CorefileError(`cache min TTL can not be negative: ${m}`);
          if (key === 'success') minSuccessTtl = m;
          else minDenialTtl = m;
        }
        break;
      }
      case 'disable': {
        const a = c.remainingArgs();
        if (a.length < 1) throw c.argErr();
        const z = a.length > 1 ? a.slice(1).map((x) => fqdn(x)) : ['.'];
        if (a[0] === 'denial') disableDenial = z;
        else if (a[0] === 'success') disableSuccess = z;
        else throw new CorefileError('cache type for disable must be "success" or "denial"');
        break;
      }
      case 'keepttl':
        if (c.remainingArgs().length !== 0) throw c.argErr();
        keepTtl = true;
        break;
      case 'prefetch':
      case 'serve_stale':
      case 'serve_stale_policy':
      case 'servfail':
        c.remainingArgs();
        break;
      default:
        throw c.argErr();
    }
  }
  return {
    zones,
    successTtl,
    denialTtl,
    minSuccessTtl,
    minDenialTtl,
    disableSuccess,
    disableDenial,
    keepTtl,
  };
}

export function parseHosts(c: Dispenser, blockZones: readonly string[]): HostsConfig {
  const args = c.remainingArgs();
  const file = args[0] ?? '/etc/hosts';
  const zones = origins(args.slice(1), blockZones);
  const entries: HostsEntry[] = [];
  let ttl = 3600;
  let fallthrough: string[] | undefined;
  let noReverse = false;
  while (c.nextBlock()) {
    const key = c.val;
    switch (key) {
      case 'fallthrough': {
        const a = c.remainingArgs();
        fallthrough = a.length === 0 ? ['.'] : a.map((x) => fqdn(x));
        break;
      }
      case 'no_reverse':
        noReverse = true;
        break;
      case 'ttl': {
        const a = c.remainingArgs();
        if (a.length < 1) throw c.err('ttl needs a time in second');
        if (!/^-?\d+$/.test(a[0]!)) throw c.err('ttl needs a number of second');
        const t = Number(a[0]);
        if (t <= 0 || t > 65535) throw c.err('ttl provided is invalid');
        ttl = t;
        break;
      }
      case 'reload':
        c.remainingArgs();
        break;
      default: {
        // Any other line is an inline /etc/hosts entry: "IP name...".
        const rest = c.remainingArgs();
        if (parseIPv4(key) !== undefined && rest.length > 0)
          entries.push({ ip: key, names: rest.map((n) => fqdn(n)) });
        break;
      }
    }
  }
  // The container's own /etc/hosts (written by the kubelet) maps localhost.
  if (file === '/etc/hosts') entries.push({ ip: '127.0.0.1', names: ['localhost.'] });
  return { file, zones, entries, ttl, fallthrough, noReverse };
}

const CLASSES = new Set<LogClass>(['all', 'success', 'denial', 'error']);

export function parseLog(occurrences: readonly (readonly Token[])[]): LogConfig {
  const rules: LogRule[] = [];
  for (const toks of occurrences) {
    const c = new TokenDispenser(toks);
    c.next();
    let args = c.remainingArgs();
    let format = COMMON_LOG_FORMAT;
    const scopes: string[] = [];
    if (args.length === 1) scopes.push(fqdn(args[0]!));
    else if (args.length > 1) {
      const last = args[args.length - 1]!;
      if (last.includes('{')) {
        format = last.replaceAll('{common}', COMMON_LOG_FORMAT).replaceAll('{combined}', COMBINED_LOG_FORMAT);
        args = args.slice(0, -1);
      }
      for (const a of args) scopes.push(fqdn(a));
    }
    if (scopes.length === 0) scopes.push('.');
    const classes: LogClass[] = [];
    while (c.nextBlock()) {
      const key = c.val;
      if (key === 'class') {
        const a = c.remainingArgs();
        if (a.length === 0) throw new CorefileError(`plugin/log: ${c.argErr().message}`);
        for (const cls of a) {
          if (!CLASSES.has(cls as LogClass)) throw new CorefileError(`plugin/log: invalid Class: ${cls}`);
          classes.push(cls as LogClass);
        }
      } else if (key === 'minDuration') {
        c.remainingArgs();
      } else {
        throw new CorefileError(`plugin/log: ${c.err(`unknown property '${key}'`).message}`);
      }
    }
    for (const nameScope of scopes)
      rules.push({ nameScope, format, classes: classes.length ? classes : ['all'] });
  }
  return { rules };
}

/** plugin/log: `{remote}:{port} - {>id} "{type} {class} {name} {proto} {size} {>do} {>bufsize}" {rcode} {>rflags} {rsize} {duration}` */
export const COMMON_LOG_FORMAT =
  '{remote}:{port} - {>id} "{type} {class} {name} {proto} {size} {>do} {>bufsize}" {rcode} {>rflags} {rsize} {duration}';
export const COMBINED_LOG_FORMAT = `${COMMON_LOG_FORMAT} "{>opcode}"`;

export function parseRewrite(c: Dispenser): RewriteRule[] {
  let args = c.remainingArgs();
  if (args.length < 2) {
    while (c.nextBlock()) args = [...args, c.val, ...c.remainingArgs()];
    if (args.length < 2) throw c.argErr();
  }
  let mode: RewriteRule['mode'] = 'stop';
  const first = args[0]!.toLowerCase();
  if (first === 'continue' || first === 'stop') {
    mode = first;
    args = args.slice(1);
  }
  const field = (args[0] ?? '').toLowerCase();
  if (field === 'answer') throw new CorefileError('response rewrites must begin with a name rule');
  if (field !== 'name') {
    if (['type', 'class', 'edns0', 'ttl', 'cname', 'rcode'].includes(field)) return [];
    throw new CorefileError(`invalid rule type "${args[0]}"`);
  }
  const rest = args.slice(1);
  if (rest.length < 2) throw new CorefileError('too few arguments for a name rule');
  let match: RewriteRule['match'] = 'exact';
  let from: string;
  let to: string;
  if (rest.length === 2) {
    from = fqdn(rest[0]!);
    to = fqdn(rest[1]!);
  } else {
    const m = rest[0]!.toLowerCase();
    if (m !== 'exact' && m !== 'prefix' && m !== 'suffix' && m !== 'substring' && m !== 'regex') {
      throw new CorefileError(
        `name rule supports only exact, prefix, suffix, substring, and regex name matching, received: ${m}`,
      );
    }
    match = m;
    from = m === 'regex' ? rest[1]! : rest[1]!.toLowerCase();
    to = m === 'regex' ? rest[2]! : rest[2]!.toLowerCase();
    if (m === 'exact' || m === 'suffix') {
      from = fqdn(from);
      to = fqdn(to);
    }
  }
  const opts = rest.length > 3 ? rest.slice(3) : [];
  const auto = match === 'exact' || (opts[0] === 'answer' && opts[1] === 'auto');
  if (match === 'regex') {
    try {
      new RegExp(from);
    } catch {
      throw new CorefileError(`invalid regex pattern in a name rule: ${from}`);
    }
  }
  return [{ mode, field: 'name', match, from, to, auto }];
}
