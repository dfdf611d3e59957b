/**
 * The application answer once a connection is delivered: the responder's body and status
 * (node/responders.ts) with the headers each server really sends, in its order:
 *
 * - nginx (ngx_http_header_filter_module): Server, Date, Content-Type, Content-Length, Last-Modified,
 *   Connection: keep-alive, ETag "<mtime hex>-<length hex>", Accept-Ranges.
 * - Go net/http (http-echo, agnhost, whoami, hello-app, kube-proxy): the handler's own headers sorted
 *   by key, then `extraHeader`'s Date, Content-Length and the sniffed Content-Type.
 * - Apache httpd: Date, Server, Last-Modified, ETag, Accept-Ranges, Content-Length, Content-Type.
 * - A TLS listener sent plain HTTP answers as Go's crypto/tls server does: `HTTP/1.0 400 Bad Request`
 *   and "Client sent an HTTP request to an HTTPS server.".
 */
import { httpResponse, type Responder } from '../../node/responders.ts';
import { internetHttp, type InternetHost } from '../internet.ts';
import type { ListenerResponder } from './listeners.ts';
import type { AppResponse, HttpRequestSpec } from './types.ts';
import { utf8Length } from '../../util/encoding.ts';

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? '';
}

/** RFC 7231 IMF-fixdate, as every server prints `Date:`. */
export function httpDate(ms: number): string {
  const d = new Date(ms);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${day}, ${p(d.getUTCDate())} ${mon} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} GMT`;
}

/** When nginx's default index.html was built into the image (Last-Modified and the ETag's first half). */
const NGINX_INDEX_MTIME = Date.UTC(2025, 11, 9, 18, 28, 10);
const HTTPD_INDEX_MTIME = Date.UTC(2025, 11, 4, 23, 18, 1);

export interface ExchangeContext {
  readonly request: HttpRequestSpec;
  /** The pod's (or node's) host name, for `/hostname`. */
  readonly hostname: string;
  readonly clientIP: string;
  readonly clientPort: number;
  readonly localIP: string;
  readonly now: number;
}

function goHeaders(
  own: [string, string][],
  body: string,
  contentType: string,
  now: number,
): [string, string][] {
  const sorted = [...own].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return [
    ...sorted,
    ['Date', httpDate(now)],
    ['Content-Length', String(utf8Length(body))],
    ['Content-Type', contentType],
  ];
}

function fromResponder(responder: Responder, ctx: ExchangeContext): AppResponse | undefined {
  const headers = Object.fromEntries(ctx.request.headers.map(([k, v]) => [k, v]));
  const r = httpResponse(responder, {
    method: ctx.request.method,
    path: ctx.request.path,
    hostname: ctx.hostname,
    clientIP: ctx.clientIP,
    clientPort: ctx.clientPort,
    headers: { Host: ctx.request.host, ...headers },
    localIP: ctx.localIP,
  });
  if (!r) return undefined;
  const len = String(utf8Length(r.body));
  const head = ctx.request.method === 'HEAD';
  const body = head ? '' : r.body;
  switch (responder.kind) {
    case 'nginx': {
      const ok = r.status === 200;
      const etag = `"${Math.floor(NGINX_INDEX_MTIME / 1000).toString(16)}-${r.body.length.toString(16)}"`;
      return {
        status: r.status,
        reason: reasonPhrase(r.status),
        headers: [
          ['Server', r.server ?? 'nginx'],
          ['Date', httpDate(ctx.now)],
          ['Content-Type', r.contentType],
          ['Content-Length', len],
          ...(ok ? [['Last-Modified', httpDate(NGINX_INDEX_MTIME)] as [string, string]] : []),
          ['Connection', 'keep-alive'],
          ...(ok
            ? ([
                ['ETag', etag],
                ['Accept-Ranges', 'bytes'],
              ] as [string, string][])
            : []),
        ],
        body,
      };
    }
    case 'httpd': {
      const ok = r.status === 200;
      return {
        status: r.status,
        reason: reasonPhrase(r.status),
        headers: [
          ['Date', httpDate(ctx.now)],
          ['Server', r.server ?? 'Apache'],
          ...(ok
            ? ([
                ['Last-Modified', httpDate(HTTPD_INDEX_MTIME)],
                ['ETag', `"2d-${Math.floor(HTTPD_INDEX_MTIME / 1000).toString(16)}"`],
                ['Accept-Ranges', 'bytes'],
              ] as [string, string][])
            : []),
          ['Content-Length', len],
          ['Content-Type', r.contentType],
        ],
        body,
      };
    }
    case 'busybox-httpd':
      return {
        status: r.status,
        reason: reasonPhrase(r.status),
        headers: [
          ['Content-type', r.contentType],
          ['Date', httpDate(ctx.now)],
          ['Connection', 'close'],
        ],
        body,
      };
    case 'http-echo':
      return {
        status: r.status,
        reason: reasonPhrase(r.status),
        headers: goHeaders(
          [
            ['X-App-Name', 'http-echo'],
            ['X-App-Version', '1.0.0'],
          ],
          r.body,
          r.contentType,
          ctx.now,
        ),
        body,
      };
    default:
      return {
        status: r.status,
        reason: reasonPhrase(r.status),
        headers: goHeaders([], r.body, r.contentType, ctx.now),
        body,
      };
  }
}

/** kube-proxy's health check server (`pkg/proxy/healthcheck/service_health.go` hcHandler). */
function healthCheck(
  r: Extract<ListenerResponder, { kind: 'kube-proxy-healthcheck' }>,
  now: number,
): AppResponse {
  const body = `{\n\t"service": {\n\t\t"namespace": ${JSON.stringify(r.namespace)},\n\t\t"name": ${JSON.stringify(r.name)}\n\t},\n\t"localEndpoints": ${r.localEndpoints},\n\t"serviceProxyHealthy": true\n}`;
  const status = r.localEndpoints > 0 ? 200 : 503;
  return {
    status,
    reason: reasonPhrase(status),
    headers: [
      ['Content-Type', 'application/json'],
      ['X-Content-Type-Options', 'nosniff'],
      ['Date', httpDate(now)],
      ['Content-Length', String(body.length)],
    ],
    body,
  };
}

export type Exchange =
  | { readonly kind: 'response'; readonly response: AppResponse }
  /** The server keeps the connection open and says nothing (nc -l). */
  | { readonly kind: 'silent' }
  /** The server closes without a byte. */
  | { readonly kind: 'closed' };

/** What a listener answers to an HTTP request. */
export function exchange(responder: ListenerResponder, ctx: ExchangeContext): Exchange {
  if (responder.kind === 'kube-proxy-healthcheck')
    return { kind: 'response', response: healthCheck(responder, ctx.now) };
  if (responder.kind === 'tls') {
    const body = 'Client sent an HTTP request to an HTTPS server.\n';
    return {
      kind: 'response',
      response: { status: 400, reason: 'Bad Request', version: '1.0', headers: [], body },
    };
  }
  if (responder.kind === 'netcat') return { kind: 'silent' };
  const r = fromResponder(responder, ctx);
  return r ? { kind: 'response', response: r } : { kind: 'closed' };
}

export function internetExchange(host: InternetHost, ctx: ExchangeContext): Exchange {
  const r = internetHttp(host.ip, {
    method: ctx.request.method,
    path: ctx.request.path,
    host: ctx.request.host,
    clientIp: ctx.clientIP,
    headers: Object.fromEntries(ctx.request.headers.map(([k, v]) => [k, v])),
  });
  if (!r) return { kind: 'closed' };
  const headers: [string, string][] = [
    ['Date', httpDate(ctx.now)],
    ...r.headers.map(([k, v]) => [k, v] as [string, string]),
  ];
  return {
    kind: 'response',
    response: {
      status: r.status,
      reason: r.reason || reasonPhrase(r.status),
      headers,
      body: ctx.request.method === 'HEAD' ? '' : r.body,
    },
  };
}

/** Bytes on the wire for a response (status line, headers, blank line, body). */
export function responseBytes(r: AppResponse): number {
  let n = `HTTP/1.1 ${r.status ?? 200} ${r.reason ?? ''}\r\n`.length + 2;
  for (const [k, v] of r.headers) n += k.length + v.length + 4;
  return n + utf8Length(r.body);
}

export function requestBytes(req: HttpRequestSpec): number {
  let n = `${req.method} ${req.path} HTTP/1.1\r\n`.length + 2;
  for (const [k, v] of req.headers) n += k.length + v.length + 4;
  return n + utf8Length(req.body ?? '');
}
