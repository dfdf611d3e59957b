/**
 * `ss -tlnp` / `ss -ulnp` (iproute2 6.1: columns sized to their widest cell, the address right-aligned
 * against `:` and the port left-aligned, captured on Debian 12) and `netstat -tlnp` (net-tools and
 * BusyBox print the same fixed layout). What is listed is what actually listens — the sockets the
 * containers' programs opened — not the declared containerPorts. A pod is one network namespace but
 * each container has its own PID namespace: sockets of the other containers show no process.
 * nginx's entrypoint enables `listen [::]:80`, so nginx holds an IPv6 socket too.
 */
import type { CommandHandler } from '../../shell/types.ts';
import { nodeListeners, type Listener } from '../network/listeners.ts';
import { listeningSockets } from '../../node/container-runtime.ts';
import { buildView } from '../network/view.ts';
import type { ToolContext } from './tool-context.ts';

interface Row {
  readonly proto: 'tcp' | 'udp';
  readonly address: string;
  readonly port: number;
  readonly process?: string;
  readonly pid?: number;
}

const NAMES: Record<number, string> = {
  53: 'domain',
  80: 'http',
  443: 'https',
  8080: 'http-alt',
  9153: '9153',
};

function rowsOf(ctx: ToolContext): Row[] {
  const view = buildView(ctx.cluster);
  const mine = ctx.source.kind === 'pod' ? ctx.source.container : undefined;
  let listeners: Listener[] = [];
  if (ctx.pod && !ctx.pod.spec?.hostNetwork)
    listeners = listeningSockets(ctx.pod, view.now).map((s) => ({ ...s }));
  else {
    const node = ctx.pod?.spec?.nodeName ?? ctx.node;
    if (node) listeners = nodeListeners(view, node);
  }
  const rows: Row[] = [];
  for (const l of listeners) {
    const visible = ctx.pod && !ctx.pod.spec?.hostNetwork ? l.container === mine : ctx.source.kind === 'node';
    const base = {
      proto: l.protocol === 'UDP' ? ('udp' as const) : ('tcp' as const),
      port: l.port,
      ...(visible ? { process: l.process, pid: 1 } : {}),
    };
    rows.push({ ...base, address: l.address });
    if (l.process === 'nginx') rows.push({ ...base, address: '[::]' });
  }
  return rows;
}

function parseFlags(args: readonly string[]): Set<string> | string {
  const flags = new Set<string>();
  for (const a of args) {
    if (a.startsWith('--')) {
      const long: Record<string, string> = {
        '--tcp': 't',
        '--udp': 'u',
        '--listening': 'l',
        '--numeric': 'n',
        '--processes': 'p',
        '--all': 'a',
      };
      const f = long[a];
      if (!f) return a;
      flags.add(f);
    } else if (a.startsWith('-')) for (const c of a.slice(1)) flags.add(c);
  }
  return flags;
}

export function ssCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const flags = parseFlags(argv.slice(1));
    if (typeof flags === 'string')
      return { stdout: '', stderr: `ss: unrecognized option '${flags}'\n`, exitCode: 1 };
    const tcp = flags.has('t') || !flags.has('u');
    const udp = flags.has('u');
    const numeric = flags.has('n');
    const rows = rowsOf(ctx)
      .filter((r) => (r.proto === 'tcp' ? tcp : udp))
      .sort(
        (a, b) => a.proto.localeCompare(b.proto) || a.port - b.port || a.address.localeCompare(b.address),
      );
    const both = tcp && udp;
    const cells = rows.map((r) => ({
      netid: r.proto,
      state: r.proto === 'tcp' ? 'LISTEN' : 'UNCONN',
      addr: r.address === '0.0.0.0' ? '0.0.0.0' : r.address,
      port: numeric ? String(r.port) : (NAMES[r.port] ?? String(r.port)),
      peerAddr: r.address === '[::]' ? '[::]' : '0.0.0.0',
      proc:
        flags.has('p') && r.process
          ? ` users:(("${r.process}",pid=${r.pid ?? 1},fd=${r.port === 80 ? 6 : 3}))`
          : '',
    }));
    const w = (values: string[], min: number) => Math.max(min, ...values.map((v) => v.length));
    const stateW = w(
      cells.map((c) => c.state),
      5,
    );
    const addrW = w(
      cells.map((c) => c.addr),
      13,
    );
    const portW = w(
      cells.map((c) => c.port),
      4,
    );
    const peerW = w(
      cells.map((c) => c.peerAddr),
      12,
    );
    const peerPortW = 4;
    const lead = both ? 'Netid ' : '';
    let out = `${lead}${'State'.padEnd(stateW)} Recv-Q Send-Q ${'Local Address'.padStart(addrW)}:${'Port'.padEnd(portW)} ${'Peer Address'.padStart(peerW)}:${'Port'.padEnd(peerPortW)}Process\n`;
    for (const c of cells) {
      const q = c.state === 'LISTEN' ? '511' : '0';
      out += `${both ? c.netid.padEnd(5) + ' ' : ''}${c.state.padEnd(stateW)} ${'0'.padEnd(6)} ${q.padEnd(6)} ${c.addr.padStart(addrW)}:${c.port.padEnd(portW)} ${c.peerAddr.padStart(peerW)}:${'*'.padEnd(peerPortW)}${c.proc}\n`;
    }
    return { stdout: out, stderr: '', exitCode: 0 };
  };
}

export function netstatCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const flags = parseFlags(argv.slice(1));
    if (typeof flags === 'string')
      return { stdout: '', stderr: `netstat: unrecognized option '${flags}'\n`, exitCode: 1 };
    const tcp = flags.has('t') || !flags.has('u');
    const udp = flags.has('u');
    const rows = rowsOf(ctx)
      .filter((r) => (r.proto === 'tcp' ? tcp : udp))
      .sort((a, b) => a.proto.localeCompare(b.proto) || a.port - b.port);
    let out = `Active Internet connections (only servers)\nProto Recv-Q Send-Q Local Address           Foreign Address         State       ${flags.has('p') ? 'PID/Program name    ' : ''}\n`;
    for (const r of rows) {
      const v6 = r.address === '[::]';
      const proto = `${r.proto}${v6 ? '6' : ''}`;
      const local = `${v6 ? ':::' : `${r.address}:`}${r.port}`;
      const foreign = v6 ? ':::*' : '0.0.0.0:*';
      const state = r.proto === 'tcp' ? 'LISTEN' : '';
      const prog = flags.has('p') ? (r.process ? `${r.pid ?? 1}/${r.process}` : '-') : '';
      out += `${proto.padEnd(5)}      0      0 ${local.padEnd(23)} ${foreign.padEnd(23)} ${state.padEnd(11)} ${prog}\n`;
    }
    return { stdout: out, stderr: '', exitCode: 0 };
  };
}
