/**
 * Stub resolvers: the order of queries a program in a pod sends, and what it concludes.
 *
 * - glibc `getaddrinfo` (`__res_context_search`, resolv/res_query.c @05dec22): with dots ≥ ndots or a
 *   trailing dot the name goes out as-is first; otherwise each search domain, then the name as-is last.
 *   NXDOMAIN and NODATA continue the search, SERVFAIL continues but is remembered, anything else (REFUSED)
 *   stops it. AF_UNSPEC sends A and AAAA for every candidate; the pair succeeds if either has answers.
 * - musl (`lookup_name.c` 1.2.x): dots ≥ ndots or a trailing dot ⇒ only the name as-is, never the search
 *   list; a NODATA in a search domain ends the lookup (EAI_NODATA), SERVFAIL ends it (EAI_AGAIN), NXDOMAIN
 *   moves to the next domain. A and AAAA go out in parallel.
 * - BIND's tools (`dig +search`, `nslookup`, `host`; bin/dig/dighost.c `next_origin` @v9.18.50): search
 *   list first unless dots ≥ ndots, then as-is; only NXDOMAIN moves on.
 * Both libcs look in /etc/hosts first (nsswitch `hosts: files dns`; musl `name_from_hosts`).
 */
import type { DnsResponse, QType, Rcode, RR } from './message.ts';
import { fqdn } from './message.ts';
import { parseResolvConf, type Libc, type ResolvConf } from './resolv-conf.ts';

/** What a query function must return; a full DnsResponse fits. */
export type Reply = Pick<DnsResponse, 'rcode' | 'answer'> & Partial<DnsResponse>;
export type QueryFn = (name: string, type: QType) => Reply;

export interface QueryStep {
  /** The fully qualified name sent. */
  readonly name: string;
  readonly type: QType;
  readonly server: string;
  readonly reply: Reply;
}

export type HErrno = 'HOST_NOT_FOUND' | 'NO_DATA' | 'TRY_AGAIN' | 'NO_RECOVERY';
export type GaiError = 'EAI_NONAME' | 'EAI_NODATA' | 'EAI_AGAIN' | 'EAI_FAIL';

export interface ResolveResult {
  readonly libc: Libc;
  readonly name: string;
  readonly steps: readonly QueryStep[];
  /** Addresses in answer order (A before AAAA). */
  readonly addresses: readonly string[];
  /** The name the addresses belong to (after search expansion and CNAMEs). */
  readonly canonicalName?: string;
  /** The candidate that answered (before CNAMEs). */
  readonly matchedName?: string;
  readonly fromHosts: boolean;
  readonly error?: { readonly code: GaiError; readonly message: string };
}

export interface ResolveOptions {
  readonly resolvConf: string;
  readonly libc: Libc;
  readonly family: 'A' | 'AAAA' | 'both';
  readonly query: QueryFn;
  /** /etc/hosts of the pod. */
  readonly hosts?: string;
}

/** gai_strerror texts: glibc's, and musl's (whose EAI_NODATA reads "Name has no usable address"). */
const MESSAGES: Record<Libc, Record<GaiError, string>> = {
  glibc: {
    EAI_NONAME: 'Name or service not known',
    EAI_NODATA: 'No address associated with hostname',
    EAI_AGAIN: 'Temporary failure in name resolution',
    EAI_FAIL: 'Non-recoverable failure in name resolution',
  },
  musl: {
    EAI_NONAME: 'Name does not resolve',
    EAI_NODATA: 'Name has no usable address',
    EAI_AGAIN: 'Try again',
    EAI_FAIL: 'Non-recoverable error',
  },
};

function dotCount(name: string): number {
  return [...name].filter((c) => c === '.').length;
}

function join(name: string, domain: string): string {
  const d = domain.replace(/^\./, '');
  return d === '' ? fqdn(name) : fqdn(`${name}.${d}`);
}

/** /etc/hosts lookup: exact (case-insensitive) match of the name as given, trailing dot ignored. */
export function hostsLookup(hosts: string | undefined, name: string): string[] {
  if (!hosts) return [];
  const want = name.toLowerCase().replace(/\.$/, '');
  const out: string[] = [];
  for (const raw of hosts.split('\n')) {
    const [ip, ...names] = raw.replace(/#.*$/, '').trim().split(/\s+/);
    if (ip && !ip.includes(':') && names.some((n) => n.toLowerCase() === want)) out.push(ip);
  }
  return out;
}

interface Sender {
  readonly steps: QueryStep[];
  send(name: string): Reply[];
}

function sender(conf: ResolvConf, family: ResolveOptions['family'], query: QueryFn): Sender {
  const steps: QueryStep[] = [];
  const server = conf.nameservers[0] ?? '127.0.0.1';
  const types: QType[] = family === 'both' ? ['A', 'AAAA'] : [family];
  return {
    steps,
    send(name) {
      return types.map((type) => {
        const reply = query(name, type);
        steps.push({ name, type, server, reply });
        return reply;
      });
    },
  };
}

function hasData(r: Reply): boolean {
  return r.rcode === 'NOERROR' && r.answer.some((rr) => rr.type === 'A' || rr.type === 'AAAA');
}

/** `__res_context_query`'s verdict on a reply pair (A, AAAA). */
function glibcHerrno(replies: Reply[]): HErrno | undefined {
  if (replies.some(hasData)) return undefined;
  const a = replies[0]!;
  const b = replies[1] ?? a;
  const rcode: Rcode = a.rcode === 'NOERROR' ? b.rcode : a.rcode;
  if (rcode === 'NXDOMAIN') return 'HOST_NOT_FOUND';
  if (rcode === 'SERVFAIL') return 'TRY_AGAIN';
  if (rcode === 'NOERROR') return 'NO_DATA';
  return 'NO_RECOVERY';
}

const GAI: Record<HErrno, GaiError> = {
  HOST_NOT_FOUND: 'EAI_NONAME',
  NO_DATA: 'EAI_NODATA',
  TRY_AGAIN: 'EAI_AGAIN',
  NO_RECOVERY: 'EAI_FAIL',
};

function success(
  libc: Libc,
  name: string,
  steps: QueryStep[],
  matched: string,
  replies: Reply[],
): ResolveResult {
  const answers: RR[] = replies.flatMap((r) => [...r.answer]);
  const addresses = answers
    .filter((r) => r.type === 'A' || r.type === 'AAAA')
    .map((r) => (r.type === 'A' || r.type === 'AAAA' ? r.address : ''));
  const last = answers.find((r) => r.type === 'A' || r.type === 'AAAA');
  return {
    libc,
    name,
    steps,
    addresses,
    canonicalName: last?.name ?? matched,
    matchedName: matched,
    fromHosts: false,
  };
}

function failure(libc: Libc, name: string, steps: QueryStep[], code: GaiError): ResolveResult {
  return {
    libc,
    name,
    steps,
    addresses: [],
    fromHosts: false,
    error: { code, message: MESSAGES[libc][code] },
  };
}

export function resolve(name: string, opts: ResolveOptions): ResolveResult {
  const conf = parseResolvConf(opts.resolvConf, opts.libc);
  const fromHosts = hostsLookup(opts.hosts, name);
  if (fromHosts.length > 0) {
    return {
      libc: opts.libc,
      name,
      steps: [],
      addresses: fromHosts,
      canonicalName: fqdn(name),
      matchedName: fqdn(name),
      fromHosts: true,
    };
  }
  if (name === '' || name.endsWith('..')) return failure(opts.libc, name, [], 'EAI_NONAME');
  return opts.libc === 'glibc' ? glibcSearch(name, conf, opts) : muslSearch(name, conf, opts);
}

function glibcSearch(name: string, conf: ResolvConf, opts: ResolveOptions): ResolveResult {
  const s = sender(conf, opts.family, opts.query);
  const dots = dotCount(name);
  const trailing = name.endsWith('.');
  let saved: HErrno | undefined;
  let last: HErrno = 'HOST_NOT_FOUND';
  let triedAsIs = false;
  let gotNodata = false;
  let gotServfail = false;
  let rootOnList = false;
  const attempt = (candidate: string): ResolveResult | HErrno => {
    const replies = s.send(candidate);
    const h = glibcHerrno(replies);
    if (h === undefined) return success('glibc', name, s.steps, candidate, replies);
    last = h;
    return h;
  };
  if (dots >= conf.ndots || trailing) {
    const r = attempt(fqdn(name));
    if (typeof r !== 'string') return r;
    if (trailing) return failure('glibc', name, s.steps, GAI[r]);
    saved = r;
    triedAsIs = true;
  }
  if (!trailing) {
    for (const domain of conf.search) {
      if (domain.replace(/^\./, '') === '') rootOnList = true;
      const r = attempt(join(name, domain));
      if (typeof r !== 'string') return r;
      if (r === 'NO_DATA') gotNodata = true;
      else if (r === 'TRY_AGAIN') gotServfail = true;
      else if (r !== 'HOST_NOT_FOUND') break;
    }
  }
  if (!triedAsIs && !rootOnList) {
    const r = attempt(fqdn(name));
    if (typeof r !== 'string') return r;
  }
  const h: HErrno = saved ?? (gotNodata ? 'NO_DATA' : gotServfail ? 'TRY_AGAIN' : last);
  return failure('glibc', name, s.steps, GAI[h]);
}

function muslSearch(name: string, conf: ResolvConf, opts: ResolveOptions): ResolveResult {
  const s = sender(conf, opts.family, opts.query);
  const trailing = name.endsWith('.');
  const bare = trailing ? name.slice(0, -1) : name;
  const search = dotCount(name) >= conf.ndots || trailing ? [] : conf.search;
  // name_from_dns: SERVFAIL ⇒ EAI_AGAIN, NXDOMAIN ⇒ 0 (keep searching), other rcodes ⇒ EAI_FAIL,
  // no addresses ⇒ EAI_NODATA; anything non-zero ends the search.
  const fromDns = (candidate: string): ResolveResult | GaiError | 0 => {
    const replies = s.send(candidate);
    for (const r of replies) {
      if (r.rcode === 'SERVFAIL') return 'EAI_AGAIN';
      if (r.rcode === 'NXDOMAIN') return 0;
      if (r.rcode !== 'NOERROR') return 'EAI_FAIL';
    }
    if (replies.some(hasData)) return success('musl', name, s.steps, candidate, replies);
    return 'EAI_NODATA';
  };
  for (const domain of search) {
    const r = fromDns(join(bare, domain));
    if (r === 0) continue;
    return typeof r === 'string' ? failure('musl', name, s.steps, r) : r;
  }
  const r = fromDns(fqdn(bare));
  if (r === 0) return failure('musl', name, s.steps, 'EAI_NONAME');
  return typeof r === 'string' ? failure('musl', name, s.steps, r) : r;
}

export interface BindLookup {
  readonly steps: readonly QueryStep[];
  /** The last reply (the one the tool prints). */
  readonly final: QueryStep;
}

/**
 * The search of BIND's tools for one record type (dighost.c `setup_lookup` + `next_origin`): with
 * `usesearch` and dots < ndots the search domains first, then the name as-is; only NXDOMAIN moves on; a
 * name with dots ≥ ndots or a trailing dot is tried as-is only.
 */
export function bindSearch(
  name: string,
  type: QType,
  resolvConf: string,
  query: QueryFn,
  usesearch: boolean,
  ndots?: number,
): BindLookup {
  const conf = parseResolvConf(resolvConf, 'glibc');
  const nd = ndots ?? conf.ndots;
  const server = conf.nameservers[0] ?? '127.0.0.1';
  const steps: QueryStep[] = [];
  const trailing = name.endsWith('.');
  const candidates =
    !usesearch || trailing || dotCount(name) >= nd
      ? [fqdn(name)]
      : [...conf.search.map((d) => join(name, d)), fqdn(name)];
  for (const candidate of candidates) {
    const reply = query(candidate, type);
    steps.push({ name: candidate, type, server, reply });
    if (reply.rcode !== 'NXDOMAIN') break;
  }
  return { steps, final: steps[steps.length - 1]! };
}
