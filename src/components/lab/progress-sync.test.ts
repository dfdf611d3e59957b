import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHostHandler } from '../../runtime/host-handler.ts';
import { loadBundledLab } from '../../runtime/labs.ts';
import {
  PROGRESS_VERSION,
  ProgressStore,
  classify,
  revOf,
  type LabProgress,
  type PutOutcome,
} from './progress.ts';
import { ProgressSync, type RemoteChange, type SyncChannel, type SyncMessage } from './progress-sync.ts';
import {
  PROTOCOL_VERSION,
  type ExecOutput,
  type FromHost,
  type HostState,
  type LoadResult,
  type Params,
  type RequestType,
  type ToHost,
} from '../../runtime/protocol.ts';

const LAB = '00-sandbox';
const START: Work = { files: { 'web.yaml': 'replicas: 1\n' }, history: [] };

interface Work {
  files: Record<string, string>;
  history: string[];
}

/** A store whose quota the test fills and empties (IndexedDB's QuotaExceededError, as browsers throw it). */
class QuotaStore extends ProgressStore {
  full = false;
  override async compareAndPut(record: Omit<LabProgress, 'rev'>, expected: number): Promise<PutOutcome> {
    if (this.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return super.compareAndPut(record, expected);
  }
}

/** BroadcastChannel between the test's tabs, delivered when the test says (so runs are reproducible). */
function hub() {
  const receivers: ((m: SyncMessage) => void)[] = [];
  const queue: SyncMessage[] = [];
  return {
    channel(): SyncChannel {
      return { post: (m) => queue.push(m), listen: (r) => void receivers.push(r), close: () => {} };
    },
    /** Delivers every message posted so far to every tab (each ignores its own). */
    deliver() {
      while (queue.length > 0) {
        const m = queue.shift()!;
        for (const r of receivers) r(m);
      }
    },
  };
}

const fakeState = (): HostState => ({
  snapshot: { format: 'packetpath-cluster' } as unknown as HostState['snapshot'],
  journal: [],
  quizAnswers: {},
  startedAt: '',
});

function record(work: Work): Omit<LabProgress, 'rev'> {
  return {
    version: PROGRESS_VERSION,
    labId: LAB,
    labVersion: 1,
    files: { ...work.files },
    state: fakeState(),
    history: [...work.history],
    checks: null,
    hintLevel: 0,
    updatedAt: '2026-11-29T00:00:00.000Z',
  };
}

const workOf = (raw: unknown): Work => {
  const s = classify(raw, LAB);
  return s.kind === 'ok'
    ? { files: { ...s.progress.files }, history: [...s.progress.history] }
    : { files: { ...START.files }, history: [] };
};

/** One tab, as LabApp drives its ProgressSync: what it holds in memory and what it shows. */
class Tab {
  work: Work = { files: { ...START.files }, history: [] };
  notice: 'conflict' | 'quota' | undefined;
  private readonly remote: RemoteChange[] = [];
  readonly sync: ProgressSync;
  constructor(
    readonly store: ProgressStore,
    channel: SyncChannel,
    id: string,
  ) {
    this.sync = new ProgressSync(store, LAB, id, channel, (c) => this.remote.push(c));
  }
  async open(): Promise<void> {
    const raw = await this.store.get(LAB);
    this.sync.loaded(raw);
    this.work = workOf(raw);
    this.notice = undefined;
  }
  edit(path: string, content: string): void {
    this.work.files[path] = content;
    this.sync.touch();
  }
  run(line: string): void {
    this.work.history.push(line);
    this.sync.touch();
  }
  async save(): Promise<void> {
    const outcome = await this.sync.save(record(this.work));
    if (outcome === 'quota') this.notice = 'quota';
    else if (outcome === 'conflict') this.notice = 'conflict';
    else if (outcome === 'saved' && this.notice === 'quota') this.notice = undefined;
  }
  async reset(): Promise<void> {
    this.work = { files: { ...START.files }, history: [] };
    this.sync.touch();
    await this.save();
  }
  async keepMine(): Promise<void> {
    if (this.notice !== 'conflict') return;
    this.notice = undefined;
    const outcome = await this.sync.keepMine(record(this.work));
    if (outcome === 'quota') this.notice = 'quota';
  }
  async takeTheirs(): Promise<void> {
    if (this.notice !== 'conflict') return;
    const raw = await this.sync.takeTheirs();
    this.work = workOf(raw);
    this.sync.loaded(raw);
    this.notice = undefined;
  }
  /** What LabApp does with another tab's message: take the stored version, or show the conflict. */
  async handleRemote(): Promise<void> {
    for (const change of this.remote.splice(0)) {
      if (change === 'conflict') this.notice = 'conflict';
      else {
        const raw = await this.store.get(LAB);
        this.work = workOf(raw);
        this.sync.loaded(raw);
      }
    }
  }
}

async function twoTabs() {
  const factory = new IDBFactory();
  const h = hub();
  const storeA = new QuotaStore(factory);
  const storeB = new QuotaStore(factory);
  const a = new Tab(storeA, h.channel(), 'A');
  const b = new Tab(storeB, h.channel(), 'B');
  await a.open();
  await b.open();
  const settle = async () => {
    h.deliver();
    await a.handleRemote();
    await b.handleRemote();
  };
  return { factory, a, b, settle, stores: [storeA, storeB] as const };
}

describe('two tabs on one lab', () => {
  it('a tab with nothing unsaved takes the other tab’s save live', async () => {
    const { a, b, settle } = await twoTabs();
    a.edit('web.yaml', 'replicas: 2\n');
    a.run('kubectl apply -f web.yaml');
    await a.save();
    await settle();
    expect(b.work).toEqual(a.work);
    expect(b.notice).toBeUndefined();
    // …and B's next change builds on A's, without a conflict.
    b.run('kubectl get pods');
    await b.save();
    await settle();
    expect(a.work.history).toEqual(['kubectl apply -f web.yaml', 'kubectl get pods']);
    expect(workOf(await a.store.get(LAB))).toEqual(a.work);
  });

  it('never lets the last writer erase the other tab’s files silently: it asks, and each choice keeps one version whole', async () => {
    const { a, b, settle } = await twoTabs();
    a.edit('a.yaml', 'from A\n');
    b.edit('b.yaml', 'from B\n');
    await a.save();
    // B has unsaved work: told at once by the channel…
    await settle();
    expect(b.notice).toBe('conflict');
    // …and even without the channel its save would not write (compare-and-swap).
    await b.save();
    expect(workOf(await b.store.get(LAB)).files).toEqual({
      'web.yaml': 'replicas: 1\n',
      'a.yaml': 'from A\n',
    });
    expect(b.work.files['b.yaml']).toBe('from B\n');
    // "Keep mine": written knowingly; A (clean) takes it live.
    await b.keepMine();
    await settle();
    expect(workOf(await a.store.get(LAB)).files).toEqual({
      'web.yaml': 'replicas: 1\n',
      'b.yaml': 'from B\n',
    });
    expect(a.work).toEqual(b.work);
  });

  it('a save that lost the race is refused by the store even when no message arrived', async () => {
    const factory = new IDBFactory();
    const a = new ProgressStore(factory);
    const b = new ProgressStore(factory);
    expect(await a.compareAndPut(record(START), 0)).toEqual({ kind: 'saved', rev: 1 });
    const lost = await b.compareAndPut(record({ files: {}, history: ['x'] }), 0);
    expect(lost).toMatchObject({ kind: 'conflict', rev: 1 });
    expect(revOf(await a.get(LAB))).toBe(1);
    expect(workOf(await a.get(LAB))).toEqual(START);
  });

  it('a full quota keeps the work in the page, says so, and saves once space is back', async () => {
    const { a, stores } = await twoTabs();
    stores[0].full = true;
    a.edit('web.yaml', 'replicas: 5\n');
    await a.save();
    expect(a.notice).toBe('quota');
    expect(a.work.files['web.yaml']).toBe('replicas: 5\n');
    expect(await a.store.get(LAB)).toBeUndefined();
    stores[0].full = false;
    await a.save();
    expect(a.notice).toBeUndefined();
    expect(workOf(await a.store.get(LAB)).files['web.yaml']).toBe('replicas: 5\n');
  });
});

describe('a version 1 record saved by the previous release', () => {
  it('loads into the worker host with its cluster, and the next save writes version 2', async () => {
    // A real v1 record: the state of a live host after a command, stored without `rev`.
    const sent: FromHost[] = [];
    const handler = createHostHandler({ host: 'worker', loadLab: loadBundledLab, send: (m) => sent.push(m) });
    let id = 0;
    const ask = async <T extends RequestType>(type: T, params: Params<T>): Promise<unknown> => {
      const my = ++id;
      handler.receive({ v: PROTOCOL_VERSION, kind: 'request', id: my, type, params } as ToHost);
      await handler.idle();
      const r = sent.find((m) => m.kind === 'response' && m.id === my);
      if (!r || r.kind !== 'response' || !r.ok) throw new Error(`${type} failed`);
      return r.value;
    };
    const loaded = (await ask('load', { labId: LAB, start: { kind: 'fresh' } })) as LoadResult;
    await ask('exec', { line: 'kubectl apply -f web.yaml' });
    const state = (await ask('state', {})) as HostState;
    const v1 = {
      version: 1,
      labId: LAB,
      labVersion: loaded.lab.version,
      files: loaded.files,
      state,
      history: ['kubectl apply -f web.yaml'],
      checks: null,
      hintLevel: 0,
      updatedAt: '2026-11-20T10:00:00.000Z',
    };
    const store = new ProgressStore(new IDBFactory());
    await store.put(v1);

    const raw = await store.get(LAB);
    const s = classify(raw, LAB);
    if (s.kind !== 'ok') throw new Error(`v1 record classified ${s.kind}`);
    await ask('load', { labId: LAB, start: { kind: 'state', state: s.progress.state } });
    const out = (await ask('exec', { line: 'kubectl get deploy web' })) as ExecOutput;
    expect(out.stdout).toMatch(/^NAME\s+READY/);
    expect(out.stdout).toMatch(/\nweb\s+/);

    const sync = new ProgressSync(store, LAB, 'tab', undefined, () => {});
    sync.loaded(raw);
    sync.touch();
    expect(await sync.save({ ...s.progress, updatedAt: '2026-11-29T00:00:00.000Z' })).toBe('saved');
    expect(await store.get(LAB)).toMatchObject({ version: PROGRESS_VERSION, rev: 1 });
  });
});

// ---- property: random operation sequences against a model -----------------------------------------

type Op =
  | { op: 'edit'; tab: 0 | 1; path: string; content: string }
  | { op: 'run'; tab: 0 | 1; line: string }
  | { op: 'save'; tab: 0 | 1 }
  | { op: 'reset'; tab: 0 | 1 }
  | { op: 'reload'; tab: 0 | 1 }
  | { op: 'mine'; tab: 0 | 1 }
  | { op: 'theirs'; tab: 0 | 1 }
  | { op: 'quota'; full: boolean }
  /** The channel delivers what the tabs posted (until then a tab does not know; its writes race). */
  | { op: 'deliver' };

const tabArb = fc.constantFrom<0 | 1>(0, 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('edit' as const),
    tab: tabArb,
    path: fc.constantFrom('web.yaml', 'svc.yaml', 'notes.txt'),
    content: fc.string({ maxLength: 12 }),
  }),
  fc.record({
    op: fc.constant('run' as const),
    tab: tabArb,
    line: fc.constantFrom('kubectl get pods', 'ls', 'echo x'),
  }),
  fc.record({ op: fc.constant('save' as const), tab: tabArb }),
  fc.record({ op: fc.constant('reset' as const), tab: tabArb }),
  fc.record({ op: fc.constant('reload' as const), tab: tabArb }),
  fc.record({ op: fc.constant('mine' as const), tab: tabArb }),
  fc.record({ op: fc.constant('theirs' as const), tab: tabArb }),
  fc.record({ op: fc.constant('quota' as const), full: fc.boolean() }),
  fc.record({ op: fc.constant('deliver' as const) }),
);

interface ModelTab {
  work: Work;
  base: number;
  dirty: boolean;
  conflict: boolean;
}

/** The rules, stated plainly: what the store and each tab must hold after each operation. */
class Model {
  stored: (Work & { rev: number }) | undefined;
  quota = false;
  tabs: [ModelTab, ModelTab] = [this.fresh(), this.fresh()];
  /** Writes announced on the channel and not yet delivered: (rev, the tab that did not write). */
  pending: { rev: number; to: 0 | 1 }[] = [];

  private fresh(): ModelTab {
    return { work: structuredClone(START), base: 0, dirty: false, conflict: false };
  }

  private save(i: 0 | 1): void {
    const t = this.tabs[i];
    if (t.conflict || !t.dirty || this.quota) return;
    if (this.stored && this.stored.rev !== t.base) {
      t.conflict = true; // compare-and-swap refused: nothing written
      return;
    }
    this.stored = { ...structuredClone(t.work), rev: t.base + 1 };
    t.base = this.stored.rev;
    t.dirty = false;
    this.pending.push({ rev: this.stored.rev, to: i === 0 ? 1 : 0 });
  }

  private deliver(): void {
    for (const { rev, to } of this.pending.splice(0)) {
      const o = this.tabs[to];
      if (rev <= o.base) continue;
      if (o.dirty || o.conflict) o.conflict = true;
      else this.take(o);
    }
  }

  private take(t: ModelTab): void {
    t.work = this.stored
      ? { files: { ...this.stored.files }, history: [...this.stored.history] }
      : structuredClone(START);
    t.base = this.stored?.rev ?? 0;
    t.dirty = false;
    t.conflict = false;
  }

  apply(op: Op): void {
    if (op.op === 'quota') {
      this.quota = op.full;
      return;
    }
    if (op.op === 'deliver') return this.deliver();
    const t = this.tabs[op.tab];
    switch (op.op) {
      case 'edit':
        t.work.files[op.path] = op.content;
        t.dirty = true;
        return;
      case 'run':
        t.work.history.push(op.line);
        t.dirty = true;
        return;
      case 'save':
        return this.save(op.tab);
      case 'reset':
        t.work = structuredClone(START);
        t.dirty = true;
        return this.save(op.tab);
      case 'reload':
        this.save(op.tab); // the page's last save on pagehide
        this.deliver();
        return this.take(t);
      case 'mine':
        if (!t.conflict) return;
        t.conflict = false;
        t.base = this.stored?.rev ?? 0;
        t.dirty = true;
        return this.save(op.tab);
      case 'theirs':
        if (t.conflict) this.take(t);
        return;
    }
  }
}

describe('saved progress, property', () => {
  it('after any sequence of edits, commands, saves, resets, reloads, second-tab edits and quota failures, the store and both tabs hold what the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const { a, b, settle, stores, factory } = await twoTabs();
        // (Checked after every operation below, so a failure names the first step that went wrong.)
        const tabs = [a, b] as const;
        const model = new Model();
        for (const op of ops) {
          model.apply(op);
          if (op.op === 'quota') {
            for (const s of stores) s.full = op.full;
            continue;
          }
          if (op.op === 'deliver') {
            await settle();
            continue;
          }
          const t = tabs[op.tab];
          if (op.op === 'edit') t.edit(op.path, op.content);
          else if (op.op === 'run') t.run(op.line);
          else if (op.op === 'save') await t.save();
          else if (op.op === 'reset') await t.reset();
          else if (op.op === 'mine') await t.keepMine();
          else if (op.op === 'theirs') await t.takeTheirs();
          else if (op.op === 'reload') {
            await t.save();
            await settle();
            await t.open();
          }
          const raw = await a.store.get(LAB);
          expect(raw === undefined ? undefined : { ...workOf(raw), rev: revOf(raw) }).toEqual(model.stored);
          for (const i of [0, 1] as const) {
            // Nothing typed is ever lost from a tab except by its own reload or an explicit choice.
            expect(tabs[i].work).toEqual(model.tabs[i].work);
            expect(tabs[i].notice === 'conflict').toBe(model.tabs[i].conflict);
          }
        }
        // A third tab opened at the end (a reload after everything) shows exactly what was stored.
        const c = new Tab(new ProgressStore(factory), hub().channel(), 'C');
        await c.open();
        expect(c.work).toEqual(
          model.stored ? { files: model.stored.files, history: model.stored.history } : START,
        );
      }),
      { numRuns: 100 },
    );
  });
});
