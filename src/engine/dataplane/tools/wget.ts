/**
 * BusyBox `wget` (networking/wget.c, 1.36/1.37): `-q`, `-O FILE` (`-O-` stdout), `-T SEC`,
 * `--spider`, `-S`. Messages go to stderr with BusyBox's wording and exit status 1:
 * `wget: bad address 'x'`, `wget: can't connect to remote host (IP): Connection refused`,
 * `wget: download timed out`, `wget: server returned error: HTTP/1.1 404 Not Found`.
 * strerror texts follow the image's libc (glibc "No route to host", musl "Host is unreachable").
 * Without -T a dropped SYN ends when the kernel gives up (≈ 130 s): "Connection timed out".
 */
import type { CommandHandler } from '../../shell/types.ts';
import { connect } from '../network/connect.ts';
import { parseUrl } from '../network/curl-args.ts';
import { SYN_GIVE_UP_MS } from './curl.ts';
import { wait, type ToolContext } from './tool-context.ts';

const USAGE = `BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.

Usage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]
	[--post-data STR | --post-file FILE] [-Y on/off]
	[--no-check-certificate] [-P DIR] [-U AGENT] [-T SEC] URL...

Retrieve files via HTTP or FTP

	--spider	Only check URL existence: $? is 0 if exists
	--header STR	Add STR (of form 'header: value') to headers
	--post-data STR	Send STR using POST method
	--post-file FILE	Send FILE using POST method
	--no-check-certificate	Don't validate the server's certificate
	-c		Continue retrieval of aborted transfer
	-q		Quiet
	-P DIR		Save to DIR (default .)
	-S    		Show server response
	-T SEC		Network read timeout is SEC seconds
	-O FILE		Save to FILE ('-' for stdout)
	-o LOGFILE	Log messages to FILE
	-U STR		Use STR for User-Agent header
	-Y on/off	Use proxy
`;

export function strerror(ctx: ToolContext, errno: 'ECONNREFUSED' | 'ETIMEDOUT' | 'EHOSTUNREACH'): string {
  const musl = ctx.profile?.libc === 'musl';
  switch (errno) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ETIMEDOUT':
      return musl ? 'Operation timed out' : 'Connection timed out';
    case 'EHOSTUNREACH':
      return musl ? 'Host is unreachable' : 'No route to host';
  }
}

export function wgetCommand(ctx: ToolContext): CommandHandler {
  return (argv, io) => {
    let quiet = false;
    let output: string | undefined;
    let timeoutS = 900;
    let spider = false;
    let showHeaders = false;
    let postData: string | undefined;
    const headers: [string, string][] = [];
    const urls: string[] = [];
    const args = argv.slice(1);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--spider') spider = true;
      else if (a === '--header') {
        const h = args[++i] ?? '';
        const c = h.indexOf(':');
        if (c > 0) headers.push([h.slice(0, c).trim(), h.slice(c + 1).trim()]);
      } else if (a === '--post-data') postData = args[++i] ?? '';
      else if (a === '--no-check-certificate') continue;
      else if (a.startsWith('-') && a !== '-' && !a.startsWith('--')) {
        for (let j = 1; j < a.length; j++) {
          const c = a[j]!;
          if (c === 'q') quiet = true;
          else if (c === 'S') showHeaders = true;
          else if (c === 'c') continue;
          else if (c === 'O' || c === 'T' || c === 'U' || c === 'P' || c === 'o' || c === 'Y') {
            const v = a.slice(j + 1) || args[++i];
            if (v === undefined)
              return {
                stdout: '',
                stderr: `wget: option requires an argument -- '${c}'\n${USAGE}`,
                exitCode: 1,
              };
            if (c === 'O') output = v;
            if (c === 'T') timeoutS = Number(v) || 0;
            break;
          } else return { stdout: '', stderr: `wget: unrecognized option '${a}'\n${USAGE}`, exitCode: 1 };
        }
      } else if (a.startsWith('--'))
        return { stdout: '', stderr: `wget: unrecognized option '${a}'\n${USAGE}`, exitCode: 1 };
      else urls.push(a);
    }
    if (urls.length === 0) return { stdout: '', stderr: USAGE, exitCode: 1 };
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    for (const raw of urls) {
      const url = parseUrl(raw);
      if ('error' in url) {
        stderr += `wget: bad address '${raw}'\n`;
        exitCode = 1;
        continue;
      }
      const method = spider ? 'HEAD' : postData !== undefined ? 'POST' : 'GET';
      const r = connect(
        {
          from: ctx.source,
          to: url.host,
          port: url.port,
          protocol: 'TCP',
          payload: {
            http: {
              method,
              path: url.path,
              host: url.hostHeader,
              headers: [
                ['Host', url.hostHeader],
                ['User-Agent', 'Wget'],
                ['Connection', 'close'],
                ...headers,
              ],
              ...(postData !== undefined ? { body: postData } : {}),
            },
          },
        },
        ctx.cluster,
        ctx.cluster.rng,
      );
      if (r.outcome === 'dns-failure') {
        wait(ctx, r.dns?.elapsedMs ?? 0);
        stderr += `wget: bad address '${url.host}'\n`;
        exitCode = 1;
        continue;
      }
      const ip = r.remote?.ip ?? '';
      if (!quiet)
        stderr += `Connecting to ${url.hostHeader.includes(':') ? url.host : url.host} (${ip}:${url.port})\n`;
      if (r.outcome === 'refused' || r.outcome === 'unreachable' || r.outcome === 'timeout') {
        if (r.outcome === 'timeout' && timeoutS * 1000 < SYN_GIVE_UP_MS) {
          wait(ctx, timeoutS * 1000);
          stderr += 'wget: download timed out\n';
        } else {
          wait(ctx, r.outcome === 'timeout' ? SYN_GIVE_UP_MS : r.elapsedMs);
          const errno =
            r.outcome === 'refused' ? 'ECONNREFUSED' : r.outcome === 'timeout' ? 'ETIMEDOUT' : 'EHOSTUNREACH';
          stderr += `wget: can't connect to remote host (${ip}): ${strerror(ctx, errno)}\n`;
        }
        exitCode = 1;
        continue;
      }
      const resp = r.response;
      if (r.stalled || !resp || resp.empty) {
        wait(ctx, timeoutS * 1000);
        stderr += resp?.empty
          ? 'wget: error getting response: Connection reset by peer\n'
          : 'wget: download timed out\n';
        exitCode = 1;
        continue;
      }
      const status = resp.status ?? 200;
      if (showHeaders)
        stderr += `  HTTP/${resp.version ?? '1.1'} ${status} ${resp.reason ?? ''}\n${resp.headers.map(([k, v]) => `  ${k}: ${v}\n`).join('')}`;
      if (status >= 400) {
        stderr += `wget: server returned error: HTTP/${resp.version ?? '1.1'} ${status} ${resp.reason ?? ''}\n`;
        exitCode = 1;
        continue;
      }
      if (spider) {
        if (!quiet) stderr += 'remote file exists\n';
        continue;
      }
      const name = output ?? (url.path.replace(/\?.*$/, '').split('/').pop() || 'index.html');
      const size = resp.body.length;
      const bar = `${'*'.repeat(32)}`;
      if (name === '-') {
        if (!quiet)
          stderr += `writing to stdout\n-                    100% |${bar}|   ${String(size).padStart(3)}  0:00:00 ETA\nwritten to stdout\n`;
        stdout += resp.body;
      } else {
        const err = io.files?.write(name, resp.body);
        if (err) {
          stderr += `wget: can't open '${name}': ${err === 'EACCES' || err === 'EROFS' ? 'Permission denied' : 'No such file or directory'}\n`;
          exitCode = 1;
          continue;
        }
        if (!quiet)
          stderr += `saving to '${name}'\n${name.padEnd(20)} 100% |${bar}|   ${String(size).padStart(3)}  0:00:00 ETA\n'${name}' saved\n`;
      }
    }
    return { stdout, stderr, exitCode };
  };
}
