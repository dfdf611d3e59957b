/**
 * Where a reachability check sends its traffic. Lab authors write one string, as they would give it to
 * `curl` or `nc`: a name (`api`, `api.shop.svc.cluster.local`), `name:port`, `IP:port`, or a URL
 * (`http://api.shop:8080/healthz`). The port may also come from the check's `port` field.
 */

export interface ProbeTarget {
  /** A DNS name or an IPv4 address, as written. */
  readonly host: string;
  readonly port: number;
  readonly protocol: 'TCP' | 'UDP';
  /** Set when the target was a URL: the request a client would send. */
  readonly url?: { readonly scheme: 'http' | 'https'; readonly path: string };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const NAME = /^(?=.{1,253}\.?$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\.?$/i;

export function isIPv4(text: string): boolean {
  return IPV4.test(text);
}

function validPort(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}

/** Parses a check's `to`, `port` and `protocol`; returns an error text an author can act on. */
export function parseProbeTarget(
  to: string,
  port: number | undefined,
  protocol: 'TCP' | 'UDP' = 'TCP',
): ProbeTarget | { readonly error: string } {
  const text = to.trim();
  const url = /^(https?):\/\/([^/:?#]+)(?::(\d+))?([/?#].*)?$/i.exec(text);
  if (url) {
    const scheme = url[1]!.toLowerCase() as 'http' | 'https';
    if (protocol !== 'TCP') return { error: `a URL target needs protocol TCP, not ${protocol}` };
    const host = url[2]!;
    if (!isIPv4(host) && !NAME.test(host))
      return { error: `"${host}" is not a host name or an IPv4 address` };
    const urlPort = url[3] === undefined ? undefined : Number(url[3]);
    if (urlPort !== undefined && port !== undefined && urlPort !== port) {
      return { error: `the URL says port ${urlPort} but port says ${port}` };
    }
    const p = urlPort ?? port ?? (scheme === 'https' ? 443 : 80);
    if (!validPort(p)) return { error: `port ${p} is out of range 1-65535` };
    return { host, port: p, protocol, url: { scheme, path: url[4] ?? '/' } };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { error: `only http:// and https:// URLs are supported` };
  const hostPort = /^([^:\s]+):(\d+)$/.exec(text);
  const host = hostPort ? hostPort[1]! : text;
  const ownPort = hostPort ? Number(hostPort[2]) : undefined;
  if (!isIPv4(host) && !NAME.test(host)) return { error: `"${host}" is not a host name or an IPv4 address` };
  if (ownPort !== undefined && port !== undefined && ownPort !== port) {
    return { error: `the target says port ${ownPort} but port says ${port}` };
  }
  const p = ownPort ?? port;
  if (p === undefined) return { error: `give a port: "${host}:80", a URL, or the port field` };
  if (!validPort(p)) return { error: `port ${p} is out of range 1-65535` };
  return { host, port: p, protocol };
}

/** The target as one line for messages: `http://api:8080/`, `10.96.0.10:53/UDP`. */
export function formatProbeTarget(t: ProbeTarget): string {
  if (t.url) return `${t.url.scheme}://${t.host}:${t.port}${t.url.path}`;
  return t.protocol === 'TCP' ? `${t.host}:${t.port}` : `${t.host}:${t.port}/${t.protocol}`;
}
