/**
 * What answers on a listening socket, as plain data the dataplane can act on (a packet reaching a pod
 * port is handed to its responder). `httpResponse` gives the body and status each program really
 * returns: nginx's welcome page and its 404, httpd's "It works!", http-echo's text, agnhost netexec's
 * `/hostname`, `/clientip` and `/echo?msg=`.
 */

export type Responder =
  | { readonly kind: 'nginx'; readonly version: string }
  | { readonly kind: 'httpd'; readonly version: string }
  | { readonly kind: 'http-echo'; readonly text: string; readonly status: number }
  | { readonly kind: 'agnhost-netexec' }
  | { readonly kind: 'serve-hostname' }
  | { readonly kind: 'whoami' }
  | { readonly kind: 'hello-app'; readonly version: string }
  | { readonly kind: 'busybox-httpd' }
  | { readonly kind: 'netcat' }
  | { readonly kind: 'dns' }
  | { readonly kind: 'health'; readonly body: string }
  | { readonly kind: 'metrics' }
  | { readonly kind: 'tls' }
  | { readonly kind: 'generic-http' };

export interface HttpRequest {
  readonly method: string;
  /** Path with query string, e.g. `/echo?msg=hi`. */
  readonly path: string;
  /** The pod's own host name (its name). */
  readonly hostname: string;
  /** Source address and port as the server sees them (after any SNAT). */
  readonly clientIP: string;
  readonly clientPort: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly localIP?: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** The `Server:` header the program sends, when it sends one. */
  readonly server?: string;
}

export const NGINX_WELCOME = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

/** The HTTP answer of a responder, or undefined when it does not speak HTTP (netcat, DNS, TLS). */
export function httpResponse(responder: Responder, req: HttpRequest): HttpResponse | undefined {
  const [path = '/', query = ''] = req.path.split('?');
  const text = (status: number, body: string, server?: string): HttpResponse => ({
    status,
    contentType: 'text/plain; charset=utf-8',
    body,
    ...(server ? { server } : {}),
  });
  switch (responder.kind) {
    case 'nginx': {
      const server = `nginx/${responder.version}`;
      if (path === '/' || path === '/index.html')
        return { status: 200, contentType: 'text/html', body: NGINX_WELCOME, server };
      return { status: 404, contentType: 'text/html', body: nginxError(404, 'Not Found', server), server };
    }
    case 'httpd': {
      const server = `Apache/${responder.version} (Unix)`;
      if (path === '/' || path === '/index.html') {
        return {
          status: 200,
          contentType: 'text/html',
          body: '<html><body><h1>It works!</h1></body></html>\n',
          server,
        };
      }
      const body = `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n`;
      return { status: 404, contentType: 'text/html; charset=iso-8859-1', body, server };
    }
    case 'http-echo':
      return text(responder.status, `${responder.text}\n`);
    case 'agnhost-netexec':
      return agnhostNetexec(path, query, req);
    case 'serve-hostname':
      return text(200, req.hostname);
    case 'whoami':
      return text(
        200,
        [
          `Hostname: ${req.hostname}`,
          `IP: 127.0.0.1`,
          `IP: ${req.localIP ?? ''}`,
          `RemoteAddr: ${req.clientIP}:${req.clientPort}`,
          `${req.method} ${req.path} HTTP/1.1`,
        ]
          .concat(Object.entries(req.headers ?? {}).map(([k, v]) => `${k}: ${v}`))
          .join('\n') + '\n',
      );
    case 'hello-app':
      return text(200, `Hello, world!\nVersion: ${responder.version}.0\nHostname: ${req.hostname}\n`);
    case 'busybox-httpd':
      return {
        status: 404,
        contentType: 'text/html',
        body: '<HTML><HEAD><TITLE>404 Not Found</TITLE></HEAD>\n<BODY><H1>404 Not Found</H1>\nThe requested URL was not found\n</BODY></HTML>\n',
      };
    case 'health':
      return text(200, responder.body);
    case 'metrics':
      return text(
        200,
        '# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n',
      );
    case 'generic-http':
      return text(200, 'OK\n');
    case 'netcat':
    case 'dns':
    case 'tls':
      return undefined;
  }
}

function nginxError(code: number, reason: string, server: string): string {
  return `<html>\r\n<head><title>${code} ${reason}</title></head>\r\n<body>\r\n<center><h1>${code} ${reason}</h1></center>\r\n<hr><center>${server}</center>\r\n</body>\r\n</html>\r\n`;
}

function agnhostNetexec(path: string, query: string, req: HttpRequest): HttpResponse {
  const ok = (body: string): HttpResponse => ({
    status: 200,
    contentType: 'text/plain; charset=utf-8',
    body,
  });
  const params = new Map(
    query
      .split('&')
      .filter(Boolean)
      .map((kv) => {
        const eq = kv.indexOf('=');
        return [
          decodeURIComponent(eq < 0 ? kv : kv.slice(0, eq)),
          decodeURIComponent(eq < 0 ? '' : kv.slice(eq + 1)),
        ] as const;
      }),
  );
  switch (path) {
    case '/':
    case '/hostname':
      return ok(req.hostname);
    case '/clientip':
      return ok(`${req.clientIP}:${req.clientPort}`);
    case '/echo':
      return ok(params.get('msg') ?? '');
    case '/healthz':
    case '/readyz':
      return ok('');
    case '/exit':
      return ok('');
    default:
      return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
  }
}
