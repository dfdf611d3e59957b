/**
 * `nc` in two flavours:
 *
 * - BusyBox (nc_bloaty with -z/-v/-w/-u/-l): `-zv` prints `HOST (IP:PORT) open` on stderr, failures
 *   `nc: HOST (IP:PORT): Connection refused`, a bad name `nc: bad address 'x'`, a -w expiry
 *   `nc: timeout`.
 * - OpenBSD netcat (netshoot): `Connection to HOST (IP) PORT port [tcp/SERVICE] succeeded!`,
 *   `nc: connect to HOST (IP) port P (tcp) failed: Connection refused`, a -w expiry
 *   `nc: connect to HOST (IP) port P (tcp) timed out: Operation now in progress`.
 *
 * Without -z, what comes in on stdin is sent; an HTTP request gets the server's raw answer back.
 * UDP has no handshake: `-zu` reports success unless the port answers ICMP unreachable.
 * `nc -l` in an exec would wait for a peer forever; run it as a container's command instead.
 */
import type { CommandHandler } from '../../shell/types.ts';
import { connect } from '../network/connect.ts';
import { SYN_GIVE_UP_MS } from './curl.ts';
import { strerror } from './wget.ts';
import { wait, type ToolContext } from './tool-context.ts';

const SERVICES: Record<number, string> = {
  22: 'ssh',
  53: 'domain',
  80: 'http',
  443: 'https',
  6443: 'sun-sr-https',
  8080: 'http-alt',
};

function openbsd(ctx: ToolContext): boolean {
  return (ctx.profile?.repository ?? '').endsWith('/netshoot') || ctx.source.kind !== 'pod';
}

function parseHttp(stdin: string): { method: string; path: string; host?: string } | undefined {
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(stdin);
  if (!m) return undefined;
  const host = /\r?\nHost:\s*([^\r\n]+)/i.exec(stdin)?.[1];
  return { method: m[1]!, path: m[2]!, ...(host ? { host } : {}) };
}

export function ncCommand(ctx: ToolContext): CommandHandler {
  return (argv, io) => {
    let zero = false;
    let verbose = false;
    let udp = false;
    let listen = false;
    let waitS: number | undefined;
    const rest: string[] = [];
    const args = argv.slice(1);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a.startsWith('-') && a.length > 1) {
        for (let j = 1; j < a.length; j++) {
          const c = a[j]!;
          if (c === 'z') zero = true;
          else if (c === 'v') verbose = true;
          else if (c === 'u') udp = true;
          else if (c === 'l') listen = true;
          else if (c === 'n' || c === 'N' || c === 'k') continue;
          else if (c === 'w' || c === 'p' || c === 'W' || c === 'q') {
            const v = a.slice(j + 1) || args[++i];
            if (c === 'w') waitS = Number(v) || 0;
            if (c === 'p' && v !== undefined) rest.push(v);
            break;
          } else return { stdout: '', stderr: `nc: invalid option -- '${c}'\n`, exitCode: 1 };
        }
      } else rest.push(a);
    }
    if (listen)
      return {
        stdout: '',
        stderr:
          'packetpath: nc -l would wait here for a peer; start it as the container\'s command (args: ["nc","-lk","-p","8080"]) and connect to it from another pod\n',
        exitCode: 1,
      };
    const [host, portText] = rest;
    if (!host || !portText)
      return {
        stdout: '',
        stderr: openbsd(ctx)
          ? 'usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-M ttl]\n\t  [-m minttl] [-O length] [-P proxy_username] [-p source_port]\n\t  [-q seconds] [-s sourceaddr] [-T keyword] [-V rtable] [-W recvlimit]\n\t  [-w timeout] [-X proxy_protocol] [-x proxy_address[:port]]\n\t  [destination] [port]\n'
          : 'BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: nc [OPTIONS] HOST PORT  - connect\nnc [OPTIONS] -l -p PORT [HOST] [PORT]  - listen\n',
        exitCode: 1,
      };
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return {
        stdout: '',
        stderr: openbsd(ctx) ? `nc: port number invalid: ${portText}\n` : `nc: invalid port '${portText}'\n`,
        exitCode: 1,
      };
    const http = !zero && !udp ? parseHttp(io.stdin) : undefined;
    const r = connect(
      {
        from: ctx.source,
        to: host,
        port,
        protocol: udp ? 'UDP' : 'TCP',
        ...(http
          ? {
              payload: {
                http: {
                  method: http.method,
                  path: http.path,
                  host: http.host ?? host,
                  headers: [['Host', http.host ?? host]],
                },
              },
            }
          : io.stdin
            ? { payload: { bytes: io.stdin.length } }
            : {}),
      },
      ctx.cluster,
      ctx.cluster.rng,
    );
    const bsd = openbsd(ctx);
    const ip = r.remote?.ip ?? '';
    const proto = udp ? 'udp' : 'tcp';
    if (r.outcome === 'dns-failure') {
      wait(ctx, r.dns?.elapsedMs ?? 0);
      const msg = ctx.profile?.libc === 'musl' ? 'Name does not resolve' : 'Name or service not known';
      return {
        stdout: '',
        stderr: bsd
          ? `nc: getaddrinfo for host "${host}" port ${port}: ${msg}\n`
          : `nc: bad address '${host}'\n`,
        exitCode: 1,
      };
    }
    const where = bsd ? `connect to ${host} (${ip}) port ${port} (${proto})` : `${host} (${ip}:${port})`;
    if (r.outcome === 'timeout' && !udp) {
      const limit = waitS !== undefined && waitS > 0 ? waitS * 1000 : SYN_GIVE_UP_MS;
      wait(ctx, Math.min(limit, SYN_GIVE_UP_MS));
      if (limit < SYN_GIVE_UP_MS)
        return {
          stdout: '',
          stderr: bsd ? `nc: ${where} timed out: Operation now in progress\n` : 'nc: timeout\n',
          exitCode: 1,
        };
      return {
        stdout: '',
        stderr: `nc: ${bsd ? `${where} failed` : where}: ${strerror(ctx, 'ETIMEDOUT')}\n`,
        exitCode: 1,
      };
    }
    if (r.outcome === 'refused' || r.outcome === 'unreachable') {
      wait(ctx, r.elapsedMs);
      const e = strerror(ctx, r.outcome === 'refused' ? 'ECONNREFUSED' : 'EHOSTUNREACH');
      if (udp && !verbose) return { stdout: '', stderr: '', exitCode: 1 };
      return { stdout: '', stderr: `nc: ${bsd ? `${where} failed` : where}: ${e}\n`, exitCode: 1 };
    }
    let stderr = '';
    if (verbose || (zero && bsd)) {
      if (bsd)
        stderr += `Connection to ${host} (${ip}) ${port} port [${proto}/${SERVICES[port] ?? '*'}] succeeded!\n`;
      else stderr += `${host} (${ip}:${port}) open\n`;
    }
    if (zero || udp) return { stdout: '', stderr, exitCode: 0 };
    const resp = r.response;
    if (!resp || r.stalled) {
      if (waitS !== undefined) wait(ctx, waitS * 1000);
      return { stdout: '', stderr, exitCode: 0 };
    }
    const head =
      resp.status !== undefined
        ? `HTTP/${resp.version ?? '1.1'} ${resp.status} ${resp.reason ?? ''}\r\n${resp.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`
        : '';
    return { stdout: head + resp.body, stderr, exitCode: 0 };
  };
}
