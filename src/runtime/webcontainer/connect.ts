/**
 * The WebContainer host, offered where the page is cross-origin isolated and the browser is one
 * StackBlitz supports. It runs in the page (WebContainer's API is main-thread) but speaks the same
 * protocol as the worker through a Transport: the engine runs as a Node program inside the container
 * (program.ts, mounted with bin scripts by file-tree.ts), the terminal is wired to `jsh`, and UI
 * requests (checks, state, report) run `packetpath host '<request>'` there.
 *
 * Boot is raced against a timeout with progress events: offline, `WebContainer.boot()` neither
 * resolves nor rejects (it waits for an iframe from stackblitz.com). On any failure the `load`
 * request fails with a code (`boot-timeout`, `boot-failed`) and the UI stays on the worker.
 *
 * UNTESTED IN CI: nothing here can boot on the project's offline machines. The file tree and the bin
 * scripts are tested by running them with Node (see the conformance test).
 */
import programUrl from './program.ts?worker&url';
import { loadBundledLabSource } from '../labs.ts';
import { buildFileTree } from './file-tree.ts';
import { labInfo } from '../lab-info.ts';
import {
  PROTOCOL_VERSION,
  toErrorInfo,
  type FromHost,
  type HostEvent,
  type HostState,
  type RequestMessage,
  type ToHost,
  type Transport,
} from '../protocol.ts';
import type { WebContainer, WebContainerProcess } from '@webcontainer/api';

let booted: Promise<WebContainer> | undefined;

/** One WebContainer per page (a second boot() throws), shared by every lab on it. */
function boot(): Promise<WebContainer> {
  booted ??= import('@webcontainer/api').then(({ WebContainer }) =>
    WebContainer.boot({ coep: 'require-corp', workdirName: 'lab' }),
  );
  return booted;
}

function codeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export function connectWebContainerHost(opts: { timeoutMs: number }): Transport {
  let receive: ((m: FromHost) => void) | undefined;
  let wc: WebContainer | undefined;
  let shell: WebContainerProcess | undefined;
  let input: WritableStreamDefaultWriter<string> | undefined;
  let closed = false;
  let chain: Promise<void> = Promise.resolve();
  const cancelled = new Set<number>();
  const stopWatching: (() => void)[] = [];

  const emit = (event: HostEvent) => receive?.({ v: PROTOCOL_VERSION, kind: 'event', event });

  /** Runs `packetpath host '<request>'` in the container and returns its answer. */
  async function program(type: string, params: unknown): Promise<unknown> {
    if (!wc) throw codeError('no-lab', 'no lab loaded');
    const p = await wc.spawn(
      'node',
      ['.packetpath/bin/packetpath', 'host', JSON.stringify({ type, params })],
      { output: true },
    );
    let text = '';
    await p.output.pipeTo(new WritableStream({ write: (chunk) => void (text += chunk) }));
    await p.exit;
    const line = text.trim().split('\n').pop() ?? '';
    const answer = JSON.parse(line) as {
      ok: boolean;
      value?: unknown;
      error?: { name: string; message: string; code?: string };
    };
    if (!answer.ok)
      throw Object.assign(new Error(answer.error?.message ?? 'failed'), { code: answer.error?.code });
    return answer.value;
  }

  async function load(labId: string, state: HostState | undefined, seed: number): Promise<unknown> {
    const started = Date.now();
    emit({ type: 'progress', stage: 'boot', ratio: 0 });
    const ticker = setInterval(() => {
      emit({
        type: 'progress',
        stage: 'boot',
        ratio: Math.min(0.5, ((Date.now() - started) / opts.timeoutMs) * 0.5),
      });
    }, 500);
    try {
      wc = await Promise.race([
        boot(),
        new Promise<never>((_, reject) =>
          setTimeout(
            () =>
              reject(
                codeError(
                  'boot-timeout',
                  `no answer from the WebContainer service after ${Math.round(opts.timeoutMs / 1000)} s`,
                ),
              ),
            opts.timeoutMs,
          ),
        ),
      ]);
    } catch (e) {
      const err = e as Error & { code?: string };
      throw codeError(err.code ?? 'boot-failed', err.message);
    } finally {
      clearInterval(ticker);
    }
    emit({ type: 'progress', stage: 'mount', ratio: 0.6 });
    const [programText, source] = await Promise.all([
      fetch(programUrl).then((r) => r.text()),
      loadBundledLabSource(labId),
    ]);
    const bundle = { ...source, seed };
    const { bundleLab } = await import('./bundle-lab.ts');
    const loaded = bundleLab(bundle);
    // A variant's start files are the lab's with the variant's over them.
    const files = (state?.snapshot.files as Record<string, string> | undefined) ?? loaded.startFiles;
    await wc.mount(buildFileTree({ program: programText, lab: bundle, files, ...(state ? { state } : {}) }));
    emit({ type: 'progress', stage: 'check', ratio: 0.75 });
    const current = (await program('state', {})) as HostState;
    emit({ type: 'progress', stage: 'shell', ratio: 0.9 });
    shell = await wc.spawn('jsh', {
      terminal: { cols: 80, rows: 24 },
      env: { PATH: `${wc.workdir}/.packetpath/bin:/usr/local/bin:/usr/bin:/bin` },
    });
    void shell.output.pipeTo(new WritableStream({ write: (data) => emit({ type: 'pty-output', data }) }));
    input = shell.input.getWriter();
    const watcher = wc.fs.watch('.', { recursive: true }, (_event, filename) => {
      const path = String(filename ?? '');
      if (!path || path.startsWith('.packetpath') || path.startsWith('node_modules')) return;
      wc?.fs
        .readFile(path, 'utf-8')
        .then((content) => emit({ type: 'file', path, content }))
        .catch(() => emit({ type: 'file', path, content: null }));
    });
    stopWatching.push(() => watcher.close());
    emit({ type: 'progress', stage: 'ready', ratio: 1 });
    return {
      lab: labInfo(loaded, seed),
      files: current.snapshot.files,
      prompt: '',
      history: current.journal.flatMap((s) => ('run' in s ? [s.run] : [])),
    };
  }

  async function handle(msg: RequestMessage): Promise<unknown> {
    switch (msg.type) {
      case 'hello':
        return { version: PROTOCOL_VERSION, host: 'webcontainer', terminal: 'pty' };
      case 'load': {
        const { start, labId } = msg.params;
        if (start.kind === 'replay') throw codeError('unsupported', 'replay runs on the worker host');
        return load(labId, start.kind === 'state' ? start.state : undefined, msg.params.seed ?? 0);
      }
      case 'writeFile':
        await wc?.fs.writeFile(msg.params.path, msg.params.content);
        return null;
      case 'removeFile':
        await wc?.fs.rm(msg.params.path, { force: true });
        return null;
      case 'ptyInput':
        await input?.write(msg.params.data);
        return null;
      case 'resize':
      case 'ptyResize':
        shell?.resize({ cols: msg.params.cols, rows: msg.params.rows });
        return null;
      case 'ping':
        return null;
      default:
        return program(msg.type, msg.params);
    }
  }

  function post(message: ToHost): void {
    if (message.kind === 'cancel') {
      cancelled.add(message.id);
      return;
    }
    const respond = (m: FromHost) => {
      if (!closed) receive?.(m);
    };
    // pty input must not wait behind a slow request; everything else runs in order.
    const run = async () => {
      if (cancelled.delete(message.id)) {
        respond({
          v: PROTOCOL_VERSION,
          kind: 'response',
          id: message.id,
          ok: false,
          error: { name: 'AbortError', message: 'cancelled', code: 'cancelled' },
        });
        return;
      }
      try {
        respond({
          v: PROTOCOL_VERSION,
          kind: 'response',
          id: message.id,
          ok: true,
          value: await handle(message),
        });
      } catch (e) {
        respond({ v: PROTOCOL_VERSION, kind: 'response', id: message.id, ok: false, error: toErrorInfo(e) });
      }
    };
    if (message.type === 'ptyInput' || message.type === 'ptyResize' || message.type === 'ping') void run();
    else chain = chain.then(run);
  }

  return {
    post,
    listen: (r) => {
      receive = r;
    },
    close: () => {
      closed = true;
      for (const stop of stopWatching) stop();
      shell?.kill();
    },
  };
}
