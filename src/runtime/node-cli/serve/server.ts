/**
 * The HTTPS front of `packetpath serve`: TLS on 127.0.0.1 only, client-certificate or bearer-token
 * authentication (anything else is 401 Unauthorized, as kube-apiserver with anonymous auth off
 * answers), the real server's limits (3 MiB bodies → 413, a request rate → 429 with Retry-After, a
 * cap on open watches), and the watch stream: newline-delimited JSON events over a chunked response.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { timingSafeEqual } from 'node:crypto';
import type { AnyObject } from '../../../engine/index.ts';
import { handle, toTable, listObjects, type Reply, type WatchRequest } from './handler.ts';
import { HttpStatus, statusBody, tooManyRequests, toHttpStatus, unauthorized } from './status.ts';
import type { ClusterHost } from './cluster-host.ts';
import type { LoggedEvent } from './event-log.ts';
import type { Pki } from './pki.ts';
import { decodeProtobufObject, isProtobuf } from './protobuf.ts';
import { handleExecUpgrade } from './exec.ts';
import type { LogFollow } from './pod-log.ts';
import type { Duplex } from 'node:stream';

/** kube-apiserver's `MaxRequestBodyBytes`. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
export const MAX_WATCHES = 100;
/** Token bucket: this many requests per second, with twice as many in a burst. */
export const REQUESTS_PER_SECOND = 200;
/** How often a waiting watch lets simulated time move in frozen mode (each step is WATCH_STEP_MS). */
const WATCH_STEP_EVERY_MS = 20;
/** How often a followed log is read again for new lines. */
const FOLLOW_POLL_MS = 100;
/** How often the wall clock reaches the cluster while watches are open. */
const WALL_TICK_MS = 1000;

export interface ServeOptions {
  readonly host: ClusterHost;
  readonly pki: Pki;
  readonly port?: number;
  readonly clock: 'wall' | 'frozen';
  /** Called with each handled request (method, path, status, ms), for `--verbose`. */
  readonly onRequest?: (line: string) => void;
}

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendStatus(res: ServerResponse, e: HttpStatus): void {
  if (res.headersSent) return void res.destroy();
  sendJson(res, e.code, statusBody(e), e.headers);
}

function authenticated(req: IncomingMessage, pki: Pki): boolean {
  if ((req.socket as TLSSocket).authorized) return true;
  const auth = req.headers.authorization;
  if (!auth?.startsWith('Bearer ')) return false;
  const given = Buffer.from(auth.slice(7).trim());
  const want = Buffer.from(pki.token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export function startServer(opts: ServeOptions): Promise<RunningServer> {
  const { host, pki } = opts;
  let tokens = REQUESTS_PER_SECOND * 2;
  let refilled = Date.now();
  const watches = new Set<() => void>();
  let stepper: ReturnType<typeof setInterval> | undefined;
  let port = 0;

  const takeToken = (): boolean => {
    const now = Date.now();
    tokens = Math.min(REQUESTS_PER_SECOND * 2, tokens + ((now - refilled) / 1000) * REQUESTS_PER_SECOND);
    refilled = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };

  const server = createServer(
    {
      key: pki.serverKeyPem,
      cert: pki.serverCertPem,
      ca: [pki.caPem],
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
    },
    (req, res) => onRequest(req, res),
  );
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    if (!authenticated(req, pki)) {
      const body = JSON.stringify(statusBody(unauthorized()));
      return void socket.end(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
    }
    handleExecUpgrade(host, req, socket, { hold, release });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  server.maxHeadersCount = 200;

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    res.on('finish', () =>
      opts.onRequest?.(
        `${req.method} ${req.url} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`,
      ),
    );
    if (!authenticated(req, pki)) {
      req.resume();
      return sendStatus(res, unauthorized());
    }
    if (!takeToken()) {
      req.resume();
      return sendStatus(res, tooManyRequests());
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      return sendStatus(res, tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        if (!aborted) sendStatus(res, tooLarge());
        aborted = true;
        chunks.length = 0;
        return;
      }
      if (!aborted) chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (aborted) return;
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'https://127.0.0.1');
      } catch {
        return sendStatus(res, new HttpStatus(400, 'BadRequest', 'malformed request URL'));
      }
      let reply: Reply;
      let body = Buffer.concat(chunks).toString('utf8');
      let contentType = req.headers['content-type'];
      try {
        if (isProtobuf(contentType)) {
          body = JSON.stringify(decodeProtobufObject(Buffer.concat(chunks)));
          contentType = 'application/json';
        }
        const ctx = { cluster: host.cluster, serverAddress: `127.0.0.1:${port}`, wrote: false };
        reply = host.run((cluster) => {
          const c = { ...ctx, cluster };
          const r = handle(c, {
            method: req.method ?? 'GET',
            path: url.pathname,
            query: url.searchParams,
            accept: req.headers.accept,
            contentType,
            body,
          });
          return r;
        });
      } catch (e) {
        return sendStatus(res, toHttpStatus(e));
      }
      if (reply.kind === 'json') {
        const headers: Record<string, string> = {};
        if (reply.contentType) headers['Content-Type'] = reply.contentType;
        const warn = reply.warnings?.map((w) => `299 - ${JSON.stringify(w)}`).join(', ');
        if (warn) headers['Warning'] = warn;
        return sendJson(res, reply.status, reply.body, headers);
      }
      if (reply.kind === 'text') {
        res.writeHead(reply.status, {
          'Content-Type': reply.contentType,
          'Content-Length': Buffer.byteLength(reply.text),
        });
        return void res.end(reply.text);
      }
      if (watches.size >= MAX_WATCHES) return sendStatus(res, tooManyRequests());
      if (reply.kind === 'follow') return streamFollow(res, reply.follow);
      streamWatch(res, reply.watch);
    });
  }

  function streamWatch(res: ServerResponse, w: WatchRequest): void {
    let headersSent = false;
    const write = (type: string, object: unknown) => {
      res.write(`${JSON.stringify({ type, object })}\n`);
    };
    const asObject = (obj: AnyObject): unknown => {
      if (!w.table) return obj;
      const t = toTable(host.cluster, w.info, [obj], w.table, { headers: !headersSent });
      headersSent = true;
      return t;
    };
    const inScope = (obj: AnyObject | undefined): obj is AnyObject =>
      obj !== undefined &&
      (w.namespace === undefined || obj.metadata.namespace === w.namespace) &&
      w.filter(obj);
    const onEvent = (e: LoggedEvent): void => {
      if (e.resource !== w.info.key) return;
      const now = inScope(e.object) && e.type !== 'DELETED';
      const before = inScope(e.oldObject);
      if (e.type === 'ADDED' && now) write('ADDED', asObject(e.object));
      else if (e.type === 'MODIFIED' && now) write(before ? 'MODIFIED' : 'ADDED', asObject(e.object));
      else if (e.type === 'MODIFIED' && before) write('DELETED', asObject(e.object));
      else if (e.type === 'DELETED' && inScope(e.object)) write('DELETED', asObject(e.object));
    };
    let replay: LoggedEvent[] = [];
    let initial: AnyObject[] = [];
    const rv = w.resourceVersion;
    if (rv === undefined || rv === '0' || w.sendInitialEvents) {
      initial = listObjects(host.cluster, w.info, w.namespace).filter(w.filter);
      if (rv !== undefined && rv !== '0') replay = host.log.since(Number(rv)) ?? [];
    } else {
      const since = host.log.since(Number(rv));
      if (since === undefined) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
        write(
          'ERROR',
          statusBody(
            new HttpStatus(
              410,
              'Expired',
              `too old resource version: ${rv} (${host.cluster.resourceVersion})`,
            ),
          ),
        );
        return void res.end();
      }
      replay = since;
    }
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
    });
    res.flushHeaders();
    for (const obj of initial) write('ADDED', asObject(obj));
    if (w.sendInitialEvents) {
      write('BOOKMARK', {
        kind: w.info.kind,
        apiVersion: w.info.group ? `${w.info.group}/${w.info.version}` : w.info.version,
        metadata: {
          resourceVersion: String(host.cluster.resourceVersion),
          annotations: { 'k8s.io/initial-events-end': 'true' },
        },
      });
    }
    if (!w.sendInitialEvents) for (const e of replay) onEvent(e);
    const stopListening = host.log.listen(onEvent);
    const timeout = setTimeout(() => stop(), w.timeoutSeconds * 1000);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      stopListening();
      clearTimeout(timeout);
      release(stop);
      res.end();
    };
    hold(stop);
    res.on('close', stop);
  }

  /** Counts an open stream; in frozen mode, while any is open, simulated time moves in steps (one stepper for all). */
  function hold(stop: () => void): void {
    watches.add(stop);
    if (opts.clock === 'frozen' && !stepper)
      stepper = setInterval(() => {
        try {
          host.step();
        } catch {
          for (const s of [...watches]) s();
        }
      }, WATCH_STEP_EVERY_MS);
  }

  function release(stop: () => void): void {
    watches.delete(stop);
    if (watches.size === 0 && stepper) {
      clearInterval(stepper);
      stepper = undefined;
    }
  }

  /** `logs -f`: the log so far, then what the container logs as time moves, until it stops running. */
  function streamFollow(res: ServerResponse, follow: LogFollow): void {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
    if (follow.text) res.write(follow.text);
    else res.flushHeaders();
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(poll);
      release(stop);
      res.end();
    };
    const poll = setInterval(() => {
      try {
        const more = host.run((cluster) => follow.next(cluster));
        if (more.text) res.write(more.text);
        if (more.done) stop();
      } catch {
        stop();
      }
    }, FOLLOW_POLL_MS);
    hold(stop);
    res.on('close', stop);
  }

  const wallTicker =
    opts.clock === 'wall'
      ? setInterval(() => {
          if (watches.size === 0) return;
          try {
            host.run(() => undefined);
          } catch {
            // A broken state file is reported on the next request.
          }
        }, WALL_TICK_MS)
      : undefined;
  wallTicker?.unref();

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      const addr = server.address();
      port = typeof addr === 'object' && addr ? addr.port : 0;
      resolve({
        server,
        port,
        url: `https://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            if (wallTicker) clearInterval(wallTicker);
            for (const stop of [...watches]) stop();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function tooLarge(): HttpStatus {
  return new HttpStatus(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${MAX_BODY_BYTES}`);
}
