import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LabFiles, WRITE_DEBOUNCE_MS, type FileChange } from './lab-files.ts';
import type { Params, RequestType, Result } from '../../runtime/protocol.ts';

/** A host that records the writes it is sent. */
function fakeHost() {
  const writes: Params<'writeFile'>[] = [];
  return {
    writes,
    request<T extends RequestType>(type: T, params: Params<T>): Promise<Result<T>> {
      if (type !== 'writeFile') throw new Error(`unexpected ${type}`);
      writes.push(params as Params<'writeFile'>);
      return Promise.resolve(null as Result<T>);
    },
  };
}

describe('LabFiles', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a burst of edits as one write per file, after the debounce', async () => {
    const host = fakeHost();
    const changes: FileChange[] = [];
    const files = new LabFiles(host, (c) => changes.push(c));
    files.setAll({ 'web.yaml': 'replicas: 1\n' });
    files.edited('web.yaml', 'replicas: 2\n');
    files.edited('web.yaml', 'replicas: 3\n');
    expect(files.get('web.yaml')).toBe('replicas: 3\n');
    expect(host.writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS);
    expect(host.writes).toEqual([{ path: 'web.yaml', content: 'replicas: 3\n' }]);
    expect(changes).toEqual([
      { by: 'learner', path: 'web.yaml' },
      { by: 'learner', path: 'web.yaml' },
    ]);
  });

  it('flush sends pending edits at once and only once', async () => {
    const host = fakeHost();
    const files = new LabFiles(host, () => {});
    files.setAll({ 'a.yaml': '' });
    files.edited('a.yaml', 'x: 1\n');
    await files.flush();
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS * 2);
    expect(host.writes).toEqual([{ path: 'a.yaml', content: 'x: 1\n' }]);
  });

  it('dropPending forgets unsent edits (a Reset)', async () => {
    const host = fakeHost();
    const files = new LabFiles(host, () => {});
    files.edited('a.yaml', 'x: 1\n');
    files.dropPending();
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS * 2);
    await files.flush();
    expect(host.writes).toEqual([]);
  });

  it('follows host changes, says when a file came or went, and picks a manifest to open', () => {
    const changes: FileChange[] = [];
    const files = new LabFiles(fakeHost(), (c) => changes.push(c));
    files.setAll({ 'notes.txt': 'n', 'web.yaml': 'w' }, 'notes.txt');
    expect(files.openOrDefault()).toBe('notes.txt');
    files.fromHost('notes.txt', null);
    expect(files.current).toBeUndefined();
    expect(files.openOrDefault()).toBe('web.yaml');
    files.fromHost('web.yaml', 'changed');
    files.fromHost('svc.yaml', 's');
    expect(changes.map((c) => c.by === 'host' && c.listChanged)).toEqual([true, false, true]);
    expect(files.paths()).toEqual(['svc.yaml', 'web.yaml']);
    expect(files.toRecord()).toEqual({ 'svc.yaml': 's', 'web.yaml': 'changed' });
    // An open file that the loaded record does not have is not kept.
    files.setAll({ 'a.txt': '' }, 'gone.yaml');
    expect(files.current).toBeUndefined();
  });
});
