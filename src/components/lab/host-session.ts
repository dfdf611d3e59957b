/**
 * The lab's connection to its host: one HostClient at a time (the worker, or a WebContainer after a
 * switch), every request of the app going through `request`, and the watchdog's restart of a stuck
 * worker. A restart loads a new worker from the last saved state and writes the page's files over it:
 * what the learner typed since that save lives in the page (files, history, the line being typed), so
 * none of it is lost. The line that was running is not run again (it may be what made the engine spin).
 */
import { HostClient, WORKER_WATCHDOG, type WatchdogOptions } from './host-client';
import type { LabDebug } from './lab-debug';
import {
  HostError,
  type HostEvent,
  type HostKind,
  type LoadResult,
  type Params,
  type RequestType,
  type Result,
  type Transport,
} from '../../runtime/protocol';

export interface RecoveryPoint {
  /** The `load` a replacement worker starts with (the last saved state, or fresh). */
  readonly load: Params<'load'>;
  /** The page's files, written over what that state holds. */
  readonly files: ReadonlyMap<string, string>;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  /**
   * Called synchronously just before the request is posted: the transport is ordered, so whatever
   * the host answers next includes it (the write-ahead journal counts what a save's state covers).
   */
  readonly posted?: () => void;
}

export interface HostSessionOptions {
  /** Opens a transport to a new worker host. */
  readonly openWorker: () => Transport;
  readonly watchdog?: Pick<WatchdogOptions, 'pingEveryMs' | 'deadAfterMs'>;
  readonly debug?: LabDebug | undefined;
  readonly recoveryPoint: () => RecoveryPoint;
  /** Events of whichever host is current (file changes, pty output, fatal errors). */
  readonly onEvent: (event: HostEvent) => void;
  readonly onRestarting: () => void;
  readonly onRestarted: (result: LoadResult) => void;
  readonly onRestartFailed: (error: unknown) => void;
  readonly now?: () => number;
}

export class HostSession {
  private client: HostClient;
  private current: HostKind = 'worker';
  /** Set while the watchdog replaces a stuck worker; requests wait for it instead of failing. */
  private restarting: Promise<void> | undefined;
  private restarts = 0;
  /** A replacement worker started while the current one looks stuck (see WatchdogOptions.onSuspect). */
  private spare: HostClient | undefined;
  private readonly now: () => number;

  constructor(
    private readonly opts: HostSessionOptions,
    initial?: Transport,
  ) {
    this.now = opts.now ?? (() => performance.now());
    this.client = this.workerClient(initial);
    this.attach(this.client, 'worker');
  }

  get kind(): HostKind {
    return this.current;
  }

  /** Wraps a transport the lab opened itself (a WebContainer) with the debug hook, if any. */
  wrap(transport: Transport): Transport {
    return this.opts.debug?.transport?.(transport) ?? transport;
  }

  /** A worker host under the watchdog (see WORKER_WATCHDOG for the values and why). */
  workerClient(transport?: Transport): HostClient {
    return new HostClient(this.wrap(transport ?? this.opts.openWorker()), {
      ...(this.opts.watchdog ?? WORKER_WATCHDOG),
      onDead: () => this.restart(),
      onSuspect: () => {
        // Boot the replacement (fetch from cache, compile, start) while the watchdog still waits.
        this.spare ??= this.workerClient();
        void this.spare.request('hello', {}).catch(() => {});
      },
      onRecover: () => {
        this.spare?.close();
        this.spare = undefined;
      },
    });
  }

  /** Makes `client` the host (after a switch); the previous one is closed. */
  replace(client: HostClient, kind: HostKind): void {
    this.client.close();
    this.attach(client, kind);
  }

  private attach(client: HostClient, kind: HostKind): void {
    this.client = client;
    this.current = kind;
    client.onEvent((event) => this.opts.onEvent(event));
  }

  /** Every request from the app goes through here, so one made during a restart waits for the new host. */
  async request<T extends RequestType>(
    type: T,
    params: Params<T>,
    opts: RequestOptions = {},
  ): Promise<Result<T>> {
    const { posted, ...clientOpts } = opts;
    await this.settled();
    try {
      posted?.();
      return await this.client.request(type, params, clientOpts);
    } catch (e) {
      // A question the stuck worker never answered (completion, `incomplete`, checks, state…) is asked
      // again, once, of the new one. A command line is not: it may be what made the engine spin.
      if (!(e instanceof HostError && e.code === 'unresponsive') || type === 'exec') throw e;
      await this.settled();
      posted?.();
      return this.client.request(type, params, clientOpts);
    }
  }

  /** Resolves once no restart is under way. */
  async settled(): Promise<void> {
    while (this.restarting) await this.restarting;
  }

  private restart(): void {
    this.restarting ??= this.replaceStuckWorker().finally(() => {
      this.restarting = undefined;
    });
  }

  private async replaceStuckWorker(): Promise<void> {
    const deadAt = this.now();
    this.opts.onRestarting();
    const warm = this.spare !== undefined;
    const client = this.spare ?? this.workerClient();
    this.spare = undefined;
    const { load, files } = this.opts.recoveryPoint();
    let result: LoadResult;
    try {
      result = await client.request('load', load);
      for (const [path, content] of files)
        if (result.files[path] !== content) await client.request('writeFile', { path, content });
      for (const path of Object.keys(result.files))
        if (!files.has(path)) await client.request('removeFile', { path });
    } catch (e) {
      client.close();
      this.opts.onRestartFailed(e);
      return;
    }
    this.attach(client, 'worker');
    this.restarts++;
    this.opts.debug?.restarted?.({ ms: Math.round(this.now() - deadAt), warm, count: this.restarts });
    this.opts.onRestarted(result);
  }

  close(): void {
    this.client.close();
    this.spare?.close();
  }
}
