/**
 * The Corefile of the `coredns` ConfigMap, parsed into the typed configuration our CoreDNS model runs.
 * Parsing follows caddy (see caddyfile.ts) and each plugin's setup function (coredns `plugin/<name>/setup.go`),
 * so a malformed Corefile fails with the line CoreDNS prints before exiting, e.g.
 * `plugin/kubernetes: /etc/coredns/Corefile:6 - Error during parsing: Wrong argument count or unexpected
 * line ending after 'ttl'`. The controllers use `validateCorefile` to put the pod in CrashLoopBackOff with
 * that log line.
 *
 * Simplified: only the plugins listed in `PluginConfigs` are interpreted; every other valid directive is
 * accepted and listed in `ServerBlock.others` (it changes nothing in answers).
 */
import { CorefileError, Dispenser, parseServerBlocks, type CorefileFiles, type Token } from './caddyfile.ts';
import {
  parseCache,
  parseForward,
  parseHosts,
  parseKubernetes,
  parseLog,
  parseRewrite,
} from './corefile-plugins.ts';
import type {
  CacheConfig,
  ForwardConfig,
  HostsConfig,
  KubernetesConfig,
  LogConfig,
  RewriteRule,
} from './corefile-plugins.ts';
import { fqdn } from './message.ts';

export type { CacheConfig, ForwardConfig, HostsConfig, KubernetesConfig, LogConfig, RewriteRule };
export { CorefileError };
export type { CorefileFiles };

/** CoreDNS's directive list in plugin-chain order (`core/dnsserver/zdirectives.go`, CoreDNS 1.12–1.14). */
export const DIRECTIVES: readonly string[] = (
  'root metadata geoip cancel proxyproto quic grpc_server https https3 timeouts multisocket reload nsid bufsize ' +
  'bind debug trace ready health pprof shed prometheus errors log dnstap local dns64 any chaos loadbalance tsig ' +
  'rewrite autopath acl cache header dnssec tls minimal template transfer hosts route53 azure clouddns ' +
  'k8s_external kubernetes file auto secondary etcd loop forward grpc erratic whoami on sign view nomad'
).split(' ');

const VALID = new Set(DIRECTIVES);

export interface ServerBlock {
  /** The keys as written (`.:53`). */
  readonly keys: readonly string[];
  /** Zones the block serves, fully qualified (`.`, `cluster.local.`). */
  readonly zones: readonly string[];
  readonly port: number;
  readonly errors: boolean;
  readonly health: boolean;
  readonly ready: boolean;
  readonly loop: boolean;
  readonly reload: boolean;
  readonly loadbalance: boolean;
  readonly prometheus?: string;
  readonly log?: LogConfig;
  readonly rewrite: readonly RewriteRule[];
  readonly cache?: CacheConfig;
  readonly hosts?: HostsConfig;
  readonly kubernetes?: KubernetesConfig;
  readonly forward?: ForwardConfig;
  /** Other directives present (accepted, not simulated). */
  readonly others: readonly string[];
}

export interface Corefile {
  readonly servers: readonly ServerBlock[];
  /** caddy's start-up warnings (an import glob that matched no file, an empty imported file). */
  readonly warnings?: readonly string[];
}

export type CorefileValidation = { ok: true; corefile: Corefile } | { ok: false; error: string };

/**
 * The Corefile kubeadm renders (cmd/kubeadm/app/phases/addons/dns/manifests.go), for a cluster domain:
 * what a kubeadm cluster's `coredns` ConfigMap holds (cluster/addons/coredns.ts installs it), and what
 * CoreDNS falls back to when that ConfigMap is gone.
 */
export function defaultCorefileText(clusterDomain = 'cluster.local'): string {
  return `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes ${clusterDomain} in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success ${clusterDomain}
       disable denial ${clusterDomain}
    }
    loop
    reload
    loadbalance
}
`;
}

/**
 * Parses a Corefile; throws CorefileError with CoreDNS's wording. `files` are what the CoreDNS
 * container has mounted, for `import` (k3s: the optional `coredns-custom` ConfigMap at
 * /etc/coredns/custom); without them every import glob matches nothing.
 */
export function parseCorefile(text: string, files?: CorefileFiles): Corefile {
  const warnings: string[] = [];
  const raw = parseServerBlocks(text, VALID, { ...(files ? { files } : {}), warnings });
  const servers = raw.map((b) => buildServer(b.keys, b.directives));
  const seen = new Map<string, string>();
  for (const s of servers) {
    for (const z of s.zones) {
      const key = `${z}:${s.port}`;
      // core/dnsserver/register.go: "cannot serve %s - it is already defined"
      if (seen.has(key)) throw new CorefileError(`cannot serve dns://${z}:${s.port} - it is already defined`);
      seen.set(key, key);
    }
  }
  return { servers, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** For the controllers: does CoreDNS start with this Corefile, and if not, the fatal log line. */
export function validateCorefile(text: string, files?: CorefileFiles): CorefileValidation {
  try {
    return { ok: true, corefile: parseCorefile(text, files) };
  } catch (e) {
    if (e instanceof CorefileError) return { ok: false, error: e.message };
    throw e;
  }
}

/** `dns://.:53` / `.:53` / `cluster.local` → zone and port. */
function parseKey(key: string): { zone: string; port: number } {
  let k = key.replace(/^dns:\/\//, '');
  let port = 53;
  const m = /^(.*):(\d+)$/.exec(k);
  if (m) {
    k = m[1]!;
    port = Number(m[2]);
  }
  if (k === '') k = '.';
  return { zone: fqdn(k), port };
}

function buildServer(
  keys: readonly string[],
  directives: ReadonlyMap<string, readonly (readonly Token[])[]>,
): ServerBlock {
  const parsed = keys.map(parseKey);
  const zones = parsed.map((p) => p.zone);
  const port = parsed[0]?.port ?? 53;
  const once = (name: string): Dispenser | undefined => {
    const occ = directives.get(name);
    if (!occ) return undefined;
    if (occ.length > 1 && ONCE.has(name)) {
      throw new CorefileError(`plugin/${name}: this plugin can only be used once per Server Block`);
    }
    const d = new Dispenser(occ[0]!);
    d.next();
    return d;
  };
  const plugin = <T>(name: string, fn: (d: Dispenser) => T): T | undefined => {
    const d = once(name);
    if (!d) return undefined;
    try {
      return fn(d);
    } catch (e) {
      if (e instanceof CorefileError && !e.message.startsWith('plugin/')) {
        throw new CorefileError(`plugin/${name}: ${e.message}`);
      }
      throw e;
    }
  };
  const flag = (name: string): boolean => plugin(name, noArgs) !== undefined;
  const rewriteOcc = directives.get('rewrite') ?? [];
  const rewrite = rewriteOcc.flatMap((toks) => {
    const d = new Dispenser(toks);
    d.next();
    try {
      return parseRewrite(d);
    } catch (e) {
      if (e instanceof CorefileError) throw new CorefileError(`plugin/rewrite: ${e.message}`);
      throw e;
    }
  });
  const known = new Set([
    'errors',
    'health',
    'ready',
    'loop',
    'reload',
    'loadbalance',
    'prometheus',
    'log',
    'rewrite',
  ]);
  for (const k of ['cache', 'hosts', 'kubernetes', 'forward']) known.add(k);
  return {
    keys,
    zones,
    port,
    errors: directives.has('errors'),
    health: plugin('health', () => true) ?? false,
    ready: flag('ready'),
    loop: flag('loop'),
    reload: directives.has('reload'),
    loadbalance: directives.has('loadbalance'),
    prometheus: plugin('prometheus', (d) => d.remainingArgs()[0] ?? 'localhost:9153'),
    log: directives.has('log') ? parseLog(directives.get('log')!) : undefined,
    rewrite,
    cache: plugin('cache', (d) => parseCache(d, zones)),
    hosts: plugin('hosts', (d) => parseHosts(d, zones)),
    kubernetes: plugin('kubernetes', (d) => parseKubernetes(d, zones)),
    forward: plugin('forward', parseForward),
    others: [...directives.keys()].filter((k) => !known.has(k)).sort(),
  };
}

/** Plugins whose setup returns `plugin.ErrOnce` on a second stanza. */
const ONCE = new Set(['cache', 'kubernetes', 'forward', 'hosts', 'loop', 'ready', 'health', 'prometheus']);

function noArgs(d: Dispenser): true {
  if (d.remainingArgs().length > 0) throw d.argErr();
  return true;
}

/** The server block that answers `qname` on port 53: the longest matching zone (CoreDNS's zone routing). */
export function serverFor(corefile: Corefile, qname: string, port = 53): ServerBlock | undefined {
  let best: ServerBlock | undefined;
  let bestLen = -1;
  for (const s of corefile.servers) {
    if (s.port !== port) continue;
    for (const z of s.zones) {
      if ((z === '.' || qname === z || qname.endsWith(`.${z}`)) && z.length > bestLen) {
        best = s;
        bestLen = z.length;
      }
    }
  }
  return best;
}
