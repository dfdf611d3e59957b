/**
 * `nslookup`, `dig`, `host` and `getent hosts` wired to the network: the formatters in dns/tools/
 * print what the programs print; here each query travels as a packet to the nameserver (policy,
 * kube-proxy, the CoreDNS replica's Corefile and cache). When no answer can come back, each program
 * says so its own way after waiting its own timeouts:
 *
 * - BusyBox nslookup (networking/nslookup.c): `;; connection timed out; no servers could be reached`
 *   and a blank line, exit 1.
 * - BIND 9.18 dig/nslookup/host: `;; communications error to SERVER#53: timed out` per try (3 tries of
 *   5 s for dig, 2 for nslookup and host), then `;; no servers could be reached`; dig exits 9.
 * - getent hosts: nothing, exit 2.
 *
 * Which nslookup an image has: BIND's in images that carry dig (netshoot, agnhost, dnsutils), BusyBox's
 * applet otherwise (fact-check #59: it ignores ndots and searches only dotless names).
 */
import type { CommandHandler } from '../../shell/types.ts';
import { hostsFileFor, nodeHostsFile, nodeResolvConf, resolvConfFor } from '../../node/pod-files.ts';
import { digLookup } from '../dns/tools/dig.ts';
import { getentHosts, host } from '../dns/tools/host.ts';
import { bindNslookup, busyboxNslookup } from '../dns/tools/nslookup.ts';
import { reverseName, type DnsResponse, type QType } from '../dns/message.ts';
import { parseIPv4 } from '../../util/ip.ts';
import { dnsClient, type DnsClient } from '../network/dns-client.ts';
import { ephemeralPort, resolveSource } from '../network/origin.ts';
import { buildView } from '../network/view.ts';
import { wait, type ToolContext } from './tool-context.ts';

const QTYPES = new Set<QType>(['A', 'AAAA', 'SRV', 'PTR', 'CNAME', 'TXT', 'NS', 'SOA', 'MX']);
/** The class the cluster's DNS serves; dig takes it anywhere on the line, as it does a type. */
const DIG_CLASSES = new Set(['IN']);

function session(
  ctx: ToolContext,
  server?: string,
): { client: DnsClient; resolvConf: string; hosts: string } | { error: string } {
  const view = buildView(ctx.cluster);
  const src = resolveSource(view, ctx.source);
  if ('error' in src) return { error: src.error };
  const resolvConf = ctx.pod
    ? resolvConfFor(ctx.pod, ctx.cluster.config)
    : ctx.node
      ? nodeResolvConf(ctx.cluster.config)
      : src.resolvConf;
  const hosts = ctx.pod
    ? hostsFileFor(ctx.pod, ctx.cluster.config)
    : ctx.node
      ? nodeHostsFile(ctx.cluster.config, ctx.node)
      : src.hosts;
  const client = dnsClient(view, src.origin, resolvConf, ctx.cluster.rng, {
    srcPort: ephemeralPort(ctx.cluster.rng),
    libc: src.libc,
    ...(server ? { server } : {}),
  });
  return {
    client,
    resolvConf: server ? `nameserver ${server}\n${resolvConf.replace(/^nameserver.*$/gm, '')}` : resolvConf,
    hosts,
  };
}

function bindTimeout(server: string, tries: number): string {
  return `;; communications error to ${server}#53: timed out\n`.repeat(tries);
}

function bindNslookupImage(ctx: ToolContext): boolean {
  return ctx.profile === undefined || ctx.profile.tools.includes('dig');
}

export function nslookupCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    let debug = false;
    let type: QType | undefined;
    const rest: string[] = [];
    for (const a of argv.slice(1)) {
      const m = /^-(?:type|query|q|t)=(\w+)$/i.exec(a);
      if (m) {
        const t = m[1]!.toUpperCase() as QType;
        if (!QTYPES.has(t)) return { stdout: '', stderr: `nslookup: invalid type '${m[1]}'\n`, exitCode: 1 };
        type = t;
      } else if (a === '-debug' || a === '-d2' || a === '-d') debug = true;
      else if (a.startsWith('-')) continue;
      else rest.push(a);
    }
    const [name, server] = rest;
    const busybox = !bindNslookupImage(ctx);
    if (!name)
      return busybox
        ? {
            stdout: '',
            stderr:
              'BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n\nQuery DNS about HOST\n\nQUERY_TYPE: soa,ns,a,aaaa,cname,mx,txt,any,srv,ptr\n',
            exitCode: 1,
          }
        : { stdout: '', stderr: '', exitCode: 0 };
    const s = session(ctx, server);
    if ('error' in s) return { stdout: '', stderr: `nslookup: ${s.error}\n`, exitCode: 1 };
    if (!s.client.reachable) {
      if (busybox) {
        wait(ctx, 5000);
        return {
          stdout: ';; connection timed out; no servers could be reached\n\n',
          stderr: '',
          exitCode: 1,
        };
      }
      wait(ctx, 10000);
      return {
        stdout: `${bindTimeout(s.client.server, 2)};; no servers could be reached\n\n`,
        stderr: '',
        exitCode: 1,
      };
    }
    const query = (n: string, t: QType) => s.client.query(n, t);
    const out = busybox
      ? busyboxNslookup({
          name,
          resolvConf: s.resolvConf,
          query,
          debug,
          ...(type ? { types: [type] } : {}),
          ...(server ? { server } : {}),
        })
      : bindNslookup({ name, resolvConf: s.resolvConf, query, debug, ...(type ? { type } : {}) });
    return { stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode };
  };
}

export function digCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    let short = false;
    let search = false;
    let showSearch = false;
    let server: string | undefined;
    let type: QType | undefined;
    let name: string | undefined;
    let reverse = false;
    let warnings = '';
    // dig.c parse_args: a bare word that names an RR type (or class) is taken as one wherever it
    // stands, before or after the name, until -t/-c closes that ("open_type_class"); a second type
    // or class only warns and the last one wins.
    let openTypeClass = true;
    const setType = (t: QType): void => {
      if (type !== undefined) warnings += ';; Warning, extra type option\n';
      type = t;
    };
    const args = argv.slice(1);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a.startsWith('@')) server = a.slice(1);
      else if (a === '+short') short = true;
      else if (a === '+search') search = true;
      else if (a === '+showsearch') search = showSearch = true;
      else if (a.startsWith('+')) continue;
      else if (a === '-x') {
        reverse = true;
        name = args[++i];
      } else if (a.startsWith('-t') || a.startsWith('-c')) {
        // -tSRV and -t SRV both work (dash_option takes the value from the rest of the word or the next).
        const value = a.length > 2 ? a.slice(2) : args[++i];
        openTypeClass = false;
        if (value === undefined)
          return {
            stdout: '',
            stderr: `Invalid option: ${a}\nUsage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}\n`,
            exitCode: 1,
          };
        if (a[1] === 't') {
          if (QTYPES.has(value.toUpperCase() as QType)) setType(value.toUpperCase() as QType);
          else warnings += `;; Warning, ignoring invalid type ${value}\n`;
        } else if (!DIG_CLASSES.has(value.toUpperCase()))
          warnings += `;; Warning, ignoring invalid class ${value}\n`;
      } else if (openTypeClass && QTYPES.has(a.toUpperCase() as QType)) setType(a.toUpperCase() as QType);
      else if (openTypeClass && DIG_CLASSES.has(a.toUpperCase())) continue;
      else if (a.startsWith('-'))
        return {
          stdout: '',
          stderr: `Invalid option: ${a}\nUsage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}\n`,
          exitCode: 1,
        };
      else name = a;
    }
    const qname = reverse && name && parseIPv4(name) !== undefined ? reverseName(name) : (name ?? '.');
    // dig -x sets PTR only when no type was given (dash_option: `if (!rdtypeset) rdtype = ptr`).
    const qtype: QType = type ?? (reverse ? 'PTR' : name ? 'A' : 'NS');
    const s = session(ctx, server);
    if ('error' in s) return { stdout: '', stderr: `dig: ${s.error}\n`, exitCode: 1 };
    if (!s.client.reachable) {
      wait(ctx, 15000);
      const greeting = short
        ? ''
        : `\n; <<>> DiG 9.18.33-1~deb12u2-Debian <<>>${args.map((a) => ` ${a}`).join('')}\n;; global options: +cmd\n`;
      return {
        stdout: `${bindTimeout(s.client.server, 3)}${greeting};; no servers could be reached\n`,
        stderr: '',
        exitCode: 9,
      };
    }
    const query = (n: string, t: QType): DnsResponse => {
      const r = s.client.query(n, t);
      return { ...r, edns: { udpSize: 1232, cookie: cookieFor(ctx) } };
    };
    const out = digLookup({
      args,
      name: qname,
      type: qtype,
      resolvConf: s.resolvConf,
      query,
      search,
      showSearch,
      short,
      now: ctx.cluster.clock.now(),
    });
    return { stdout: out.stdout, stderr: warnings, exitCode: 0 };
  };
}

function cookieFor(ctx: ToolContext): string {
  let hex = '';
  while (hex.length < 16) hex += ctx.cluster.rng.nextUint32().toString(16).padStart(8, '0');
  return hex.slice(0, 16);
}

export function hostCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const name = argv.slice(1).find((a) => !a.startsWith('-'));
    if (!name)
      return {
        stdout: '',
        stderr:
          'Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n            [-R number] [-m flag] [-p port] hostname [server]\n',
        exitCode: 1,
      };
    const s = session(ctx);
    if ('error' in s) return { stdout: '', stderr: `host: ${s.error}\n`, exitCode: 1 };
    if (!s.client.reachable) {
      wait(ctx, 10000);
      return {
        stdout: `${bindTimeout(s.client.server, 2)};; no servers could be reached\n`,
        stderr: '',
        exitCode: 1,
      };
    }
    const out = host({ name, resolvConf: s.resolvConf, query: (n, t) => s.client.query(n, t) });
    return { stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode };
  };
}

export function getentCommand(ctx: ToolContext, fallback?: CommandHandler): CommandHandler {
  return (argv, io) => {
    const [db, key] = argv.slice(1);
    if (db !== 'hosts' && db !== 'ahosts') {
      if (fallback) return fallback(argv, io);
      return {
        stdout: '',
        stderr: `Unknown database: ${db ?? ''}\nTry \`getent --help' or \`getent --usage' for more information.\n`,
        exitCode: 1,
      };
    }
    if (!key) return { stdout: '', stderr: '', exitCode: 0 };
    const s = session(ctx);
    if ('error' in s) return { stdout: '', stderr: '', exitCode: 2 };
    if (!s.client.reachable) {
      wait(ctx, 10000);
      return { stdout: '', stderr: '', exitCode: 2 };
    }
    const out = getentHosts({
      key,
      resolvConf: s.resolvConf,
      hosts: s.hosts,
      query: (n, t) => s.client.query(n, t),
    });
    return { stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode };
  };
}
