/**
 * A tiny static file server for dist/, close to what a static host does: `/dir/` serves
 * `dir/index.html`, `/dir` redirects to `/dir/`, unknown paths get dist/404.html with status 404.
 * `serveWithHeaders` also applies dist/_headers (public/_headers plus the Content-Security-Policy the
 * build appends, see src/runtime/headers/csp.mjs), as Netlify/Cloudflare do; the lab tests use it to
 * check that only lab pages are cross-origin isolated and that the lab works under the CSP.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { headersFor, loadHeadersFile } from '../../src/runtime/headers/headers-file.mjs';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

type Served = { url: string; close: () => Promise<void> };

export function serveStatic(root: string): Promise<Served> {
  return serve(root, () => ({}));
}

export function serveWithHeaders(root: string): Promise<Served> {
  const rules = loadHeadersFile(join(root, '_headers'));
  return serve(root, (pathname) => headersFor(rules, pathname));
}

async function serve(
  root: string,
  extraHeaders: (pathname: string) => Record<string, string>,
): Promise<Served> {
  const server: Server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, pathname));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    let target = file;
    if (existsSync(target) && statSync(target).isDirectory()) {
      if (!pathname.endsWith('/')) {
        res.writeHead(301, { location: pathname + '/' }).end();
        return;
      }
      target = join(target, 'index.html');
    }
    const found = existsSync(target) && statSync(target).isFile();
    if (!found) target = join(root, '404.html');
    res.writeHead(found ? 200 : 404, {
      'content-type': types[extname(target)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...extraHeaders(pathname),
    });
    createReadStream(target).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
