/**
 * `curl` in a pod, on a node or on the learner's machine. Every invocation is a new connection from a
 * new ephemeral port (see network/connect.ts). Errors are curl's own (`curl: (N) …`, lib/*.c at the
 * version the image ships):
 *
 * - 6  `Could not resolve host: NAME`; 28 `Resolving timed out after N milliseconds` when -m ends first;
 * - 7  `Failed to connect to HOST port P after N ms: Couldn't connect to server` (RST, ICMP unreachable);
 * - 28 `Connection timed out after N milliseconds` (-m / --connect-timeout during connect); without a
 *      limit a dropped SYN ends when the kernel gives up (tcp_syn_retries 6 ≈ 130 s): `Failed to connect
 *      … after 130… ms` with exit 28 (SOCKETIMEDOUT);
 * - 28 `Operation timed out after N milliseconds with 0 bytes received` (connected, no answer: an MTU
 *      black hole, a silent server); without -m the MTU black hole ends when the server's TCP gives up
 *      (tcp_retries2 15 ≈ 924.6 s) and resets: 56 `Recv failure: Connection reset by peer`;
 * - 52 `Empty reply from server`; 22 with -f on a status ≥ 400; 35 TLS to a plain HTTP port;
 *   60 an unverifiable certificate without -k.
 * A server that never answers and no -m: curl would wait forever; here it stops after
 * MAX_SILENT_WAIT_S of simulated time with a `packetpath:` note.
 */
import { Transcript, type CommandHandler, type CommandIO, type CommandResult } from '../../shell/types.ts';
import { connect } from '../network/connect.ts';
import type { AppResponse, ConnectResult } from '../network/types.ts';
import {
  curlBody,
  parseCurlArgs,
  parseUrl,
  type CurlBody,
  type CurlOptions,
  type ParsedUrl,
} from '../network/curl-args.ts';
import {
  curlVersion,
  progressEnd,
  progressStart,
  verboseConnected,
  verboseLeftIntact,
  verboseRequestSent,
  verboseResolved,
  verboseTrying,
  type CurlVersion,
  type VerboseInput,
} from './curl-output.ts';
import { wait, type ToolContext } from './tool-context.ts';

/** Linux gives up a SYN after tcp_syn_retries=6 retransmissions (1+2+…+64 s, plus the last RTO). */
export const SYN_GIVE_UP_MS = 130_039;
/** The server's data retransmissions end after tcp_retries2=15 (≈ 924.6 s). */
export const DATA_GIVE_UP_MS = 924_600;
export const MAX_SILENT_WAIT_S = 3600;

/** curl's version per image: Debian bookworm's in nginx, Alpine's in netshoot, the image's own in curlimages. */
export function curlVersionFor(ctx: ToolContext): string {
  const repo = ctx.profile?.repository ?? '';
  if (repo.endsWith('/curlimages/curl')) return ctx.imageVersion ?? '8.17.0';
  if (repo.endsWith('/netshoot')) return '8.14.1';
  if (repo.endsWith('library/nginx') || ctx.profile?.libc === 'glibc') return '7.88.1';
  if (ctx.source.kind === 'external') return '8.5.0';
  if (ctx.source.kind === 'node') return '7.88.1';
  return '8.14.1';
}

const CONNECT_MS = 2;

interface Outcome {
  stdout: string;
  stderr: string;
  code: number;
  httpCode: number;
  elapsedMs: number;
  result?: ConnectResult;
  response?: AppResponse;
  url: ParsedUrl;
  /** The `curl: (N) …` text of a failure. */
  message?: string;
  /** -v's stderr once the body is out (`* Connection #0 … left intact`): a terminal shows it after the body. */
  trailer?: string;
}

function writeOut(fmt: string, o: Outcome): string {
  const r = o.result;
  const vars: Record<string, string> = {
    http_code: String(o.httpCode).padStart(3, '0'),
    response_code: String(o.httpCode).padStart(3, '0'),
    remote_ip: r?.remote?.ip ?? '',
    remote_port: r?.remote?.port !== undefined ? String(r.remote.port) : '',
    local_ip: r?.local.ip ?? '',
    local_port: r?.local.port !== undefined ? String(r.local.port) : '',
    time_total: (o.elapsedMs / 1000).toFixed(6),
    time_connect: (o.code === 0 ? CONNECT_MS / 1000 : 0).toFixed(6),
    size_download: String(o.response?.body.length ?? 0),
    url_effective: o.url.text,
    url: o.url.text,
    exitcode: String(o.code),
    num_connects: o.code === 0 || o.code === 22 ? '1' : '0',
    content_type: o.response?.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '',
    scheme: o.url.scheme.toUpperCase(),
  };
  return fmt
    .replace(/%\{(\w+)\}/g, (_, k: string) => vars[k] ?? '')
    .replace(/\\n/g, '\n')
    .replace(/\\t/g, '\t')
    .replace(/\\r/g, '\r');
}

function statusLine(r: AppResponse): string {
  return `HTTP/${r.version ?? '1.1'} ${r.status ?? 200} ${r.reason ?? ''}`.trimEnd();
}

function headerBlock(r: AppResponse): string {
  return `${statusLine(r)}\r\n${r.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

function runOne(
  ctx: ToolContext,
  opts: CurlOptions,
  url: ParsedUrl,
  io: CommandIO,
  version: CurlVersion,
  body: CurlBody,
): Outcome {
  const method = body.method;
  const headers: [string, string][] = [
    ['Host', url.hostHeader],
    ['User-Agent', opts.userAgent ?? `curl/${version.text}`],
    ['Accept', '*/*'],
  ];
  for (const [k, v] of opts.headers) {
    const i = headers.findIndex(([h]) => h.toLowerCase() === k.toLowerCase());
    if (i >= 0) headers.splice(i, 1, [k, v]);
    else headers.push([k, v]);
  }
  for (const h of body.headers)
    if (!headers.some(([k]) => k.toLowerCase() === h[0].toLowerCase())) headers.push([h[0], h[1]]);
  const result = connect(
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
          headers,
          ...(body.body !== undefined ? { body: body.body } : {}),
          scheme: url.scheme,
          // curl sends SNI only for a host name, never for an IP literal (lib/vtls/vtls.c).
          ...(/^[\d.]+$|:/.test(url.host) ? {} : { sni: url.host }),
        },
      },
    },
    ctx.cluster,
    ctx.cluster.rng,
  );
  const limit = opts.maxTime !== undefined ? opts.maxTime * 1000 : undefined;
  const connectLimit = [limit, opts.connectTimeout !== undefined ? opts.connectTimeout * 1000 : undefined]
    .filter((x): x is number => x !== undefined && x > 0)
    .reduce<number | undefined>((a, b) => (a === undefined ? b : Math.min(a, b)), undefined);
  const v: VerboseInput = {
    version,
    host: url.host,
    port: url.port,
    ip: result.remote?.ip ?? '',
    resolved: result.dns !== undefined,
    localIP: result.local.ip,
    localPort: result.local.port,
  };
  let err = '';
  const base = { url, result, httpCode: 0 };
  const failWith = (code: number, message: string, elapsedMs: number): Outcome => ({
    ...base,
    stdout: '',
    stderr: err,
    code,
    elapsedMs,
    ...(message ? { message } : {}),
  });

  if (result.outcome === 'dns-failure') {
    const spent = result.dns?.elapsedMs ?? 0;
    if (limit !== undefined && spent > limit)
      return failWith(28, `Resolving timed out after ${Math.round(limit)} milliseconds`, limit);
    return failWith(6, `Could not resolve host: ${url.host}`, spent);
  }
  if (opts.verbose) err += verboseResolved(v) + verboseTrying(v);
  if (result.outcome === 'refused' || result.outcome === 'unreachable') {
    const ms = result.outcome === 'unreachable' ? result.elapsedMs + 65 : 1;
    if (connectLimit !== undefined && ms > connectLimit)
      return failWith(
        28,
        `Connection timed out after ${Math.round(connectLimit) + 1} milliseconds`,
        connectLimit,
      );
    return failWith(
      7,
      `Failed to connect to ${url.host} port ${url.port} after ${ms} ms: Couldn't connect to server`,
      ms,
    );
  }
  if (result.outcome === 'timeout') {
    if (connectLimit !== undefined && connectLimit < SYN_GIVE_UP_MS)
      return failWith(
        28,
        `Connection timed out after ${Math.round(connectLimit) + 1} milliseconds`,
        connectLimit + 1,
      );
    return failWith(
      28,
      `Failed to connect to ${url.host} port ${url.port} after ${SYN_GIVE_UP_MS} ms: Couldn't connect to server`,
      SYN_GIVE_UP_MS,
    );
  }
  // Connected.
  if (opts.verbose) err += verboseConnected(v);
  if (url.scheme === 'https') {
    const tls =
      result.tls !== undefined || (result.backend?.process !== undefined ? isTlsListener(result) : true);
    if (!tls)
      return failWith(35, 'TLS connect error: error:0A00010B:SSL routines::wrong version number', CONNECT_MS);
    if (result.tls) {
      // OpenSSL 3's X509_verify_cert_error_string: 18 for a self-signed leaf, 20 for an unknown issuer.
      const selfSigned = result.tls.subject === result.tls.issuer;
      const verify = selfSigned ? 'self-signed certificate' : 'unable to get local issuer certificate';
      if (opts.verbose)
        err += `* Server certificate:\n*  subject: ${result.tls.subject}\n*  issuer: ${result.tls.issuer}\n`;
      if (!opts.insecure)
        return failWith(
          60,
          `SSL certificate problem: ${verify}\nMore details here: https://curl.se/docs/sslcerts.html\n\ncurl failed to verify the legitimacy of the server and therefore could not\nestablish a secure connection to it. To learn more about this situation and\nhow to fix it, please visit the webpage mentioned above.`,
          CONNECT_MS,
        );
      if (opts.verbose)
        err += `*  SSL certificate verify result: ${verify} (${selfSigned ? 18 : 20}), continuing anyway.\n`;
    } else if (result.backend?.host === undefined && !opts.insecure)
      return failWith(
        60,
        'SSL certificate problem: unable to get local issuer certificate\nMore details here: https://curl.se/docs/sslcerts.html\n\ncurl failed to verify the legitimacy of the server and therefore could not\nestablish a secure connection to it. To learn more about this situation and\nhow to fix it, please visit the webpage mentioned above.',
        CONNECT_MS,
      );
  }
  if (opts.verbose) {
    err +=
      headers
        .map(([k, val]) => `> ${k}: ${val}\n`)
        .join('')
        .replace(/^/, `> ${method} ${url.path} HTTP/1.1\n`) + '> \n';
    err += verboseRequestSent(version);
  }
  if (result.stalled || !result.response) {
    if (result.response === undefined && !result.stalled)
      return failWith(52, 'Empty reply from server', CONNECT_MS);
    if (limit !== undefined)
      return failWith(
        28,
        `Operation timed out after ${Math.round(limit) + 1} milliseconds with 0 bytes received`,
        limit + 1,
      );
    if (result.hops.some((h) => h.kind === 'mtu' && h.stalled))
      return failWith(56, 'Recv failure: Connection reset by peer', DATA_GIVE_UP_MS);
    return {
      ...failWith(28, '', MAX_SILENT_WAIT_S * 1000),
      stderr:
        err +
        `packetpath: curl stopped after ${MAX_SILENT_WAIT_S} seconds of simulated time: the server accepted the connection and never answered (a real curl keeps waiting; use -m)\n`,
    };
  }
  const response = tlsAnswer(result, url, opts) ?? result.response;
  if (response.empty) return failWith(52, 'Empty reply from server', CONNECT_MS);
  if (opts.verbose) {
    err += `< ${statusLine(response)}\n${response.headers.map(([k, val]) => `< ${k}: ${val}\n`).join('')}< \n`;
    if (!io.tty || opts.output !== undefined)
      if (response.body.length > 0) err += `{ [${response.body.length} bytes data]\n`;
  }
  const status = response.status ?? 200;
  if (opts.fail && status >= 400) {
    return {
      ...failWith(22, `The requested URL returned error: ${status}`, CONNECT_MS),
      httpCode: status,
      response,
    };
  }
  let stdout = '';
  if (opts.head) stdout = headerBlock(response);
  else stdout = (opts.include ? headerBlock(response) : '') + response.body;
  return {
    ...base,
    stdout,
    stderr: err,
    ...(opts.verbose ? { trailer: verboseLeftIntact(v) } : {}),
    code: 0,
    httpCode: status,
    elapsedMs: CONNECT_MS + 1,
    response,
  };
}

function isTlsListener(r: ConnectResult): boolean {
  const p = r.backend?.process ?? '';
  return (
    ['kube-apiserver', 'kubelet', 'k3s-server', 'etcd', 'metrics-server', 'traefik'].includes(p) &&
    r.backend?.port !== 8000
  );
}

/** Behind TLS: the API server answers an anonymous request with a 403 Status. */
function tlsAnswer(r: ConnectResult, url: ParsedUrl, opts: CurlOptions): AppResponse | undefined {
  if (url.scheme !== 'https' || !opts.insecure || r.backend?.host !== undefined || r.tls) return undefined;
  const process = r.backend?.process ?? '';
  if (process === 'kube-apiserver' || process === 'k3s-server') {
    const body = `{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "forbidden: User \\"system:anonymous\\" cannot get path \\"${url.path}\\"",\n  "reason": "Forbidden",\n  "details": {},\n  "code": 403\n}`;
    return {
      status: 403,
      reason: 'Forbidden',
      version: '1.1',
      headers: [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(body.length)],
      ],
      body,
    };
  }
  return {
    status: 404,
    reason: 'Not Found',
    headers: [
      ['Content-Type', 'text/plain; charset=utf-8'],
      ['Content-Length', '19'],
    ],
    body: '404 page not found\n',
  };
}

export function curlCommand(ctx: ToolContext): CommandHandler {
  return (argv, io): CommandResult => {
    const parsed = parseCurlArgs(argv.slice(1));
    if (!parsed.ok) return { stdout: '', stderr: parsed.error, exitCode: parsed.code };
    const opts = parsed.opts;
    if (opts.urls.length === 0)
      return {
        stdout: '',
        stderr: "curl: try 'curl --help' or 'curl --manual' for more information\n",
        exitCode: 2,
      };
    const version = curlVersion(curlVersionFor(ctx));
    // Both streams in write order: on a terminal -v's request and response headers come before the body.
    const log = new Transcript();
    const out = (text: string) => log.write('stdout', text);
    const err = (text: string) => log.write('stderr', text);
    let exitCode = 0;
    for (const raw of opts.urls) {
      const url = parseUrl(raw);
      if ('error' in url) {
        if (!opts.silent || opts.showError) err(`curl: (${url.code}) ${url.error}\n`);
        exitCode = url.code;
        continue;
      }
      // -d @FILE and -T FILE read where curl runs: the container's files in a pod.
      const body = curlBody(opts, url.path, (file) => {
        const r = io.files?.read(file);
        return r && 'content' in r ? r.content : undefined;
      });
      if ('error' in body) {
        if (!opts.silent || opts.showError) err(body.error);
        exitCode = body.code;
        continue;
      }
      if (!opts.silent) err(body.warnings.join(''));
      const o = runOne(ctx, opts, { ...url, path: body.path }, io, version, body);
      wait(ctx, o.elapsedMs);
      const toFile = opts.output !== undefined;
      const meter = !opts.silent && (toFile || !io.tty);
      if (meter) err(progressStart());
      err(o.stderr);
      if (!toFile || opts.output === '-') out(o.stdout);
      if (o.trailer) err(o.trailer);
      if (meter) {
        const total = o.response ? o.response.body.length : 0;
        err(progressEnd(total, o.code === 0 ? total : 0, o.elapsedMs, o.code === 0));
      }
      if (o.code !== 0 && o.message && (!opts.silent || opts.showError))
        err(`curl: (${o.code}) ${o.message}\n`);
      if (toFile && opts.output !== '/dev/null' && opts.output !== '-') {
        const error = io.files?.write(opts.output!, o.stdout);
        if (error) {
          err(`curl: (23) Failure writing output to destination\n`);
          exitCode = 23;
          continue;
        }
      }
      if (opts.writeOut !== undefined) out(writeOut(opts.writeOut, o));
      if (o.code !== 0) exitCode = o.code;
    }
    return { ...log.streams(), exitCode };
  };
}
