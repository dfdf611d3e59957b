import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { LabProgressKeeper, type LabWork, type Notices } from './lab-progress.ts';
import { ProgressStore, type LabProgress, type PutOutcome } from './progress.ts';
import type { SyncChannel, SyncMessage } from './progress-sync.ts';
import { fmt } from './lab-ui.ts';
import { JournalStore, WriteAheadLog, type Liveness } from './write-ahead.ts';
import { workerHarness } from '../../runtime/test-host.ts';
import type { LabInfo, LoadResult } from '../../runtime/protocol.ts';

const LAB = '00-sandbox';
/** Every earlier page of a test is closed (its tail may be replayed). */
const NOBODY_LIVE: Liveness = { hold: () => {}, isHeld: async () => false };

class QuotaStore extends ProgressStore {
  full = false;
  override async compareAndPut(record: Omit<LabProgress, 'rev'>, expected: number): Promise<PutOutcome> {
    if (this.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return super.compareAndPut(record, expected);
  }
}

/** A BroadcastChannel between the test's pages, delivered when the test says. */
function hub() {
  const receivers: ((m: SyncMessage) => void)[] = [];
  const queue: SyncMessage[] = [];
  return {
    channel: (): SyncChannel => ({
      post: (m) => queue.push(m),
      listen: (r) => void receivers.push(r),
      close: () => {},
    }),
    deliver: () => {
      for (const m of queue.splice(0)) for (const r of receivers) r(m);
    },
  };
}

/** One page: a real host in this thread, the work it holds, the notices it shows. */
class Page implements LabWork {
  readonly host = workerHarness();
  labInfo: LabInfo | undefined;
  fileMap: Record<string, string> = {};
  lines: string[] = [];
  notices: { text: string; actions: { label: string; run: () => void }[] }[] = [];
  marks: Record<string, string | undefined> = {};
  said: string[] = [];
  downloads: { name: string; data: unknown }[] = [];
  readonly keeper: LabProgressKeeper;

  readonly wal: WriteAheadLog;

  constructor(store: ProgressStore, channel?: SyncChannel, journal = new JournalStore(new IDBFactory())) {
    const ui: Notices = {
      t: (key, params) => fmt(key, params),
      say: (text) => void this.said.push(text),
      showNotice: (text, actions = []) => void this.notices.push({ text, actions: [...actions] }),
      hideNotice: () => {},
      mark: (key, value) => {
        this.marks[key] = value;
      },
    };
    const writer = Math.random().toString(36).slice(2);
    this.wal = new WriteAheadLog(journal, LAB, writer, NOBODY_LIVE);
    this.keeper = new LabProgressKeeper(LAB, this.host, this, ui, this.wal, {
      store,
      channel,
      writer,
      seed: 7,
      download: (name, data) => void this.downloads.push({ name, data }),
    });
  }
  async open(): Promise<void> {
    const { result, progress } = await this.keeper.restore(await this.keeper.readStored());
    this.show(result, progress);
  }
  async type(line: string): Promise<string> {
    this.lines.push(line);
    this.keeper.changed();
    return (await this.host.request('exec', { line })).stdout;
  }
  lab = () => this.labInfo;
  flush = async () => {};
  fileContents = () => ({ ...this.fileMap });
  history = () => [...this.lines];
  checks = () => null;
  hintLevel = () => 0;
  openFile = () => undefined;
  show(result: LoadResult, progress?: LabProgress): void {
    this.labInfo = result.lab;
    this.fileMap = { ...result.files };
    this.lines = [...(progress?.history ?? result.history)];
  }
  restartTerminal = () => {};
  checkNow = async () => {};
  clusterChanged = () => {};
}

describe('LabProgressKeeper', () => {
  it('saves the cluster and history, and a new page restores both', async () => {
    const store = new ProgressStore(new IDBFactory());
    const a = new Page(store);
    await a.open();
    expect(await a.type('kubectl create deployment keep --image=nginx')).toBe(
      'deployment.apps/keep created\n',
    );
    await a.keeper.save();
    expect(a.marks.rev).toBe('1');
    const b = new Page(store);
    await b.open();
    expect(b.lines).toEqual(['kubectl create deployment keep --image=nginx']);
    expect(await b.type('kubectl get deploy keep -o name')).toBe('deployment.apps/keep\n');
  });

  it('keeps the work in the page while the quota is full, offers an export, and clears the notice once saved', async () => {
    const store = new QuotaStore(new IDBFactory());
    const a = new Page(store);
    await a.open();
    store.full = true;
    await a.type('kubectl create namespace full');
    await a.keeper.save();
    expect(a.marks.storage).toBe('full');
    expect(a.notices.map((n) => n.text)).toEqual(['lab.quotaFull']);
    // The export holds the page's work even though the store does not.
    a.notices[0]!.actions[0]!.run();
    await vi.waitFor(() => expect(a.downloads).toHaveLength(1));
    const exported = a.downloads[0]!.data as { labs: LabProgress[] };
    expect(exported.labs.map((r) => r.history)).toEqual([['kubectl create namespace full']]);
    store.full = false;
    await a.type('true');
    await a.keeper.save();
    expect(a.marks.storage).toBeUndefined();
  });

  it('asks instead of overwriting another tab’s save, and "keep mine" writes this page whole', async () => {
    const factory = new IDBFactory();
    const h = hub();
    const a = new Page(new ProgressStore(factory), h.channel());
    const b = new Page(new ProgressStore(factory), h.channel());
    await a.open();
    await b.open();
    await a.type('kubectl create namespace from-a');
    await b.type('kubectl create namespace from-b');
    await a.keeper.save();
    h.deliver();
    await vi.waitFor(() => expect(b.marks.conflict).toBe('true'));
    const keepMine = b.notices.at(-1)!.actions.find((x) => x.label === 'lab.conflictMine')!;
    keepMine.run();
    await vi.waitFor(() => expect(b.marks.conflict).toBeUndefined());
    await vi.waitFor(() => expect(b.marks.rev).toBe('2'));
    const c = new Page(new ProgressStore(factory));
    await c.open();
    expect(c.lines).toEqual(['kubectl create namespace from-b']);
  });

  it('offers to replay an old record and saves nothing over it until the learner chooses', async () => {
    const store = new ProgressStore(new IDBFactory());
    await store.put({ labId: LAB, files: {}, commands: ['kubectl create namespace old'] });
    const a = new Page(store);
    await a.open();
    expect(a.notices[0]!.text).toBe('lab.savedOld');
    await a.type('true');
    await a.keeper.save();
    expect(((await store.get(LAB)) as { version?: number }).version).toBeUndefined();
    a.notices[0]!.actions.find((x) => x.label === 'lab.migrate')!.run();
    await vi.waitFor(() => expect(a.said).toContain('lab.migrated'));
    await vi.waitFor(async () => expect(((await store.get(LAB)) as LabProgress).version).toBeGreaterThan(0));
    expect(a.lines).toEqual(['kubectl create namespace old']);
    expect(await a.type('kubectl get ns old -o name')).toBe('namespace/old\n');
  });

  it('imports an export file into the store and this page', async () => {
    const store = new ProgressStore(new IDBFactory());
    const a = new Page(store);
    await a.open();
    await a.type('kubectl create namespace moved');
    await a.keeper.exportAll();
    const file = JSON.stringify(a.downloads[0]!.data);
    const other = new Page(new ProgressStore(new IDBFactory()));
    await other.open();
    await other.keeper.importText(file);
    expect(other.said).toEqual(['lab.imported']);
    expect(other.lines).toEqual(['kubectl create namespace moved']);
    await other.keeper.importText('{"not":"an export"}');
    expect(other.said.at(-1)).toBe('lab.importFailed');
  });
});
