/**
 * `host` (BIND 9.18 bin/dig/host.c) and glibc `getent hosts` (nss/getent.c).
 *
 * host: an A lookup through the search list (dighost.c rules), then AAAA and MX for the name found; each
 * record is `say_message`'s `<owner> <text> <rdata>`: "has address", "has IPv6 address", "is an alias for",
 * "mail is handled by", "domain name pointer"; an error is `Host <name> not found: 3(NXDOMAIN)` with the
 * name as typed for NXDOMAIN. Exit status 1 after an error.
 *
 * getent hosts: `gethostbyname2(key, AF_INET6)` first, then `AF_INET`, each a full glibc search; one
 * `%-15s %s` line per address plus aliases (the CNAME owners). Exit status 2 when the key is not found.
 */
import { RCODE_NUMBER, reverseName, withoutDot, rdataText, type RR } from '../message.ts';
import { bindSearch, resolve, type QueryFn, type QueryStep } from '../resolver.ts';
import { parseResolvConf } from '../resolv-conf.ts';
import { parseIPv4 } from '../../../util/ip.ts';
import type { ToolOutput } from './nslookup.ts';

const SAY: Partial<Record<RR['type'], string>> = {
  A: 'has address',
  NS: 'name server',
  CNAME: 'is an alias for',
  PTR: 'domain name pointer',
  MX: 'mail is handled by',
  TXT: 'descriptive text',
  AAAA: 'has IPv6 address',
};

function say(rrs: readonly RR[]): string {
  return rrs
    .map((rr) => `${withoutDot(rr.name)} ${SAY[rr.type] ?? `has ${rr.type} record`} ${rdataText(rr)}\n`)
    .join('');
}

export function host(input: { name: string; resolvConf: string; query: QueryFn }): ToolOutput {
  const conf = parseResolvConf(input.resolvConf);
  const server = conf.nameservers[0] ?? '127.0.0.1';
  const isIp = parseIPv4(input.name) !== undefined;
  const search = bindSearch(
    isIp ? reverseName(input.name) : input.name,
    isIp ? 'PTR' : 'A',
    input.resolvConf,
    input.query,
    !isIp,
  );
  const queries: QueryStep[] = [...search.steps];
  const first = search.final.reply;
  if (first.rcode !== 'NOERROR') {
    const shown = first.rcode === 'NXDOMAIN' ? input.name : withoutDot(search.final.name);
    return {
      stdout: `Host ${shown} not found: ${RCODE_NUMBER[first.rcode]}(${first.rcode})\n`,
      stderr: '',
      exitCode: 1,
      queries,
    };
  }
  let out = say(first.answer);
  if (!isIp) {
    const cname = [...first.answer].reverse().find((r) => r.type === 'CNAME');
    const chased = cname && cname.type === 'CNAME' ? cname.target : search.final.name;
    for (const type of ['AAAA', 'MX'] as const) {
      const reply = input.query(chased, type);
      queries.push({ name: chased, type, server, reply });
      if (reply.rcode === 'NOERROR') out += say(reply.answer.filter((r) => r.type === type));
    }
  }
  return { stdout: out, stderr: '', exitCode: 0, queries };
}

export function getentHosts(input: {
  key: string;
  resolvConf: string;
  query: QueryFn;
  hosts?: string;
}): ToolOutput {
  const attempt = (family: 'AAAA' | 'A') =>
    resolve(input.key, {
      resolvConf: input.resolvConf,
      libc: 'glibc',
      family,
      query: input.query,
      hosts: family === 'A' ? input.hosts : undefined,
    });
  const v6 = attempt('AAAA');
  const r = v6.addresses.length > 0 ? v6 : attempt('A');
  const queries = v6 === r ? [...v6.steps] : [...v6.steps, ...r.steps];
  if (r.addresses.length === 0) return { stdout: '', stderr: '', exitCode: 2, queries };
  const canonical = withoutDot(r.canonicalName ?? input.key);
  const last = r.steps[r.steps.length - 1];
  const aliases = (last?.reply.answer ?? [])
    .filter((rr) => rr.type === 'CNAME')
    .map((rr) => withoutDot(rr.name));
  const lines = r.addresses.map((ip) => `${ip.padEnd(15)} ${[canonical, ...aliases].join(' ')}\n`);
  return { stdout: lines.join(''), stderr: '', exitCode: 0, queries };
}
