/**
 * `dig` output (BIND 9.18, bin/dig/dig.c `printmessage`/`received`/`printgreeting` and lib/dns
 * masterdump.c/message.c @v9.18.50):
 *
 *   (blank)
 *   ; <<>> DiG 9.18.33-1~deb12u2-Debian <<>> web.default.svc.cluster.local
 *   ;; global options: +cmd
 *   ;; Got answer:
 *   ;; WARNING: .local is reserved for Multicast DNS            (names under .local)
 *   ;; You are currently testing what happens when an mDNS query is leaked to DNS
 *   ;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 4242
 *   ;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1
 *   ;; WARNING: recursion requested but not available
 *   (blank)
 *   ;; OPT PSEUDOSECTION: / ; EDNS: version: 0, flags:; udp: 1232 / ; COOKIE: <client cookie> (echoed)
 *   ;; QUESTION SECTION: / ;name.\t\tIN\tA / (blank)
 *   ;; ANSWER SECTION: / records / (blank)
 *   ;; Query time: 0 msec / ;; SERVER: 10.96.0.10#53(10.96.0.10) (UDP) / ;; WHEN: … / ;; MSG SIZE  rcvd: 117
 *   (blank)
 *
 * Records are laid out by masterdump.c `indent`: TTL at column 24, class 32, type 40, RDATA 48, tab width 8;
 * a field already past its column gets one space. CoreDNS echoes dig's client cookie (request/edns0.go
 * keeps EDNS0COOKIE), so the cookie line reads "(echoed)". Sizes are CoreDNS's uncompressed lengths.
 */
import { fqdn, rdataText, responseWireLength, type DnsResponse, type QType, type RR } from '../message.ts';
import { parseResolvConf } from '../resolv-conf.ts';
import { bindSearch, type QueryStep } from '../resolver.ts';

export const DIG_VERSION = '9.18.33-1~deb12u2-Debian';

/** masterdump.c `indent(current, to, tabwidth)`. */
function indent(column: number, to: number): { text: string; column: number } {
  let target = to;
  if (target < column + 1) target = column + 1;
  const ntabs = Math.max(0, Math.floor(target / 8) - Math.floor(column / 8));
  let from = column;
  let text = '';
  if (ntabs > 0) {
    text += '\t'.repeat(ntabs);
    from = Math.floor(target / 8) * 8;
  }
  text += ' '.repeat(target - from);
  return { text, column: target };
}

/** One record as `dns_master_rdatasettotext` prints it with dig's style (24/32/40/48). */
export function digRecord(rr: RR): string {
  let line = rr.name;
  let col = rr.name.length;
  const field = (to: number, value: string) => {
    const ind = indent(col, to);
    line += ind.text + value;
    col = ind.column + value.length;
  };
  field(24, String(rr.ttl));
  field(32, 'IN');
  field(40, rr.type);
  field(48, rdataText(rr));
  return line;
}

/** `question_totext`: the owner's column does not count the leading ';'. */
function digQuestion(name: string, type: string): string {
  const a = indent(name.length, 32);
  const b = indent(a.column + 2, 40);
  return `;${name}${a.text}IN${b.text}${type}`;
}

/** `strftime("%a %b %d %H:%M:%S %Z %Y")` in UTC. */
export function digWhen(epochMs: number): string {
  const d = new Date(epochMs);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

export interface DigInput {
  /** The arguments as typed after `dig` (the greeting repeats them). */
  readonly args: readonly string[];
  readonly response: DnsResponse;
  /** Server address. */
  readonly server: string;
  /** Simulated wall clock for `;; WHEN:`. */
  readonly now: number;
  readonly queryTimeMs?: number;
  readonly short?: boolean;
  readonly version?: string;
}

function section(title: string, rrs: readonly RR[]): string {
  if (rrs.length === 0) return '';
  return `;; ${title} SECTION:\n${rrs.map(digRecord).join('\n')}\n\n`;
}

export function formatDig(input: DigInput): string {
  const r = input.response;
  if (input.short) return r.answer.map((rr) => `${rdataText(rr)}\n`).join('');
  const q = r.question;
  const qname = fqdn(q.name);
  let out = `\n; <<>> DiG ${input.version ?? DIG_VERSION} <<>>${input.args.map((a) => ` ${a}`).join('')}\n`;
  out += ';; global options: +cmd\n;; Got answer:\n';
  if (qname === 'local.' || qname.endsWith('.local.')) {
    out +=
      ';; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n';
  }
  out += `;; ->>HEADER<<- opcode: QUERY, status: ${r.rcode}, id: ${r.id}\n`;
  const flags = ['qr', r.flags.aa && 'aa', r.flags.tc && 'tc', r.flags.rd && 'rd', r.flags.ra && 'ra']
    .filter(Boolean)
    .join(' ');
  const additional = r.additional.length + (r.edns ? 1 : 0);
  out += `;; flags: ${flags}; QUERY: 1, ANSWER: ${r.answer.length}, AUTHORITY: ${r.authority.length}, ADDITIONAL: ${additional}\n`;
  if (r.flags.rd && !r.flags.ra) out += ';; WARNING: recursion requested but not available\n';
  out += '\n';
  if (r.edns) {
    out += `;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:${r.edns.do ? ' do' : ''}; udp: ${r.edns.udpSize}\n`;
    if (r.edns.cookie) out += `; COOKIE: ${r.edns.cookie} (echoed)\n`;
  }
  out += `;; QUESTION SECTION:\n${digQuestion(qname, q.type)}\n\n`;
  out += section('ANSWER', r.answer);
  out += section('AUTHORITY', r.authority);
  out += section('ADDITIONAL', r.additional);
  out += `;; Query time: ${input.queryTimeMs ?? 0} msec\n`;
  out += `;; SERVER: ${input.server}#53(${input.server}) (UDP)\n`;
  out += `;; WHEN: ${digWhen(input.now)}\n`;
  out += `;; MSG SIZE  rcvd: ${responseWireLength(r)}\n\n`;
  return out;
}

export interface DigLookupInput {
  readonly args: readonly string[];
  readonly name: string;
  readonly type: QType;
  readonly resolvConf: string;
  /** Sends one query; dig adds EDNS (udp 1232) and an 8-byte client cookie. */
  readonly query: (name: string, type: QType) => DnsResponse;
  /** `+search`: use resolv.conf's search list and ndots (dighost.c `next_origin`). */
  readonly search?: boolean;
  /** `+showsearch`: print every intermediate answer. */
  readonly showSearch?: boolean;
  readonly short?: boolean;
  readonly now: number;
}

/** `dig [+search] [+short] NAME [TYPE]` against the first resolv.conf nameserver. */
export function digLookup(input: DigLookupInput): { stdout: string; queries: readonly QueryStep[] } {
  const server = parseResolvConf(input.resolvConf).nameservers[0] ?? '127.0.0.1';
  const responses: DnsResponse[] = [];
  const search = bindSearch(
    input.name,
    input.type,
    input.resolvConf,
    (n, t) => {
      const r = input.query(n, t);
      responses.push(r);
      return r;
    },
    input.search ?? false,
  );
  const shown = input.showSearch ? responses : responses.slice(-1);
  const stdout = shown
    .map((response) =>
      formatDig({
        args: input.args,
        response,
        server,
        now: input.now,
        short: input.short,
        queryTimeMs: response.forwarded ? 4 : 0,
      }),
    )
    .join('');
  return { stdout, queries: search.steps };
}
