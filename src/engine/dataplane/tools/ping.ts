/**
 * `ping` as BusyBox (networking/ping.c) and iputils (netshoot, nodes) print it. Echo requests follow
 * the packet path like any connection: a ClusterIP has no interface in iptables and nftables mode, so
 * nothing replies (kube-proxy only rewrites the Service's TCP/UDP ports); in IPVS mode every Service
 * address sits on kube-ipvs0 and the node answers (fact-check #64). TTL drops by one per routing hop.
 *
 * Without -c a real ping runs until Ctrl+C; here it stops after DEFAULT_COUNT echoes.
 */
import type { CommandHandler } from '../../shell/types.ts';
import { fnv32a } from '../../util/rng.ts';
import { connect } from '../network/connect.ts';
import { wait, type ToolContext } from './tool-context.ts';

const DEFAULT_COUNT = 4;

function iputils(ctx: ToolContext): boolean {
  return (ctx.profile?.repository ?? '').endsWith('/netshoot') || ctx.source.kind !== 'pod';
}

export function pingCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    let count: number | undefined;
    let waitS = 10;
    let target: string | undefined;
    const args = argv.slice(1);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const m = /^-([cWwis])(.*)$/.exec(a);
      if (m) {
        const v = m[2] || args[++i];
        const n = Number(v);
        if (v === undefined || !Number.isFinite(n))
          return { stdout: '', stderr: `ping: invalid argument: '${v ?? ''}'\n`, exitCode: 1 };
        if (m[1] === 'c') count = n;
        if (m[1] === 'W') waitS = n;
        continue;
      }
      if (a === '-4' || a === '-n' || a === '-q') continue;
      if (a.startsWith('-'))
        return { stdout: '', stderr: `ping: invalid option -- '${a.slice(1, 2)}'\n`, exitCode: 2 };
      target = a;
    }
    const bsd = iputils(ctx);
    if (!target)
      return {
        stdout: '',
        stderr: bsd
          ? '\nUsage\n  ping [options] <destination>\n'
          : 'BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: ping [OPTIONS] HOST\n',
        exitCode: bsd ? 2 : 1,
      };
    const n = Math.max(1, Math.min(count ?? DEFAULT_COUNT, 100));
    const first = connect({ from: ctx.source, to: target, protocol: 'ICMP' }, ctx.cluster, ctx.cluster.rng);
    if (first.outcome === 'dns-failure') {
      wait(ctx, first.dns?.elapsedMs ?? 0);
      const musl = ctx.profile?.libc === 'musl';
      return {
        stdout: '',
        stderr: bsd
          ? `ping: ${target}: ${musl ? 'Name does not resolve' : 'Name or service not known'}\n`
          : `ping: bad address '${target}'\n`,
        exitCode: bsd ? 2 : 1,
      };
    }
    const ip = first.remote?.ip ?? target;
    // A REJECT answers the echo with ICMP port unreachable: iputils reports it, BusyBox ignores it.
    const rejected = first.outcome === 'refused' ? ip : undefined;
    const shown = first.dns ? target : ip;
    const replies = first.outcome === 'connected';
    const from = first.replyFrom ?? ip;
    const routed = first.hops.filter(
      (h) => h.kind === 'route' && h.via !== 'bridge' && h.via !== 'loopback' && h.via !== 'local',
    ).length;
    const ttl = first.backend?.host ? 117 : Math.max(1, 64 - routed);
    // Round-trip times are kept in whole microseconds, as both pings measure them.
    const times: number[] = [];
    let out = bsd
      ? `PING ${shown} (${ip}) 56(84) bytes of data.\n`
      : `PING ${shown} (${ip}): 56 data bytes\n`;
    for (let i = 0; i < n; i++) {
      const us = first.backend?.host
        ? 11000 + (fnv32a(`${ip}#${i}`) % 900) * 10
        : 40 + (fnv32a(`${ip}#${i}`) % 90);
      if (rejected && bsd) out += `From ${rejected} icmp_seq=${i + 1} Destination Port Unreachable\n`;
      if (replies) {
        times.push(us);
        out += bsd
          ? `64 bytes from ${from}: icmp_seq=${i + 1} ttl=${ttl} time=${iputilsTripTime(us)} ms\n`
          : `64 bytes from ${from}: seq=${i} ttl=${ttl} time=${usec(us)} ms\n`;
      }
    }
    wait(ctx, replies || rejected ? (n - 1) * 1000 : (n - 1) * 1000 + waitS * 1000);
    const lost = n - times.length;
    out += `\n--- ${shown} ping statistics ---\n`;
    if (bsd) {
      // iputils prints the loss with %g of a float: 1 lost of 3 is "33.3333%".
      const pct = formatG(Math.fround((lost * 100) / n));
      out += `${n} packets transmitted, ${times.length} received, ${rejected ? `+${n} errors, ` : ''}${pct}% packet loss, time ${(n - 1) * 1000 + (replies ? 2 : 0)}ms\n`;
    } else
      // BusyBox: unsigned long arithmetic, so the percentage is truncated.
      out += `${n} packets transmitted, ${times.length} packets received, ${Math.floor((lost * 100) / n)}% packet loss\n`;
    if (times.length > 0) {
      const min = Math.min(...times);
      const max = Math.max(...times);
      const sum = times.reduce((a, b) => a + b, 0);
      const avg = Math.floor(sum / times.length);
      if (bsd) {
        // ping_common.c finish(): integer variance (tsum2 - tsum²/n)/n and its integer square root.
        const sum2 = times.reduce((a, b) => a + b * b, 0);
        const variance = Math.floor((sum2 - Math.floor((sum * sum) / times.length)) / times.length);
        const mdev = Math.floor(Math.sqrt(Math.max(0, variance)));
        out += `rtt min/avg/max/mdev = ${usec(min)}/${usec(avg)}/${usec(max)}/${usec(mdev)} ms\n`;
      } else out += `round-trip min/avg/max = ${usec(min)}/${usec(avg)}/${usec(max)} ms\n`;
    }
    const note =
      count === undefined
        ? `packetpath: ping stopped after ${n} packets (a real ping runs until Ctrl+C; use -c N)\n`
        : '';
    return { stdout: out, stderr: note, exitCode: times.length > 0 ? 0 : 1 };
  };
}

/** `%ld.%03ld` of a microsecond count, as both pings print their summaries (and BusyBox each reply). */
function usec(us: number): string {
  return `${Math.floor(us / 1000)}.${String(us % 1000).padStart(3, '0')}`;
}

/**
 * iputils ping_common.c: a reply's time keeps fewer decimals as it grows, rounding at each step:
 * three below 1 ms, two below 10 ms, one below 100 ms, none above (`time=14.8 ms`).
 */
export function iputilsTripTime(us: number): string {
  if (us >= 100000 - 50) return String(Math.floor((us + 500) / 1000));
  if (us >= 10000 - 5) return `${Math.floor((us + 50) / 1000)}.${Math.floor(((us + 50) % 1000) / 100)}`;
  if (us >= 1000)
    return `${Math.floor((us + 5) / 1000)}.${String(Math.floor(((us + 5) % 1000) / 10)).padStart(2, '0')}`;
  return usec(us);
}

/** C's `%g` (6 significant digits, trailing zeros dropped) for the values a loss percentage takes. */
function formatG(v: number): string {
  if (v === 0) return '0';
  return String(Number(v.toPrecision(6)));
}
