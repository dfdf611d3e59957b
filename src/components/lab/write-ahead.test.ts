/**
 * Durable by construction (issue 20 item 1): a page is killed at random moments (mid-command, 0 ms
 * after a command's output, while an edit waits to be sent, before or during a save) and a new page
 * opened on the same storage must show the cluster, files and history of everything the learner saw
 * take effect, each step applied exactly once.
 */
import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LabFiles } from './lab-files.ts';
import { LabProgressKeeper, type LabWork } from './lab-progress.ts';
import { ProgressStore, type LabProgress, type PutOutcome } from './progress.ts';
import { JournalStore, WriteAheadLog, execJournaled, type Liveness, type Tail } from './write-ahead.ts';
import { fmt } from './lab-ui.ts';
import { HostSession } from './host-session.ts';
import { workerTransport } from '../../runtime/test-host.ts';
import type { LabInfo, LoadResult } from '../../runtime/protocol.ts';

const LAB = '00-sandbox';
const NOBODY_LIVE: Liveness = { hold: () => {}, isHeld: async () => false };

/** Storage that stops taking writes the moment its page dies (writes already started finish). */
class DyingProgress extends ProgressStore {
  dead = false;
  override async compareAndPut(record: Omit<LabProgress, 'rev'>, expected: number): Promise<PutOutcome> {
    if (this.dead) throw new Error('page gone');
    return super.compareAndPut(record, expected);
  }
}
class DyingJournal extends JournalStore {
  dead = false;
  override async put(tail: Tail): Promise<void> {
    if (this.dead) throw new Error('page gone');
    return super.put(tail);
  }
}

/** One page of the lab without its DOM: the same parts LabApp wires, in the same order. */
class Page implements LabWork {
  /** The page's own session over a real host in this thread, as the lab talks to its worker. */
  readonly host = new HostSession({
    openWorker: () => workerTransport().transport,
    recoveryPoint: () => ({ load: { labId: LAB, seed: 3, start: { kind: 'fresh' } }, files: new Map() }),
    onEvent: (e) => {
      if (e.type === 'file') this.files.fromHost(e.path, e.content);
    },
    onRestarting: () => {},
    onRestarted: () => {},
    onRestartFailed: () => {},
  });
  readonly progressStore: DyingProgress;
  readonly journalStore: DyingJournal;
  readonly wal: WriteAheadLog;
  readonly files: LabFiles;
  readonly keeper: LabProgressKeeper;
  labInfo: LabInfo | undefined;
  lines: string[] = [];
  /** What the learner saw take effect: lines whose output came back, and file edits. */
  readonly seen: { lines: string[]; files: Map<string, string> } = { lines: [], files: new Map() };

  constructor(factory: IDBFactory) {
    this.progressStore = new DyingProgress(factory);
    this.journalStore = new DyingJournal(factory);
    const writer = Math.random().toString(36).slice(2);
    this.wal = new WriteAheadLog(this.journalStore, LAB, writer, NOBODY_LIVE);
    this.files = new LabFiles(this.host, () => this.keeper.changed(), this.wal);
    this.keeper = new LabProgressKeeper(
      LAB,
      this.host,
      this,
      {
        t: (k, p) => fmt(k, p),
        say: () => {},
        showNotice: () => {},
        hideNotice: () => {},
        mark: () => {},
      },
      this.wal,
      { store: this.progressStore, channel: undefined, writer, seed: 3, download: () => {} },
    );
  }
  async open(): Promise<void> {
    const { result, progress } = await this.keeper.restore(await this.keeper.readStored());
    this.show(result, progress);
  }
  async run(line: string): Promise<void> {
    this.lines.push(line);
    this.keeper.changed();
    const r = await execJournaled(this.wal, this.host, () => this.files.flush(), line);
    if (r) this.seen.lines.push(line);
  }
  edit(path: string, content: string): void {
    this.files.edited(path, content);
  }
  kill(): void {
    this.progressStore.dead = true;
    this.journalStore.dead = true;
  }
  close(): void {
    this.host.close();
  }
  lab = () => this.labInfo;
  flush = () => this.files.flush();
  fileContents = () => this.files.toRecord();
  history = () => [...this.lines];
  checks = () => null;
  hintLevel = () => 0;
  openFile = () => undefined;
  show(result: LoadResult, progress?: LabProgress): void {
    this.labInfo = result.lab;
    this.files.setAll(result.files);
    this.lines = [...(progress?.history ?? result.history)];
  }
  restartTerminal = () => {};
  checkNow = async () => {};
  clusterChanged = () => {};
}

const out = async (p: Page, line: string) => (await p.host.request('exec', { line })).stdout;

type Action =
  | { kind: 'run'; line: string }
  | { kind: 'edit'; content: string }
  | { kind: 'save' }
  | { kind: 'pause'; ms: number };

const actions = fc.array(
  fc.oneof(
    // Not idempotent: a line applied twice shows twice; one lost is missing.
    fc.integer({ min: 0, max: 99 }).map((n): Action => ({ kind: 'run', line: `echo line-${n} >> log.txt` })),
    fc
      .integer({ min: 0, max: 9 })
      .map((n): Action => ({ kind: 'run', line: `kubectl create namespace ns-${n}` })),
    fc.integer({ min: 1, max: 9 }).map((n): Action => ({ kind: 'edit', content: `replicas: ${n}\n` })),
    fc.constant<Action>({ kind: 'save' }),
    fc.integer({ min: 0, max: 30 }).map((ms): Action => ({ kind: 'pause', ms })),
  ),
  { minLength: 1, maxLength: 10 },
);

describe('the write-ahead journal', () => {
  it(
    'restores exactly what the learner saw take effect after a reload at any moment',
    { timeout: 240_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(actions, fc.integer({ min: 0, max: 12 }), async (script, killAfter) => {
          const factory = new IDBFactory();
          const a = new Page(factory);
          await a.open();
          const running: Promise<void>[] = [];
          let lastRun: Promise<void> = Promise.resolve();
          // The page dies after `killAfter` actions were started; the last one may still be running
          // (mid-command), or have just answered (0 ms after its output).
          for (const [i, act] of script.entries()) {
            if (i === killAfter) break;
            if (act.kind === 'run') {
              // The terminal runs one line at a time; edits, saves and the kill may come while it runs.
              await lastRun;
              const r = (lastRun = a.run(act.line));
              running.push(r);
              if (i % 2 === 0) await r;
            } else if (act.kind === 'edit') {
              a.edit('web.yaml', act.content);
              a.seen.files.set('web.yaml', act.content);
            } else if (act.kind === 'save') running.push(a.keeper.save());
            else await new Promise((r) => setTimeout(r, act.ms));
          }
          // Edits are journaled a moment after they are typed (an IndexedDB write): wait for that one
          // write, not for the host, so the kill still lands before the edit reaches the host.
          await new Promise((r) => setTimeout(r, 5));
          const seenLines = [...a.seen.lines];
          const seenFiles = new Map(a.seen.files);
          a.kill();
          await Promise.allSettled(running);

          const b = new Page(factory);
          await b.open();
          // History: everything whose output was seen, in order; at most the lines also typed after.
          expect(b.lines.slice(0, seenLines.length)).toEqual(seenLines);
          expect(a.lines.slice(0, b.lines.length)).toEqual(b.lines);
          // The cluster and files: each restored line applied exactly once.
          const appended = b.lines.filter((l) => l.startsWith('echo ')).map((l) => l.split(' ')[1]);
          expect(await out(b, 'cat log.txt 2>/dev/null; true')).toBe(appended.map((w) => `${w}\n`).join(''));
          for (const line of b.lines.filter((l) => l.startsWith('kubectl create namespace'))) {
            const name = line.split(' ').at(-1)!;
            expect(await out(b, `kubectl get namespace ${name} -o name`)).toBe(`namespace/${name}\n`);
          }
          for (const [path, content] of seenFiles) {
            expect(b.files.get(path)).toBe(content);
            expect(await out(b, `cat ${path}`)).toBe(content);
          }
        }),
        { numRuns: 25, seed: 20 },
      );
    },
  );

  it('keeps a command whose output came back when the page dies 0 ms later, before any save', async () => {
    const factory = new IDBFactory();
    const a = new Page(factory);
    await a.open();
    await a.run('kubectl create deployment keep --image=nginx');
    a.kill();
    const b = new Page(factory);
    await b.open();
    expect(b.lines).toEqual(['kubectl create deployment keep --image=nginx']);
    expect(await out(b, 'kubectl get deploy keep -o name')).toBe('deployment.apps/keep\n');
    // A second reload before any save still finds it (the tail moved to the new page, not away).
    b.kill();
    const c = new Page(factory);
    await c.open();
    expect(await out(c, 'kubectl get deploy keep -o name')).toBe('deployment.apps/keep\n');
  });

  it('does not replay a tail a save already holds, nor another live tab’s tail', async () => {
    const factory = new IDBFactory();
    const a = new Page(factory);
    await a.open();
    await a.run('echo once >> log.txt');
    a.keeper.changed();
    await a.keeper.save();
    expect(a.keeper.rev).toBe(1);
    a.kill();
    const b = new Page(factory);
    await b.open();
    expect(await out(b, 'cat log.txt')).toBe('once\n');
    // A tab that is still open keeps its unsaved tail to itself.
    const live = new Set<string>();
    const liveness: Liveness = { hold: (k) => void live.add(k), isHeld: async (k) => live.has(k) };
    const journal = new JournalStore(factory);
    const other = new WriteAheadLog(journal, LAB, 'open-tab', liveness);
    await other.recover(b.keeper.rev);
    await other.append({ run: 'echo not-mine >> log.txt' });
    const c = new WriteAheadLog(journal, LAB, 'new-tab', liveness);
    expect(await c.recover(b.keeper.rev)).toEqual([]);
  });
});
