/**
 * `nslookup` as two different programs print it.
 *
 * BusyBox (1.30–1.37, FEATURE_NSLOOKUP_BIG, networking/nslookup.c @1_36_1): its own DNS client. It reads only
 * `nameserver` and `search`/`domain` from resolv.conf, ignores ndots (fact-check #59), applies the search
 * list to dotless names only and never queries a dotless name as-is; it sends every query at once (A for
 * each candidate, then AAAA for each) and prints each reply:
 *   Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n  then per reply
 *   Name:\tweb.default.svc.cluster.local\nAddress: 10.96.4.7\n\n   or   ** server can't find x: NXDOMAIN\n\n
 * An authoritative NODATA prints just the blank line. Exit status 1 if any reply had an error rcode.
 *
 * BIND 9.18 (bin/dig/nslookup.c): search per ndots through dighost.c, one A lookup, then AAAA for the name
 * found; `Address:\t10.96.0.10#53`; `** server can't find x: NXDOMAIN`; `-debug` prints every message of the
 * search in detail (showsearch). Exit status 1 after an error rcode.
 */
import { parseResolvConf } from '../resolv-conf.ts';
import { bindSearch, type QueryFn, type QueryStep, type Reply } from '../resolver.ts';
import { fqdn, rdataText, reverseName, withoutDot, type QType, type RR } from '../message.ts';
import { parseIPv4 } from '../../../util/ip.ts';

export interface ToolOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  readonly queries: readonly QueryStep[];
}

/** The queries BusyBox's nslookup sends, in order (`add_query_with_search`). */
export function busyboxNslookupQueries(
  name: string,
  resolvConf: string,
  types: readonly QType[] = ['A', 'AAAA'],
): { name: string; type: QType }[] {
  if (parseIPv4(name) !== undefined) return [{ name: reverseName(name), type: 'PTR' }];
  const conf = parseResolvConf(resolvConf);
  const search = conf.search.length === 1 && conf.search[0] === '.' ? [] : conf.search;
  const out: { name: string; type: QType }[] = [];
  for (const type of types) {
    if (type === 'PTR' || search.length === 0 || name.includes('.')) out.push({ name: fqdn(name), type });
    else for (const d of search) out.push({ name: fqdn(`${name}.${d}`), type });
  }
  return out;
}

/** parse_reply: one line group per answer record; SRV and other types are skipped, as BusyBox does. */
function busyboxRecords(answer: readonly RR[]): string {
  let out = '';
  for (const rr of answer) {
    const owner = withoutDot(rr.name);
    switch (rr.type) {
      case 'A':
      case 'AAAA':
        out += `Name:\t${owner}\nAddress: ${rr.address}\n`;
        break;
      case 'NS':
        out += `${owner}\tnameserver = ${withoutDot(rr.target)}\n`;
        break;
      case 'CNAME':
        out += `${owner}\tcanonical name = ${withoutDot(rr.target)}\n`;
        break;
      case 'PTR':
        out += `${owner}\tname = ${withoutDot(rr.target)}\n`;
        break;
      case 'MX':
        out += `${owner}\tmail exchanger = ${rr.preference} ${withoutDot(rr.exchange)}\n`;
        break;
      case 'TXT':
        out += `${owner}\ttext = "${rr.text[0] ?? ''}"\n`;
        break;
      case 'SOA':
        out += `${owner}\n\torigin = ${withoutDot(rr.mname)}\n\tmail addr = ${withoutDot(rr.rname)}\n\tserial = ${rr.serial}\n\trefresh = ${rr.refresh}\n\tretry = ${rr.retry}\n\texpire = ${rr.expire}\n\tminimum = ${rr.minimum}\n`;
        break;
      default:
        break;
    }
  }
  return out;
}

export interface BusyboxNslookupInput {
  readonly name: string;
  readonly resolvConf: string;
  readonly query: QueryFn;
  readonly types?: readonly QType[];
  readonly debug?: boolean;
  /** `nslookup NAME SERVER`: overrides the resolv.conf nameservers. */
  readonly server?: string;
}

export function busyboxNslookup(input: BusyboxNslookupInput): ToolOutput {
  const conf = parseResolvConf(input.resolvConf);
  const server = input.server ?? conf.nameservers[0] ?? '127.0.0.1';
  const planned = busyboxNslookupQueries(input.name, input.resolvConf, input.types);
  const queries: QueryStep[] = planned.map((q) => ({ ...q, server, reply: input.query(q.name, q.type) }));
  let out = `Server:\t\t${server}\nAddress:\t${server}:53\n\n`;
  let exitCode = 0;
  queries.forEach((q, i) => {
    if (input.debug) out += `Query #${i} completed in ${q.reply.forwarded ? 4 : 0}ms:\n`;
    if (q.reply.rcode !== 'NOERROR') {
      out += `** server can't find ${withoutDot(q.name)}: ${q.reply.rcode}\n`;
      exitCode = 1;
    } else {
      if (q.reply.flags && !q.reply.flags.aa) out += 'Non-authoritative answer:\n';
      else if (input.debug) out += 'authoritative answer:\n';
      out += busyboxRecords(q.reply.answer);
    }
    out += '\n';
  });
  return { stdout: out, stderr: '', exitCode, queries };
}

const RTYPE_TEXT: Partial<Record<RR['type'], string>> = {
  A: 'internet address = ',
  NS: 'nameserver = ',
  CNAME: 'canonical name = ',
  SOA: 'soa = ',
  PTR: 'name = ',
  MX: 'mail exchanger = ',
  TXT: 'text = ',
  AAAA: 'has AAAA address ',
  SRV: 'service = ',
};

function soaLines(rr: Extract<RR, { type: 'SOA' }>): string {
  return `\torigin = ${withoutDot(rr.mname)}\n\tmail addr = ${withoutDot(rr.rname)}\n\tserial = ${rr.serial}\n\trefresh = ${rr.refresh}\n\tretry = ${rr.retry}\n\texpire = ${rr.expire}\n\tminimum = ${rr.minimum}\n`;
}

/** nslookup.c `detailsection` for -debug. */
function detail(step: QueryStep): string {
  const r = step.reply;
  const section = (title: string, rrs: readonly RR[]) =>
    `    ${title}\n` +
    rrs
      .map(
        (rr) =>
          `    ->  ${withoutDot(rr.name)}\n` +
          (rr.type === 'SOA' ? soaLines(rr) : `\t${RTYPE_TEXT[rr.type] ?? ''}${rdataText(rr)}\n`) +
          `\tttl = ${rr.ttl}\n`,
      )
      .join('');
  return (
    '------------\n' +
    `    QUESTIONS:\n\t${withoutDot(step.name)}, type = ${step.type}, class = IN\n` +
    section('ANSWERS:', r.answer) +
    section('AUTHORITY RECORDS:', r.authority ?? []) +
    section('ADDITIONAL RECORDS:', r.additional ?? []) +
    '------------\n'
  );
}

/** nslookup.c `printsection` for the answer section. */
function bindRecords(answer: readonly RR[]): string {
  return answer
    .map((rr) => {
      if (rr.type === 'A' || rr.type === 'AAAA')
        return `Name:\t${withoutDot(rr.name)}\nAddress: ${rr.address}\n`;
      if (rr.type === 'SOA') return `${withoutDot(rr.name)}\n${soaLines(rr)}`;
      return `${withoutDot(rr.name)}\t${RTYPE_TEXT[rr.type] ?? ''}${rdataText(rr)}\n`;
    })
    .join('');
}

export interface BindNslookupInput {
  readonly name: string;
  readonly resolvConf: string;
  readonly query: QueryFn;
  readonly debug?: boolean;
  /** `-type=X`; default A (+ AAAA follow-up). */
  readonly type?: QType;
}

export function bindNslookup(input: BindNslookupInput): ToolOutput {
  const conf = parseResolvConf(input.resolvConf);
  const server = conf.nameservers[0] ?? '127.0.0.1';
  const isIp = parseIPv4(input.name) !== undefined;
  const defaultLookups = input.type === undefined && !isIp;
  const type: QType = isIp ? 'PTR' : (input.type ?? 'A');
  const qname = isIp ? reverseName(input.name) : input.name;
  const search = bindSearch(qname, type, input.resolvConf, input.query, !isIp);
  const header = `Server:\t\t${server}\nAddress:\t${server}#53\n\n`;
  let out = '';
  let exitCode = 0;
  const shown = input.debug ? search.steps : [search.final];
  let aNoAnswer = false;
  for (const step of shown) {
    out += header;
    if (input.debug) out += detail(step);
    if (step.reply.rcode !== 'NOERROR') {
      out += `** server can't find ${withoutDot(step.name)}: ${step.reply.rcode}\n`;
      exitCode = 1;
      continue;
    }
    if (step.reply.flags && !step.reply.flags.aa) out += 'Non-authoritative answer:\n';
    if (step.reply.answer.length > 0) out += bindRecords(step.reply.answer);
    else if (defaultLookups) aNoAnswer = true;
    else out += `*** Can't find ${input.name}: No answer\n`;
  }
  const queries = [...search.steps];
  const final = search.final.reply;
  if (defaultLookups && final.rcode === 'NOERROR') {
    // printmessage queues an AAAA lookup for the name at the end of the CNAME chain, absolute.
    const cname = [...final.answer].reverse().find((r) => r.type === 'CNAME');
    const chased = cname && cname.type === 'CNAME' ? cname.target : search.final.name;
    const reply: Reply = input.query(chased, 'AAAA');
    const step: QueryStep = { name: chased, type: 'AAAA', server, reply };
    queries.push(step);
    if (input.debug) out += detail(step);
    if (reply.rcode !== 'NOERROR') {
      out += `** server can't find ${withoutDot(chased)}: ${reply.rcode}\n`;
      exitCode = 1;
    } else if (reply.answer.length > 0) out += bindRecords(reply.answer);
    else if (aNoAnswer) out += `*** Can't find ${withoutDot(chased)}: No answer\n`;
  }
  out += '\n';
  return { stdout: out, stderr: '', exitCode, queries };
}
