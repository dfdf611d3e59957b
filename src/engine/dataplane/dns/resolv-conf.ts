/**
 * `/etc/resolv.conf` as the C libraries read it (resolv.conf(5); glibc `resolv/res_init.c`, musl
 * `src/network/resolvconf.c`): `nameserver` (at most 3), `search`/`domain` (the last one wins; `domain x`
 * is a one-entry search list), `options ndots:N timeout:N attempts:N …`. Limits differ: glibc caps ndots at
 * 15 (RES_MAXNDOTS), timeout at 30 (RES_MAXRETRANS) and attempts at 5 (RES_MAXRETRY); musl caps ndots at 15,
 * timeout at 60 and attempts at 10. Unknown lines and options are ignored, as both libraries do.
 */

export type Libc = 'glibc' | 'musl';

export interface ResolvConf {
  readonly nameservers: readonly string[];
  readonly search: readonly string[];
  readonly ndots: number;
  readonly timeout: number;
  readonly attempts: number;
  /** Every option as written (`ndots:5`, `single-request`, `edns0`…), in order. */
  readonly options: readonly string[];
}

const LIMITS: Record<Libc, { timeout: number; attempts: number }> = {
  glibc: { timeout: 30, attempts: 5 },
  musl: { timeout: 60, attempts: 10 },
};

export function parseResolvConf(text: string, libc: Libc = 'glibc'): ResolvConf {
  const nameservers: string[] = [];
  let search: string[] = [];
  let ndots = 1;
  let timeout = 5;
  let attempts = 2;
  const options: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    if (line === '') continue;
    const [key, ...args] = line.split(/\s+/);
    if (key === 'nameserver' && args[0] !== undefined && nameservers.length < 3) nameservers.push(args[0]);
    else if (key === 'search') search = args;
    else if (key === 'domain' && args[0] !== undefined) search = [args[0]];
    else if (key === 'options') {
      for (const opt of args) {
        options.push(opt);
        const m = /^(ndots|timeout|attempts):(\d+)/.exec(opt);
        if (!m) continue;
        const n = Number(m[2]);
        if (m[1] === 'ndots') ndots = Math.min(n, 15);
        else if (m[1] === 'timeout') timeout = Math.min(n, LIMITS[libc].timeout);
        else attempts = Math.min(n, LIMITS[libc].attempts);
      }
    }
  }
  return { nameservers, search, ndots, timeout, attempts, options };
}

/** The resolv.conf the kubelet writes for dnsPolicy ClusterFirst (pkg/kubelet/network/dns/dns.go). */
export function clusterFirstResolvConf(
  namespace: string,
  clusterDomain: string,
  dnsIP: string,
  hostSearch: readonly string[] = [],
): string {
  const search = [`${namespace}.svc.${clusterDomain}`, `svc.${clusterDomain}`, clusterDomain, ...hostSearch];
  const unique = search.filter((s, i) => search.indexOf(s) === i);
  return `search ${unique.join(' ')}\nnameserver ${dnsIP}\noptions ndots:5\n`;
}
