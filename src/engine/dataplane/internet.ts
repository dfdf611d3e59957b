/**
 * The simulated internet: what CoreDNS's `forward . /etc/resolv.conf` reaches, and the hosts behind those
 * names that answer HTTP(S), so `curl https://example.com` from a pod has somewhere to go.
 *
 * Addresses come from the RFC 5737 documentation ranges (192.0.2.0/24 TEST-NET-1, 198.51.100.0/24
 * TEST-NET-2, 203.0.113.0/24 TEST-NET-3), which are reserved for examples and never routed, so nothing a
 * learner copies from a lab can hit a real machine. The exceptions are the public resolvers 8.8.8.8 and
 * 1.1.1.1, whose addresses are the point of the lesson (a `forward . 8.8.8.8` edit). What each name teaches is
 * in `dataplane/README.md`.
 */
import type { QType, Rcode, RR } from './dns/message.ts';
import { fqdn, isSubdomain } from './dns/message.ts';

export interface InternetZone {
  readonly zone: string;
  /** The SOA upstream resolvers return with NXDOMAIN/NODATA under this zone. */
  readonly soa: Extract<RR, { type: 'SOA' }>;
}

export interface HttpResponse {
  readonly status: number;
  readonly reason: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

export interface InternetHost {
  readonly ip: string;
  readonly names: readonly string[];
  /** TCP ports that accept connections (80 and 443 for web hosts, 53 for resolvers). */
  readonly ports: readonly number[];
  readonly server?: string;
}

const soa = (zone: string, mname: string, rname: string, serial: number, minimum: number, ttl = minimum) =>
  ({
    name: zone,
    ttl,
    type: 'SOA',
    mname,
    rname,
    serial,
    refresh: 7200,
    retry: 3600,
    expire: 1209600,
    minimum,
  }) as const;

export const INTERNET_ZONES: readonly InternetZone[] = [
  {
    zone: '.',
    soa: {
      ...soa('.', 'a.root-servers.net.', 'nstld.verisign-grs.com.', 2025112700, 86400),
      refresh: 1800,
      retry: 900,
      expire: 604800,
    },
  },
  { zone: 'example.com.', soa: soa('example.com.', 'ns.icann.org.', 'noc.dns.icann.org.', 2025011601, 3600) },
  {
    zone: 'exemplo.com.',
    soa: soa('exemplo.com.', 'ns1.exemplo.com.', 'hostmaster.exemplo.com.', 2025010101, 300),
  },
  {
    zone: 'stripe.com.',
    soa: soa('stripe.com.', 'ns-cloud-a1.googledomains.com.', 'cloud-dns-hostmaster.google.com.', 1, 300),
  },
  {
    zone: 'k8s.io.',
    soa: soa('k8s.io.', 'ns-cloud-d1.googledomains.com.', 'cloud-dns-hostmaster.google.com.', 1, 300),
  },
  { zone: 'google.com.', soa: soa('google.com.', 'ns1.google.com.', 'dns-admin.google.com.', 830000000, 60) },
  {
    zone: 'httpbin.org.',
    soa: soa('httpbin.org.', 'ns-1.awsdns-00.com.', 'awsdns-hostmaster.amazon.com.', 1, 86400),
  },
];

/** name → records, all TTL 300 unless noted. */
const RECORDS: Readonly<Record<string, readonly RR[]>> = {
  'example.com.': [{ name: 'example.com.', ttl: 300, type: 'A', address: '192.0.2.10' }],
  'www.example.com.': [{ name: 'www.example.com.', ttl: 300, type: 'CNAME', target: 'example.com.' }],
  'api.exemplo.com.': [{ name: 'api.exemplo.com.', ttl: 300, type: 'A', address: '198.51.100.20' }],
  'exemplo.com.': [{ name: 'exemplo.com.', ttl: 300, type: 'A', address: '198.51.100.21' }],
  'api.stripe.com.': [{ name: 'api.stripe.com.', ttl: 60, type: 'A', address: '203.0.113.30' }],
  'registry.k8s.io.': [{ name: 'registry.k8s.io.', ttl: 300, type: 'A', address: '203.0.113.40' }],
  'google.com.': [{ name: 'google.com.', ttl: 300, type: 'A', address: '192.0.2.50' }],
  'www.google.com.': [{ name: 'www.google.com.', ttl: 300, type: 'A', address: '192.0.2.51' }],
  'httpbin.org.': [{ name: 'httpbin.org.', ttl: 60, type: 'A', address: '203.0.113.60' }],
  'dns.google.': [
    { name: 'dns.google.', ttl: 900, type: 'A', address: '8.8.8.8' },
    { name: 'dns.google.', ttl: 900, type: 'A', address: '8.8.4.4' },
  ],
  'one.one.one.one.': [
    { name: 'one.one.one.one.', ttl: 300, type: 'A', address: '1.1.1.1' },
    { name: 'one.one.one.one.', ttl: 300, type: 'A', address: '1.0.0.1' },
  ],
};

export const INTERNET_HOSTS: readonly InternetHost[] = [
  { ip: '192.0.2.10', names: ['example.com', 'www.example.com'], ports: [80, 443], server: 'ECS (nyd/D10E)' },
  { ip: '198.51.100.20', names: ['api.exemplo.com'], ports: [80, 443], server: 'nginx' },
  { ip: '198.51.100.21', names: ['exemplo.com'], ports: [80, 443], server: 'nginx' },
  { ip: '203.0.113.30', names: ['api.stripe.com'], ports: [443], server: 'nginx' },
  { ip: '203.0.113.40', names: ['registry.k8s.io'], ports: [80, 443], server: 'Google Frontend' },
  { ip: '192.0.2.50', names: ['google.com'], ports: [80, 443], server: 'gws' },
  { ip: '192.0.2.51', names: ['www.google.com'], ports: [80, 443], server: 'gws' },
  { ip: '203.0.113.60', names: ['httpbin.org'], ports: [80, 443], server: 'gunicorn/19.9.0' },
  { ip: '8.8.8.8', names: ['dns.google'], ports: [53, 443] },
  { ip: '8.8.4.4', names: ['dns.google'], ports: [53, 443] },
  { ip: '1.1.1.1', names: ['one.one.one.one'], ports: [53, 443] },
  { ip: '1.0.0.1', names: ['one.one.one.one'], ports: [53, 443] },
];

export interface InternetAnswer {
  readonly rcode: Rcode;
  readonly answer: readonly RR[];
  readonly authority: readonly RR[];
}

function zoneOf(name: string): InternetZone {
  let best = INTERNET_ZONES[0]!;
  for (const z of INTERNET_ZONES) if (isSubdomain(name, z.zone) && z.zone.length > best.zone.length) best = z;
  return best;
}

/**
 * What a recursive resolver on the internet answers: CNAME chains followed, NXDOMAIN/NODATA with the
 * enclosing zone's SOA (TTL = the SOA minimum, RFC 2308). Reverse names of private addresses are NXDOMAIN.
 */
export function internetLookup(name: string, type: QType): InternetAnswer {
  let qname = fqdn(name);
  const answer: RR[] = [];
  for (let hops = 0; hops < 8; hops++) {
    const rrs = RECORDS[qname];
    if (!rrs) {
      if (answer.length > 0) return { rcode: 'NOERROR', answer, authority: [] };
      const z = zoneOf(qname);
      return { rcode: 'NXDOMAIN', answer, authority: [z.soa] };
    }
    const cname = rrs.find((r) => r.type === 'CNAME');
    if (cname && cname.type === 'CNAME' && type !== 'CNAME') {
      answer.push(cname);
      qname = cname.target;
      continue;
    }
    const hits = rrs.filter((r) => r.type === type);
    if (hits.length === 0 && answer.length === 0)
      return { rcode: 'NOERROR', answer, authority: [zoneOf(qname).soa] };
    return { rcode: 'NOERROR', answer: [...answer, ...hits], authority: [] };
  }
  return { rcode: 'SERVFAIL', answer: [], authority: [] };
}

export function internetHost(ip: string): InternetHost | undefined {
  return INTERNET_HOSTS.find((h) => h.ip === ip);
}

/**
 * The HTTP answer of an internet host. httpbin.org's `/ip` and `/headers` echo what the host saw, which
 * shows the node's SNAT address instead of the pod's.
 */
export function internetHttp(
  ip: string,
  req: {
    readonly method: string;
    readonly path: string;
    readonly host: string;
    readonly clientIp: string;
    readonly headers?: Readonly<Record<string, string>>;
  },
): HttpResponse | undefined {
  const h = internetHost(ip);
  if (!h || !h.ports.some((p) => p === 80 || p === 443)) return undefined;
  const server = h.server ?? 'nginx';
  const json = (body: unknown): HttpResponse => {
    const text = `${JSON.stringify(body, null, 2)}\n`;
    return {
      status: 200,
      reason: 'OK',
      headers: [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(text.length)],
        ['Server', server],
      ],
      body: text,
    };
  };
  if (h.names.includes('httpbin.org')) {
    if (req.path === '/ip') return json({ origin: req.clientIp });
    if (req.path === '/headers') return json({ headers: { Host: req.host, ...(req.headers ?? {}) } });
    const m = /^\/status\/(\d{3})$/.exec(req.path);
    if (m)
      return {
        status: Number(m[1]),
        reason: '',
        headers: [
          ['Server', server],
          ['Content-Length', '0'],
        ],
        body: '',
      };
  }
  if (h.names.includes('api.stripe.com') || h.names.includes('api.exemplo.com')) {
    return {
      status: 401,
      reason: 'Unauthorized',
      headers: [
        ['Content-Type', 'application/json'],
        ['Server', server],
      ],
      body: '{\n  "error": {\n    "message": "You did not provide an API key."\n  }\n}\n',
    };
  }
  const title = h.names[0] ?? ip;
  const body = `<!doctype html>\n<html>\n<head><title>${title}</title></head>\n<body><h1>${title}</h1></body>\n</html>\n`;
  return {
    status: 200,
    reason: 'OK',
    headers: [
      ['Content-Type', 'text/html'],
      ['Content-Length', String(body.length)],
      ['Server', server],
    ],
    body,
  };
}
