/**
 * CoreDNS's `reload` plugin as its log shows it (coredns `plugin/reload/reload.go`, `setup.go`; caddy
 * `Instance.Restart`). At start-up and after every reload the plugin logs
 *   [INFO] plugin/reload: Running configuration SHA512 = <hex>
 * where the hash is SHA512 of `json.Marshal` of caddy's server blocks (`parse`: keys, then each
 * directive's tokens as `{"File","Line","Text"}`; the Corefile's own tokens have an empty File, imported
 * ones the imported path), not of the file's bytes. Every interval (30s, or `reload INTERVAL [JITTER]`,
 * plus a jitter drawn once per setup in [-JITTER/2, JITTER/2), JITTER 15s capped at INTERVAL/2) it
 * re-reads the file: a new hash restarts the server (`[INFO] Reloading`, the new hash,
 * `[INFO] Reloading complete`); a file caddy cannot even tokenise into blocks logs
 * `[WARNING] plugin/reload: Corefile parse failed: …` on every tick; a restart that fails keeps the old
 * configuration and logs caddy's and the plugin's errors once.
 */
import { sha512 } from '@noble/hashes/sha2.js';
import type { DataplaneHost } from '../network/view.ts';
import { utf8Encode } from '../../util/encoding.ts';
import { fnv32a } from '../../util/rng.ts';
import { lex, parseServerBlocks, type CorefileFiles } from './caddyfile.ts';
import { validateCorefile } from './corefile.ts';

/** The Corefile the ConfigMap held from `at` on (ms of simulated time). */
export interface CorefileVersion {
  readonly at: number;
  readonly text: string;
}

export interface ReloadLine {
  readonly time: number;
  readonly text: string;
}

/** Go's json.Marshal escapes these for HTML safety; JSON.stringify does not. */
function goJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The reload plugin's hash of a Corefile, or the caddy parse error it logs instead. */
export function corefileSha512(
  text: string,
  files?: CorefileFiles,
): { ok: true; hex: string } | { ok: false; error: string } {
  let blocks;
  try {
    // reload.go parses with no list of valid directives: every word may be one.
    blocks = parseServerBlocks(text, new Set(lex(text).map((t) => t.text)), files ? { files } : {});
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const json = goJson(
    blocks.length === 0
      ? null
      : blocks.map((b) => ({
          Keys: b.keys,
          // Go writes map keys sorted; each directive's occurrences are appended in order.
          Tokens: Object.fromEntries(
            [...b.directives.keys()]
              .sort()
              .map((d) => [
                d,
                b.directives
                  .get(d)!
                  .flatMap((occ) => occ.map((t) => ({ File: t.file ?? '', Line: t.line, Text: t.text }))),
              ]),
          ),
        })),
  );
  const hex = Array.from(sha512(utf8Encode(json)), (b) => b.toString(16).padStart(2, '0')).join('');
  return { ok: true, hex };
}

/** Go's time.ParseDuration for the units a Corefile uses (`15s`, `1m30s`, `500ms`). */
function goDurationMs(s: string): number | undefined {
  const parts = [...s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((m) => m[0]).join('') !== s) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
  return parts.reduce((sum, m) => sum + Number(m[1]) * unit[m[2] as keyof typeof unit], 0);
}

const DEFAULT_INTERVAL_MS = 30_000;
const DEFAULT_JITTER_MS = 15_000;

/**
 * The tick interval setup.go picks for a Corefile, or undefined without `reload`. The jitter is drawn
 * once per setup; `seed` stands for the replica and the setup, so the draw is stable across replays.
 */
export function reloadIntervalMs(text: string, seed: string): number | undefined {
  const toks = lex(text);
  const at = toks.findIndex((t, i) => t.text === 'reload' && (i === 0 || toks[i - 1]!.line < t.line));
  if (at < 0) return undefined;
  const args = toks.slice(at + 1).filter((t) => t.line === toks[at]!.line);
  const interval = goDurationMs(args[0]?.text ?? '') ?? DEFAULT_INTERVAL_MS;
  const jitter = Math.min(goDurationMs(args[1]?.text ?? '') ?? DEFAULT_JITTER_MS, interval / 2);
  // rand.Int63n(j) - j/2, whole milliseconds.
  return interval + Math.floor((fnv32a(seed) / 2 ** 32) * jitter) - Math.floor(jitter / 2);
}

/** The Corefile on disk at `ms`: the newest version written by then (the first known one before it). */
export function corefileAt(history: readonly CorefileVersion[], ms: number): string | undefined {
  let text = history[0]?.text;
  for (const v of history) if (v.at <= ms) text = v.text;
  return text;
}

/**
 * What the reload plugin of a replica started at `startMs` logged up to `nowMs`, after its start-up
 * hash (which the start-up banner prints). `seed` identifies the replica (its pod uid).
 */
export function reloadLog(
  history: readonly CorefileVersion[],
  startMs: number,
  nowMs: number,
  seed: string,
  files?: CorefileFiles,
): ReloadLine[] {
  const out: ReloadLine[] = [];
  const started = corefileAt(history, startMs);
  if (started === undefined) return out;
  const first = corefileSha512(started, files);
  let interval = reloadIntervalMs(started, `${seed}/0`);
  if (!first.ok || interval === undefined) return out;
  let running = first.hex;
  let setups = 0;
  let lastRead = started;
  let lastHash: ReturnType<typeof corefileSha512> = first;
  for (let tick = startMs + interval; tick <= nowMs; tick += interval) {
    const file = corefileAt(history, tick);
    if (file === undefined || file === '') continue;
    // Hashing is the costly part; the file only changes with a new version.
    if (file !== lastRead) {
      lastRead = file;
      lastHash = corefileSha512(file, files);
    }
    if (!lastHash.ok) {
      out.push({ time: tick, text: `[WARNING] plugin/reload: Corefile parse failed: ${lastHash.error}` });
      continue;
    }
    if (lastHash.hex === running) continue;
    running = lastHash.hex;
    out.push({ time: tick, text: '[INFO] Reloading' });
    const v = validateCorefile(file, files);
    if (!v.ok) {
      out.push(
        { time: tick, text: `[ERROR] Restart failed: ${v.error}` },
        {
          time: tick,
          text: `[ERROR] plugin/reload: Corefile changed but reload failed: starting with listener file descriptors: ${v.error}`,
        },
      );
      continue;
    }
    out.push(
      { time: tick, text: `[INFO] plugin/reload: Running configuration SHA512 = ${lastHash.hex}` },
      { time: tick, text: '[INFO] Reloading complete' },
    );
    // The restarted instance runs setup again: a new interval from now on, or no reload at all.
    const next = reloadIntervalMs(file, `${seed}/${++setups}`);
    if (next === undefined) break;
    interval = next;
  }
  return out;
}

const HISTORY = new WeakMap<DataplaneHost, CorefileVersion[]>();
/** Versions kept: enough for any lesson's edits, bounded for a long session. */
const MAX_VERSIONS = 50;

/**
 * Records each Corefile the `coredns` ConfigMap holds and when it was written: the replicas read
 * the file on their own ticks, so what a replica logged depends on when each edit happened.
 */
export function trackCorefile(cluster: DataplaneHost): void {
  const history: CorefileVersion[] = [];
  HISTORY.set(cluster, history);
  cluster.api.watch('configmaps', (e) => {
    const cm = e.object as { metadata: { namespace?: string; name: string }; data?: Record<string, string> };
    if (e.type === 'DELETED' || cm.metadata.namespace !== 'kube-system' || cm.metadata.name !== 'coredns')
      return;
    const text = cm.data?.Corefile ?? '';
    if (history[history.length - 1]?.text === text) return;
    history.push({ at: cluster.clock.now(), text });
    if (history.length > MAX_VERSIONS) history.splice(0, history.length - MAX_VERSIONS);
  });
}

/** The recorded versions; a restored cluster knows only the current one. */
export function corefileHistory(cluster: DataplaneHost, current: string): readonly CorefileVersion[] {
  const history = HISTORY.get(cluster) ?? [];
  return history.length > 0 ? history : [{ at: 0, text: current }];
}
