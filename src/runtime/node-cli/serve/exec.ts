/**
 * `pods/NAME/exec` over WebSocket, the way kubectl v1.35 asks for it first (remotecommand's
 * `v5.channel.k8s.io`, then v4): a binary message's first byte is its channel (0 stdin, 1 stdout,
 * 2 stderr, 3 the final Status, 255 "close this channel"). The command runs in the simulator's shell
 * inside the pod's container, as the built-in terminal's `kubectl exec` runs it; its output goes out
 * on channels 1 and 2, and its exit code as the Status on channel 3 (`NonZeroExitCode` with an
 * `ExitCode` cause, which kubectl prints as `command terminated with exit code N`). A terminal
 * (`-t`) session is not offered: the request is answered with the command's whole output.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { execNotFoundError, type AnyObject } from '../../../engine/index.ts';
import type { ClusterHost } from './cluster-host.ts';
import { followFrom, loggedLines } from './pod-log.ts';
import { badRequest, HttpStatus, notFoundPath, statusBody, toHttpStatus } from './status.ts';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
/** stdin a client may send before closing it. */
const MAX_STDIN_BYTES = 1 << 20;

function frame(payload: Buffer, opcode = 0x2): Buffer {
  const len = payload.length;
  const header =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : len < 65536
        ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(len)]);
  return Buffer.concat([header, payload]);
}

function bigLength(len: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(len));
  return b;
}

function channel(ch: number, data: string | Buffer): Buffer {
  return frame(Buffer.concat([Buffer.from([ch]), Buffer.isBuffer(data) ? data : Buffer.from(data)]));
}

/** Parses the client's (masked) frames as they arrive; calls back with each binary message. */
function frameReader(onMessage: (opcode: number, data: Buffer) => void, onError: () => void) {
  let buf = Buffer.alloc(0);
  return (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const opcode = buf[0]! & 0x0f;
      const masked = (buf[1]! & 0x80) !== 0;
      let len = buf[1]! & 0x7f;
      let offset = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        offset = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        const big = buf.readBigUInt64BE(2);
        if (big > BigInt(MAX_STDIN_BYTES)) return onError();
        len = Number(big);
        offset = 10;
      }
      const maskLen = masked ? 4 : 0;
      if (buf.length < offset + maskLen + len) return;
      const mask = buf.subarray(offset, offset + maskLen);
      const data = Buffer.from(buf.subarray(offset + maskLen, offset + maskLen + len));
      if (masked) for (let i = 0; i < data.length; i++) data[i] = data[i]! ^ mask[i % 4]!;
      buf = buf.subarray(offset + maskLen + len);
      onMessage(opcode, data);
    }
  };
}

function refuse(socket: Duplex, e: HttpStatus): void {
  const body = JSON.stringify(statusBody(e));
  socket.end(
    `HTTP/1.1 ${e.code} ${e.reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

interface ExecTarget {
  readonly namespace: string;
  readonly pod: AnyObject;
  readonly container: string;
  readonly argv: string[];
  readonly stdin: boolean;
  readonly attach: boolean;
}

/** The server's open streams: an attach counts as one (and keeps a frozen clock moving). */
export interface StreamRegistry {
  hold(stop: () => void): void;
  release(stop: () => void): void;
}

/** How often an attached container's output is read again. */
const ATTACH_POLL_MS = 100;

function target(host: ClusterHost, url: URL): ExecTarget {
  const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(exec|attach)$/.exec(url.pathname);
  if (!m) throw notFoundPath();
  const attach = m[3] === 'attach';
  const namespace = decodeURIComponent(m[1]!);
  const name = decodeURIComponent(m[2]!);
  const pod = host.cluster.api.get('pods', namespace, name) as AnyObject | undefined;
  if (!pod) throw new HttpStatus(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' });
  const spec = (pod as { spec?: { containers?: { name: string }[] } }).spec;
  const names = (spec?.containers ?? []).map((c) => c.name);
  const container = url.searchParams.get('container') ?? (names.length === 1 ? names[0]! : '');
  if (container === '')
    throw badRequest(
      `a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`,
    );
  if (!names.includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
  const statuses = (
    pod as { status?: { containerStatuses?: { name: string; state?: { running?: object } }[] } }
  ).status?.containerStatuses;
  if (!statuses?.find((s) => s.name === container)?.state?.running)
    throw badRequest(`unable to upgrade connection: container not found ("${container}")`);
  const stdin = url.searchParams.get('stdin') === 'true';
  // The simulated main processes read no input: an attach can only show what they print.
  if (attach && stdin) throw badRequest('attaching stdin is not supported by this server: attach without -i');
  const argv = url.searchParams.getAll('command');
  if (!attach && argv.length === 0) throw badRequest('you must specify at least 1 command');
  return { namespace, pod, container, argv, stdin, attach };
}

export function handleExecUpgrade(
  host: ClusterHost,
  req: IncomingMessage,
  socket: Duplex,
  streams: StreamRegistry,
): void {
  socket.on('error', () => socket.destroy());
  let t: ExecTarget;
  try {
    // The target first: kubectl retries a failed WebSocket upgrade over SPDY, and it is the
    // target's error (no such container, no stdin) that must reach the person, not the protocol's.
    t = host.run(() => target(host, new URL(req.url ?? '/', 'https://127.0.0.1')));
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
      throw badRequest('only WebSocket upgrades are supported');
  } catch (e) {
    return refuse(socket, toHttpStatus(e));
  }
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const protocol = PROTOCOLS.find((p) => offered.includes(p));
  const key = req.headers['sec-websocket-key'];
  if (!protocol || typeof key !== 'string')
    return refuse(
      socket,
      badRequest(`unable to upgrade: none of the offered subprotocols is supported: ${offered.join(', ')}`),
    );
  const accept = createHash('sha1')
    .update(key + GUID)
    .digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: ${protocol}\r\n\r\n`,
  );
  if (t.attach) return attachOutput(host, t, socket, streams);
  let stdin = Buffer.alloc(0);
  let ran = false;
  const run = () => {
    if (ran) return;
    ran = true;
    const result = host.run((cluster) =>
      cluster.execInContainer(
        { kind: 'pod', namespace: t.namespace, pod: t.pod.metadata.name, container: t.container },
        t.argv,
        stdin.toString('utf8'),
      ),
    );
    if (!result) {
      socket.write(
        channel(
          3,
          JSON.stringify({
            metadata: {},
            status: 'Failure',
            // containerd's error as our kubectl words it (kubectl adds the `error: `).
            message: execNotFoundError(t.pod as never, t.argv[0]!).message.replace(/^error: /, ''),
            reason: 'InternalError',
            details: { causes: [{ message: `exec: "${t.argv[0]}": executable file not found in $PATH` }] },
            code: 500,
          }),
        ),
      );
    } else {
      if (result.stdout) socket.write(channel(1, result.stdout));
      if (result.stderr) socket.write(channel(2, result.stderr));
      const status =
        result.exitCode === 0
          ? { metadata: {}, status: 'Success' }
          : {
              metadata: {},
              status: 'Failure',
              message: `command terminated with non-zero exit code: error executing command [${t.argv.join(' ')}], exit code ${result.exitCode}`,
              reason: 'NonZeroExitCode',
              details: { causes: [{ reason: 'ExitCode', message: String(result.exitCode) }] },
            };
      socket.write(channel(3, JSON.stringify(status)));
    }
    socket.end(frame(Buffer.from([0x03, 0xe8]), 0x8));
  };
  const read = frameReader(
    (opcode, data) => {
      if (opcode === 0x8) return socket.end();
      if (opcode === 0x9) return void socket.write(frame(data, 0xa));
      if (data.length === 0) return;
      const ch = data[0]!;
      if (ch === 0 && t.stdin) {
        stdin = Buffer.concat([stdin, data.subarray(1)]);
        if (stdin.length > MAX_STDIN_BYTES) socket.destroy();
      }
      // v5: [255, 0] closes stdin; the command then runs with what it got.
      if (ch === 255 && data[1] === 0) run();
    },
    () => socket.destroy(),
  );
  socket.on('data', read);
  if (!t.stdin) setImmediate(run);
}

/**
 * pods/NAME/attach: what the container's main process prints from now on, on channel 1, until it
 * stops running (then a Success status) or the client goes away, as the kubelet's attach streams it.
 */
function attachOutput(host: ClusterHost, t: ExecTarget, socket: Duplex, streams: StreamRegistry): void {
  const next = host.run((cluster) =>
    followFrom(t.pod, t.container, loggedLines(cluster, t.pod, t.container)),
  );
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(poll);
    streams.release(stop);
    if (!socket.destroyed) {
      socket.write(channel(3, JSON.stringify({ metadata: {}, status: 'Success' })));
      socket.end(frame(Buffer.from([0x03, 0xe8]), 0x8));
    }
  };
  const poll = setInterval(() => {
    try {
      const more = host.run((cluster) => next(cluster));
      if (more.text) socket.write(channel(1, more.text));
      if (more.done) stop();
    } catch {
      stop();
    }
  }, ATTACH_POLL_MS);
  streams.hold(stop);
  socket.on(
    'data',
    frameReader(
      (opcode, data) => {
        if (opcode === 0x8) stop();
        else if (opcode === 0x9) socket.write(frame(data, 0xa));
      },
      () => socket.destroy(),
    ),
  );
  socket.on('close', stop);
}
