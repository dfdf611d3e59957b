/**
 * A kubectl under test: the real API server (decode, defaults, validation, allocation) over a fresh
 * store with the namespaces every cluster has, a simulated clock that `waitFor` advances, lab files,
 * and a line splitter that quotes like a shell. No controllers run: tests create the objects (with
 * complete status) they need.
 */
import { ApiStore } from '../api/store.ts';
import { ApiServer } from '../apiserver/apiserver.ts';
import type { AnyObject, Manifest } from '../api/objects.ts';
import { defaultClusterConfig, type ClusterConfig } from '../api/cluster-config.ts';
import { LabFiles } from '../shell/lab-files.ts';
import { SimClock } from '../util/clock.ts';
import { Rng } from '../util/rng.ts';
import type { CommandResult } from '../shell/types.ts';
import { createKubectl, type KubectlHooks, type KubectlHost } from './index.ts';

export function splitLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === ' ') {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else cur += c;
  }
  if (has || cur) out.push(cur);
  return out;
}

export interface TestKubectl {
  readonly host: KubectlHost & { store: ApiStore; api: ApiServer; clock: SimClock; files: LabFiles };
  /** Runs `kubectl <line>`. */
  run(line: string, opts?: { stdin?: string; interactive?: boolean }): CommandResult;
  /** Stores an object as given (status included), bypassing admission. */
  put(
    obj: Manifest & { metadata: { name: string; namespace?: string; [field: string]: unknown } },
  ): AnyObject;
  advance(ms: number): void;
}

export interface MakeOptions {
  files?: Record<string, string>;
  hooks?: KubectlHooks;
  config?: ClusterConfig;
  seed?: number;
  /** Runs at every step of waitFor, standing in for the controllers (tests move status along here). */
  onTick?: (now: number, store: ApiStore) => void;
}

export function makeKubectl(opts: MakeOptions = {}): TestKubectl {
  const clock = new SimClock();
  const rng = new Rng(opts.seed ?? 1);
  const store = new ApiStore(clock, rng);
  const config = opts.config ?? defaultClusterConfig();
  const api = new ApiServer(store, { clock, rng, config });
  for (const name of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) {
    store.create('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
  const files = new LabFiles(opts.files ?? {});
  const host = {
    api,
    store,
    clock,
    files,
    config,
    rng,
    waitFor(done: () => boolean, timeoutMs: number, stepMs = 500): boolean {
      const deadline = clock.now() + timeoutMs;
      while (!done()) {
        if (clock.now() >= deadline) return false;
        clock.set(clock.now() + Math.min(stepMs, deadline - clock.now()));
        opts.onTick?.(clock.now(), store);
      }
      return true;
    },
  };
  const kubectl = createKubectl(host, opts.hooks ?? {});
  return {
    host,
    run(line, o = {}) {
      return kubectl(['kubectl', ...splitLine(line)], {
        stdin: o.stdin ?? '',
        env: {},
        context: { kind: 'host' },
        interactive: o.interactive ?? false,
      });
    },
    put(obj) {
      const info = api.keyOf(obj as AnyObject);
      return store.create(info, obj as never);
    },
    advance(ms) {
      clock.set(clock.now() + ms);
    },
  };
}
