/**
 * The cluster state file `packetpath exec` and `packetpath serve` share: written whole to a temporary
 * file and renamed (a reader never sees half a cluster), and guarded by a lock file (created with
 * O_EXCL, in the temporary directory so it never shows in the learner's folder) around each
 * read-change-write, so a kubectl request and an exec line never both start from
 * the same state and lose one's change.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
const WAIT_LIMIT_MS = 30_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export class StateLockTimeout extends Error {}

/** One lock per state file, named after a hash of its absolute path. */
function lockPath(stateFile: string): string {
  const id = createHash('sha256').update(resolve(stateFile)).digest('hex').slice(0, 24);
  return `${tmpdir()}/packetpath-state-${id}.lock`;
}

export function withStateLock<T>(stateFile: string, fn: () => T): T {
  const lock = lockPath(stateFile);
  const start = Date.now();
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lock, 'wx');
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
      } catch {
        // Gone between the two calls: try again.
      }
      if (Date.now() - start > WAIT_LIMIT_MS)
        throw new StateLockTimeout(`timed out waiting for the lock on ${stateFile} (${lock})`);
      sleepSync(5);
    }
  }
  try {
    writeSync(fd, String(process.pid));
    return fn();
  } finally {
    closeSync(fd);
    try {
      unlinkSync(lock);
    } catch {
      // Already removed as stale by another process: nothing to release.
    }
  }
}

export function saveState(stateFile: string, snapshot: unknown): void {
  const tmp = `${stateFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(snapshot)}\n`);
  renameSync(tmp, stateFile);
}
