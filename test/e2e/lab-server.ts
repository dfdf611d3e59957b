/**
 * Serves dist/ like the static host does, `public/_headers` included (the e2e suite's shared server
 * sends no such headers). The lab tests use it to check that only lab pages are cross-origin isolated.
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
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export async function serveWithHeaders(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const rules = loadHeadersFile(join(root, '_headers'));
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
      ...headersFor(rules, pathname),
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
