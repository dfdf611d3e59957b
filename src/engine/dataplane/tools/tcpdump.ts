/**
 * tcpdump 4.99 in a pod's or a node's network namespace (a hostNetwork pod, `kubectl debug node/…`
 * with netshoot): getopt's flags and errors, `-D`, a live capture on an interface or `any` (Linux
 * cooked v2) that takes the frames capture/traffic.ts produces while other commands run, `-w` to a
 * libpcap file in the container's files, `-r` to read one back.
 *
 * A capture records while traffic flows, so it runs in the background (`tcpdump … &`, then the
 * traffic, then `wait`): the shell collects its output then, as `kubectl exec` does when tcpdump's
 * `-c` count ends it. In the foreground nothing can send traffic meanwhile (one command runs at a
 * time), which tcpdump says with a `packetpath:` line before stopping as Ctrl-C would.
 *
 * Names are not looked up: without `-n` ports get their /etc/services names but addresses stay
 * numeric (the reverse lookups tcpdump would send are not modelled).
 */
import type { CommandHandler, CommandIO, CommandResult, ExecResult } from '../../shell/types.ts';
import { buildView, type NetworkView } from '../network/view.ts';
import { nodeInterfaces, podInterfaces, type Iface } from '../network/interfaces.ts';
import type { ToolContext } from './tool-context.ts';
import { decodeFrame, LINKTYPE_ETHERNET, LINKTYPE_LINUX_SLL2, LINKTYPE_RAW } from '../capture/decode.ts';
import { compileFilter, FilterError } from '../capture/filter.ts';
import { Printer, type PrintOptions } from '../capture/print.ts';
import { fromBinaryString, readPcap, toBinaryString, writePcap, type PcapRecord } from '../capture/pcap.ts';
import {
  frameBytes,
  getCapture,
  nextCaptureId,
  startCapture,
  stopCapture,
  type CaptureState,
} from '../capture/captures.ts';

const VERSION =
  'tcpdump version 4.99.3\nlibpcap version 1.10.3 (with TPACKET_V3)\nOpenSSL 3.0.15 3 Sep 2024\n';

const USAGE = `${VERSION}Usage: tcpdump [-AbdDefhHIJKlLnNOpqStuUvxX#] [ -B size ] [ -c count ] [--count]
\t\t[ -C file_size ] [ -E algo:secret ] [ -F file ] [ -G seconds ]
\t\t[ -i interface ] [ --immediate-mode ] [ -j tstamptype ]
\t\t[ -M secret ] [ --number ] [ --print ] [ -Q in|out|inout ]
\t\t[ -r file ] [ -s snaplen ] [ -T type ] [ --version ]
\t\t[ -V file ] [ -w file ] [ -W filecount ] [ -y datalinktype ]
\t\t[ --time-stamp-precision precision ] [ --micro ] [ --nano ]
\t\t[ -z postrotate-command ] [ -Z user ] [ expression ]
`;

const MAX_SNAPLEN = 262144;

/** Short options that take an argument (tcpdump's getopt string), and those that do not. */
const WITH_ARG = new Set('BcCEFGiMQrsTVwWyzZj'.split(''));
const FLAGS = new Set('AbdDefhHIJKlLnNOpqStuUvxX#'.split(''));

interface Options {
  iface?: string;
  count?: number;
  numeric: number;
  ether: boolean;
  verbose: number;
  hex: number;
  ascii: boolean;
  snaplen: number;
  write?: string;
  read?: string;
  quiet: boolean;
  timestamps: number;
  direction: 'in' | 'out' | 'inout';
  list: boolean;
  version: boolean;
  help: boolean;
  expression: string;
}

type Parsed = { readonly ok: Options } | { readonly error: ExecResult };

function fail(message: string, usage = false): { error: ExecResult } {
  return { error: { stdout: '', stderr: `tcpdump: ${message}\n${usage ? USAGE : ''}`, exitCode: 1 } };
}

function parseArgs(args: readonly string[]): Parsed {
  const o: Options = {
    numeric: 0,
    ether: false,
    verbose: 0,
    hex: 0,
    ascii: false,
    snaplen: MAX_SNAPLEN,
    quiet: false,
    timestamps: 0,
    direction: 'inout',
    list: false,
    version: false,
    help: false,
    expression: '',
  };
  const rest: string[] = [];
  const apply = (flag: string, value: string | undefined): Parsed | undefined => {
    switch (flag) {
      case 'i':
        o.iface = value;
        break;
      case 'c': {
        const n = Number(value);
        if (!/^\d+$/.test(value ?? '') || n <= 0) return fail(`invalid packet count ${value}`);
        o.count = n;
        break;
      }
      case 's': {
        const n = Number(value);
        if (!/^\d+$/.test(value ?? '') || n > MAX_SNAPLEN)
          return fail(`invalid snaplen ${value} (must be >= 0 and <= ${MAX_SNAPLEN})`);
        o.snaplen = n === 0 ? MAX_SNAPLEN : n;
        break;
      }
      case 'w':
        o.write = value;
        break;
      case 'r':
        o.read = value;
        break;
      case 'Q':
        if (value !== 'in' && value !== 'out' && value !== 'inout')
          return fail(`unknown capture direction \`${value}'`);
        o.direction = value;
        break;
      case 'n':
        o.numeric++;
        break;
      case 'e':
        o.ether = true;
        break;
      case 'v':
        o.verbose++;
        break;
      case 'x':
        o.hex = Math.max(o.hex, 1);
        break;
      case 'X':
        o.hex = o.hex >= 2 ? 3 : 2;
        break;
      case 'A':
        o.ascii = true;
        break;
      case 'q':
        o.quiet = true;
        break;
      case 't':
        o.timestamps++;
        break;
      case 'D':
        o.list = true;
        break;
      case 'h':
        o.help = true;
        break;
      default:
        // -l (line buffered), -p, -U, -S, -K and the rest change nothing a simulated capture shows.
        break;
    }
    return undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
      if (name === 'version') o.version = true;
      else if (name === 'help') o.help = true;
      else if (name === 'immediate-mode' || name === 'print' || name === 'micro' || name === 'number') {
        // accepted, nothing to change
      } else if (name === 'count' && inline === undefined) {
        // --count prints only the number of packets: not modelled, refused honestly below
        return {
          error: { stdout: '', stderr: 'packetpath: tcpdump --count is not simulated\n', exitCode: 1 },
        };
      } else return fail(`unrecognized option '${a}'`, true);
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      rest.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const flag = a[j]!;
      if (WITH_ARG.has(flag)) {
        let value = a.slice(j + 1);
        if (value === '') {
          if (i + 1 >= args.length) return fail(`option requires an argument -- '${flag}'`, true);
          value = args[++i]!;
        }
        const r = apply(flag, value);
        if (r) return r;
        break;
      }
      if (!FLAGS.has(flag)) return fail(`invalid option -- '${flag}'`, true);
      const r = apply(flag, undefined);
      if (r) return r;
    }
  }
  o.expression = rest.join(' ');
  return { ok: o };
}

// ---- where tcpdump runs ---------------------------------------------------------------------------------

interface Namespace {
  readonly key: string;
  readonly node: string;
  readonly ifaces: readonly Iface[];
}

function namespaceOf(ctx: ToolContext, view: NetworkView): Namespace | undefined {
  if (ctx.pod) {
    const node = ctx.pod.spec?.nodeName ?? '';
    if (ctx.pod.spec?.hostNetwork) {
      const info = view.nodeByName(node);
      return info ? { key: `node/${node}`, node, ifaces: nodeInterfaces(view, info).ifaces } : undefined;
    }
    return { key: `pod/${ctx.pod.metadata.uid}`, node, ifaces: podInterfaces(view, ctx.pod) };
  }
  const info = view.nodeByName(ctx.node ?? '');
  return info
    ? { key: `node/${info.name}`, node: info.name, ifaces: nodeInterfaces(view, info).ifaces }
    : undefined;
}

function statusOf(i: Iface): string {
  if (i.linkType === 'loopback') return '[Up, Running, Loopback]';
  if (i.state === 'DOWN') return '[none]';
  return i.state === 'UP' ? '[Up, Running, Connected]' : '[Up, Running]';
}

/** `-D`: libpcap lists the running devices first, then `any`, then loopback and the rest. */
function deviceList(ns: Namespace): string {
  const up = ns.ifaces.filter((i) => i.linkType !== 'loopback' && i.state !== 'DOWN');
  const lo = ns.ifaces.filter((i) => i.linkType === 'loopback');
  const down = ns.ifaces.filter((i) => i.linkType !== 'loopback' && i.state === 'DOWN');
  const rows = [
    ...up.map((i) => `${i.name} ${statusOf(i)}`),
    'any (Pseudo-device that captures on all interfaces) [Up, Running]',
    ...lo.map((i) => `${i.name} ${statusOf(i)}`),
    ...down.map((i) => `${i.name} ${statusOf(i)}`),
    'nflog (Linux netfilter log (NFLOG) interface) [none]',
    'nfqueue (Linux netfilter queue (NFQUEUE) interface) [none]',
  ];
  return rows.map((r, i) => `${i + 1}.${r}\n`).join('');
}

function linkOf(iface: Iface | 'any'): { readonly linktype: number; readonly name: string } {
  if (iface === 'any') return { linktype: LINKTYPE_LINUX_SLL2, name: 'LINUX_SLL2 (Linux cooked v2)' };
  if (iface.linkType === 'ipip' || iface.linkType === 'none')
    return { linktype: LINKTYPE_RAW, name: 'RAW (Raw IP)' };
  return { linktype: LINKTYPE_ETHERNET, name: 'EN10MB (Ethernet)' };
}

const LINK_NAMES: Readonly<Record<number, string>> = {
  [LINKTYPE_ETHERNET]: 'EN10MB (Ethernet)',
  [LINKTYPE_LINUX_SLL2]: 'LINUX_SLL2 (Linux cooked v2)',
  [LINKTYPE_RAW]: 'RAW (Raw IP)',
};

function printOptions(o: Options, ns: Namespace | undefined): PrintOptions {
  return {
    numericPorts: o.numeric > 0,
    ether: o.ether,
    verbose: o.verbose,
    quiet: o.quiet,
    timestamps: o.timestamps === 0 ? 'default' : o.timestamps === 1 ? 'none' : 'epoch',
    hex: o.hex === 0 ? 0 : o.hex === 1 ? 1 : 2,
    hexLink: o.hex === 3,
    ascii: o.ascii,
    ...(ns ? { ifnames: new Map(ns.ifaces.map((i) => [i.index, i.name])) } : {}),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function stats(captured: number): string {
  return `${plural(captured, 'packet')} captured\n${plural(captured, 'packet')} received by filter\n0 packets dropped by kernel\n`;
}

// ---- the command ------------------------------------------------------------------------------------------

export function tcpdumpCommand(ctx: ToolContext): CommandHandler {
  return (argv, io) => {
    const parsed = parseArgs(argv.slice(1));
    if ('error' in parsed) return parsed.error;
    const o = parsed.ok;
    if (o.version) return { stdout: VERSION, stderr: '', exitCode: 0 };
    if (o.help) return { stdout: '', stderr: USAGE, exitCode: 0 };
    const view = buildView(ctx.cluster);
    const ns = namespaceOf(ctx, view);
    if (o.list) {
      if (!ns) return { stdout: '', stderr: 'tcpdump: no interfaces found\n', exitCode: 1 };
      return { stdout: deviceList(ns), stderr: '', exitCode: 0 };
    }
    try {
      compileFilter(o.expression);
    } catch (e) {
      if (e instanceof FilterError) return { stdout: '', stderr: `tcpdump: ${e.message}\n`, exitCode: 1 };
      throw e;
    }
    if (o.read !== undefined) return readFile(o, io, ns);
    if (!ns) return { stdout: '', stderr: 'tcpdump: no suitable device found\n', exitCode: 1 };
    return live(ctx, o, io, ns, view, argv);
  };
}

function readFile(o: Options, io: CommandIO, ns: Namespace | undefined): CommandResult {
  const file = o.read ?? '';
  const r = io.files?.read(file);
  if (!r || 'error' in r)
    return { stdout: '', stderr: `tcpdump: ${file}: No such file or directory\n`, exitCode: 1 };
  const pcap = readPcap(fromBinaryString(r.content));
  if ('error' in pcap) return { stdout: '', stderr: 'tcpdump: unknown file format\n', exitCode: 1 };
  const filter = compileFilter(o.expression);
  // No expression keeps every packet: nothing to decode before printing.
  const matching = o.expression.trim()
    ? pcap.records.filter((rec) => filter(decodeFrame(pcap.linktype, rec.data)))
    : pcap.records;
  const kept = matching.slice(0, o.count);
  let stderr = `reading from file ${file}, link-type ${LINK_NAMES[pcap.linktype] ?? `${pcap.linktype}`}, snapshot length ${pcap.snaplen}\n`;
  if (pcap.linktype === LINKTYPE_LINUX_SLL2) stderr += 'Warning: interface names might be incorrect\n';
  if (o.write !== undefined) {
    const error = io.files?.write(o.write, toBinaryString(writePcap({ ...pcap, records: kept })));
    if (error)
      return { stdout: '', stderr: `${stderr}tcpdump: ${o.write}: Permission denied\n`, exitCode: 1 };
    return { stdout: '', stderr, exitCode: 0 };
  }
  const printer = new Printer(printOptions(o, ns));
  const stdout = kept
    .map((rec) => `${printer.print(rec.data, pcap.linktype, rec.seconds * 1000, rec.micros)}\n`)
    .join('');
  return { stdout, stderr, exitCode: 0 };
}

function live(
  ctx: ToolContext,
  o: Options,
  io: CommandIO,
  ns: Namespace,
  view: NetworkView,
  argv: readonly string[],
): CommandResult {
  const name =
    o.iface ?? ns.ifaces.find((i) => i.linkType !== 'loopback' && i.state !== 'DOWN')?.name ?? 'lo';
  const iface = name === 'any' ? 'any' : ns.ifaces.find((i) => i.name === name);
  if (!iface)
    return {
      stdout: '',
      stderr: `tcpdump: ${name}: No such device exists\n(SIOCGIFHWADDR: No such device)\n`,
      exitCode: 1,
    };
  const link = linkOf(iface);
  const header =
    (o.verbose === 0 && o.write === undefined
      ? 'tcpdump: verbose output suppressed, use -v[v]... for full protocol decode\n'
      : 'tcpdump: ') + `listening on ${name}, link-type ${link.name}, snapshot length ${o.snaplen} bytes\n`;
  const id = nextCaptureId(ctx.cluster, ns.node, `${ns.key}#${view.now}`);
  startCapture(ctx.cluster, ns.node, {
    id,
    netns: ns.key,
    iface: name,
    linktype: link.linktype,
    snaplen: o.snaplen,
    filter: o.expression,
    ...(o.count !== undefined ? { count: o.count } : {}),
    direction: o.direction,
    startedAt: view.now,
    ifnames: Object.fromEntries(ns.ifaces.map((i) => [String(i.index), i.name])),
  });
  // Lines already shown by `poll` (a capture that lasts across prompt lines prints as packets come).
  let shown = 0;
  const finish = (): ExecResult => {
    const c = stopCapture(ctx.cluster, ns.node, id);
    return c ? report(c, o, io, ns, shown) : { stdout: '', stderr: stats(0), exitCode: 0 };
  };
  const poll = () => {
    const c = getCapture(ctx.cluster, ns.node, id);
    if (!c) return { output: { stdout: '', stderr: '', exitCode: 0 }, done: true };
    const done = c.endedAt !== undefined;
    if (o.write !== undefined) return { output: { stdout: '', stderr: '', exitCode: 0 }, done };
    const frames = sortedFrames(c);
    const printer = new Printer(printOptions(o, ns));
    const linktype = c.iface === 'any' ? LINKTYPE_LINUX_SLL2 : c.linktype;
    const stdout = frames
      .slice(shown)
      .map((f) => `${printer.print(frameBytes(f), linktype, f.ms, f.us)}\n`)
      .join('');
    shown = frames.length;
    return { output: { stdout, stderr: '', exitCode: 0 }, done };
  };
  if (io.background)
    return { stdout: '', stderr: header, exitCode: 0, job: { command: argv.join(' '), finish, poll } };
  const end = finish();
  return {
    stdout: end.stdout,
    stderr:
      header +
      'packetpath: no traffic flows while tcpdump holds the terminal (one command runs at a time); start it in the ' +
      `background, then make the traffic: tcpdump -i ${name} -nn ${o.expression ? `'${o.expression}' ` : ''}& curl …; wait\n` +
      end.stderr,
    exitCode: 0,
  };
}

function sortedFrames(c: CaptureState): CaptureState['frames'] {
  return [...c.frames].sort((a, b) => a.ms - b.ms || a.us - b.us);
}

/** What tcpdump leaves when it ends: the file, or the lines not yet shown; then its counts. */
function report(c: CaptureState, o: Options, io: CommandIO, ns: Namespace, shown = 0): ExecResult {
  const linktype = c.iface === 'any' ? LINKTYPE_LINUX_SLL2 : c.linktype;
  const frames = sortedFrames(c);
  if (o.write !== undefined) {
    const records: PcapRecord[] = frames.map((f) => ({
      seconds: Math.floor(f.ms / 1000),
      micros: f.us,
      data: frameBytes(f),
      originalLength: f.length,
    }));
    const error = io.files?.write(
      o.write,
      toBinaryString(writePcap({ linktype, snaplen: c.snaplen, records })),
    );
    if (error) return { stdout: '', stderr: `tcpdump: ${o.write}: Permission denied\n`, exitCode: 1 };
    return { stdout: '', stderr: stats(frames.length), exitCode: 0 };
  }
  const printer = new Printer(printOptions(o, ns));
  const stdout = frames
    .slice(shown)
    .map((f) => `${printer.print(frameBytes(f), linktype, f.ms, f.us)}\n`)
    .join('');
  return { stdout, stderr: stats(frames.length), exitCode: 0 };
}
