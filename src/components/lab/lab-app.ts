/**
 * The lab app, loaded by `<pp-lab>` when the lab nears the viewport. It wires the server-rendered
 * skeleton (Lab.astro) to a host (the Web Worker by default, a WebContainer on request), the xterm
 * terminal with our readline, Monaco (loaded after the prompt is up), the checks panel, the buttons,
 * and saved progress in IndexedDB.
 */
import { createTerminal, isDark, type LabTerminal } from './terminal';
import { Readline } from './readline';
import { createPtyFilter } from './line-editor';
import { HostClient, WORKER_WATCHDOG } from './host-client';
import { connectWorkerHost } from '../../runtime/worker/connect';
import {
  ProgressStore,
  PROGRESS_VERSION,
  buildExport,
  classify,
  parseExport,
  storedDrawSeed,
  type LabProgress,
  type Stored,
} from './progress';
import { ProgressSync, broadcastChannel, type RemoteChange, type SaveOutcome } from './progress-sync';
import { inlineMarkdown } from './inline-markdown';
import { CheckScheduler, checkPercent } from './check-scheduler';
import { redrawSeed } from '../../grader/draw';
import type { LabEditor } from './monaco/editor';
import {
  HostError,
  outputChunks,
  type CheckSummary,
  type HostKind,
  type HostState,
  type JournalStep,
  type LabInfo,
  type LoadResult,
  type LoadStart,
  type Params,
  type RequestType,
  type Result,
  type Transport,
} from '../../runtime/protocol';
import { readLearner, writeLearner, LEARNER_STORAGE_KEY } from './learner';
import { webContainerOffered } from './webcontainer-support';
import type { PpNetwork } from '../visual/network-element';

type Strings = Record<string, string>;

const fmt = (text: string, params: Record<string, string | number> = {}) =>
  text.replace(/\{(\w+)\}/g, (all, k: string) => (k in params ? String(params[k]) : all));

function $(root: ParentNode, selector: string): HTMLElement {
  const el = root.querySelector<HTMLElement>(selector);
  if (!el) throw new Error(`lab skeleton: ${selector} missing`);
  return el;
}

function download(name: string, data: unknown): void {
  const blob = new Blob([JSON.stringify(data, null, 2) + '\n'], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const today = () => new Date().toISOString().slice(0, 10);

/** A draw seed from the browser's randomness (the engine and grader read none). */
const randomSeed = (): number => crypto.getRandomValues(new Uint32Array(1))[0]!;

export class LabApp {
  readonly labId: string;
  readonly lang: 'pt-BR' | 'en';
  private readonly s: Strings;
  private readonly status: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly editorBox: HTMLElement;
  private readonly tabs: HTMLElement;
  private readonly panes: HTMLElement;
  private client!: HostClient;
  private host: HostKind = 'worker';
  private terminal!: LabTerminal;
  private readline!: Readline;
  private editor: LabEditor | undefined;
  private lab: LabInfo | undefined;
  private files = new Map<string, string>();
  private current: string | undefined;
  private checks: CheckSummary | null = null;
  /** Re-runs the checks after commands, applies and editor saves, debounced (see check-scheduler.ts). */
  private readonly checkRuns = new CheckScheduler(() => this.runChecks(false));
  private hintLevel = 0;
  /**
   * Labs with variants: the learner's draw seed, sent with every load so the host starts the variant
   * it draws. Made once (here, for a learner with nothing saved), then read from the saved record;
   * Reset keeps it, "new fault" replaces it.
   */
  private drawSeed = randomSeed();
  private readonly store = new ProgressStore();
  /** Revisions, conflicts and live updates between tabs on this lab (see progress.ts). */
  private readonly sync: ProgressSync;
  private storageOk = true;
  /** The quota notice is up: saves keep being tried, the work stays in the page. */
  private quotaFull = false;
  /** While the learner decides what to do with an old record, nothing overwrites it. */
  private saveSuspended = false;
  private pendingWrites = new Map<string, string>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private salvage: { journal: JournalStep[]; history: string[] } | undefined;
  /** The host state last saved (or loaded): where the watchdog restarts a stuck worker from. */
  private lastState: HostState | undefined;
  /** Set while the watchdog replaces a stuck worker; requests wait for it instead of failing. */
  private restarting: Promise<void> | undefined;
  private restarts = 0;
  /** A replacement worker started while the current one looks stuck (see WatchdogOptions.onSuspect). */
  private spare: HostClient | undefined;
  /** Drops title/clipboard/hyperlink sequences from the WebContainer pty (its output is not neutralised). */
  private readonly ptyFilter = createPtyFilter();

  constructor(
    private readonly root: HTMLElement,
    private readonly initialTransport?: Transport,
  ) {
    this.labId = root.dataset.lab ?? '';
    this.lang = root.dataset.lang === 'en' ? 'en' : 'pt-BR';
    this.s = JSON.parse(root.dataset.strings ?? '{}') as Strings;
    this.status = $(root, '[data-status]');
    this.notice = $(root, '[data-notice]');
    this.editorBox = $(root, '[data-editor]');
    this.tabs = $(root, '[data-tabs]');
    this.panes = $(root, '[data-panes]');
    const writer = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    this.sync = new ProgressSync(
      this.store,
      this.labId,
      writer,
      broadcastChannel(),
      (change) => void this.remoteChange(change),
    );
  }

  /** A change the learner made (file, command, hint, tab…): saved soon. */
  private changed(): void {
    this.sync.touch();
    this.scheduleSave();
  }

  private t(key: string, params?: Record<string, string | number>): string {
    return fmt(this.s[key] ?? key, params);
  }

  private say(text: string): void {
    this.status.textContent = text;
  }

  private debounce(key: string, ms: number, fn: () => void): void {
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        fn();
      }, ms),
    );
  }

  // ---- start ------------------------------------------------------------------------------------

  async start(): Promise<void> {
    this.say(this.t('lab.loading'));
    this.root.dataset.state = 'loading';
    $(this.root, '[data-terminal-pane]').hidden = false;
    $(this.root, '[data-splitter]').hidden = false;
    this.terminal = createTerminal($(this.root, '[data-terminal]'), {
      promptLabel: this.t('lab.terminalInput'),
      tooMuchOutput: this.t('lab.tooMuchOutput'),
    });
    this.readline = new Readline(this.terminal.term, {
      complete: (line, cursor) => this.request('complete', { line, cursor }),
      incomplete: (text) => this.request('incomplete', { text }),
      run: (text, signal) => this.run(text, signal),
      historyChanged: () => this.changed(),
    });
    this.connect(this.workerClient(this.initialTransport), 'worker');

    const stored = await this.readStored();
    let result: LoadResult;
    try {
      result = await this.loadFrom(stored);
    } catch (e) {
      this.root.dataset.state = 'failed';
      this.say(this.t('lab.engineFailed', { reason: e instanceof Error ? e.message : String(e) }));
      throw e;
    }
    this.apply(result, stored.kind === 'ok' ? stored.progress : undefined);
    if (stored.kind === 'ok') this.lastState = stored.progress.state;
    this.readline.start();
    performance.mark('pp-lab:prompt');
    this.root.dataset.state = 'ready';
    this.say(stored.kind === 'ok' ? this.t('lab.restored') : this.t('lab.ready'));
    $(this.root, '[data-toolbar]').hidden = false;
    this.wireToolbar();
    this.wireLearner();
    this.wireSplitter();
    this.watchTheme();
    this.showHost();
    addEventListener('pagehide', () => void this.save());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') void this.save();
    });
    if (stored.kind === 'ok' && stored.progress.checks) this.renderChecks(stored.progress.checks);
    void this.loadEditor();
  }

  /** A worker host under the watchdog (see WORKER_WATCHDOG for the values and why). */
  private workerClient(transport?: Transport): HostClient {
    return new HostClient(transport ?? connectWorkerHost(), {
      ...WORKER_WATCHDOG,
      onDead: () => this.restartHost(),
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

  /** Every request from the app goes through here, so one made during a restart waits for the new host. */
  private async request<T extends RequestType>(
    type: T,
    params: Params<T>,
    opts: { signal?: AbortSignal } = {},
  ): Promise<Result<T>> {
    while (this.restarting) await this.restarting;
    try {
      return await this.client.request(type, params, opts);
    } catch (e) {
      // A question the stuck worker never answered (completion, `incomplete`, checks, state…) is asked
      // again, once, of the new one. A command line is not: it may be what made the engine spin.
      if (!(e instanceof HostError && e.code === 'unresponsive') || type === 'exec' || type === 'hang')
        throw e;
      while (this.restarting) await this.restarting;
      return this.client.request(type, params, opts);
    }
  }

  // ---- watchdog ---------------------------------------------------------------------------------

  private restartHost(): void {
    this.restarting ??= this.replaceStuckWorker().finally(() => {
      this.restarting = undefined;
    });
  }

  /**
   * A new worker from the last saved state, then the page's files written over it: what the learner
   * typed in the editor since that save lives in `this.files`, the history and the line being typed in
   * the readline, so none of it is lost. The line that was running is not run again (it may be what
   * made the engine spin); the notice says so.
   */
  private async replaceStuckWorker(): Promise<void> {
    performance.mark('pp-lab:watchdog-dead');
    this.root.dataset.watchdog = 'restarting';
    this.say(this.t('lab.watchdogRestarting'));
    const warm = this.spare !== undefined;
    const client = this.spare ?? this.workerClient();
    this.spare = undefined;
    const state = this.lastState;
    try {
      const result = await client.request('load', {
        labId: this.labId,
        seed: this.drawSeed,
        start: state ? { kind: 'state', state } : { kind: 'fresh' },
      });
      for (const [path, content] of this.files)
        if (result.files[path] !== content) await client.request('writeFile', { path, content });
      for (const path of Object.keys(result.files))
        if (!this.files.has(path)) await client.request('removeFile', { path });
      this.connect(client, 'worker');
      this.readline.setPrompt(result.prompt);
    } catch (e) {
      client.close();
      this.root.dataset.watchdog = 'failed';
      this.say(this.t('lab.engineFailed', { reason: e instanceof Error ? e.message : String(e) }));
      return;
    }
    const took = performance.measure('pp-lab:watchdog-restart', 'pp-lab:watchdog-dead').duration;
    this.restarts++;
    this.root.dataset.watchdog = 'restarted';
    this.root.dataset.restarts = String(this.restarts);
    this.root.dataset.restartMs = String(Math.round(took));
    this.root.dataset.restartWarm = String(warm);
    this.say(this.t('lab.watchdogRestarted'));
    this.readline.notify(this.t('lab.watchdogTerminal'));
    this.refreshNetwork();
  }

  private connect(client: HostClient, kind: HostKind): void {
    this.client = client;
    this.host = kind;
    client.onEvent((event) => {
      if (event.type === 'file') this.fileChanged(event.path, event.content);
      else if (event.type === 'pty-output') this.terminal.term.write(this.ptyFilter(event.data));
      else if (event.type === 'fatal') this.say(this.t('lab.engineFailed', { reason: event.error.message }));
    });
  }

  private async readStored(): Promise<Stored> {
    try {
      const raw = await this.store.get(this.labId);
      this.sync.loaded(raw);
      return classify(raw, this.labId);
    } catch {
      this.storageOk = false;
      this.showNotice(this.t('lab.storageOff'));
      return { kind: 'none' };
    }
  }

  /** Loads the lab from what was stored; an unreadable record never leaves the lab blank. */
  private async loadFrom(stored: Stored): Promise<LoadResult> {
    this.drawSeed = storedDrawSeed(stored) ?? this.drawSeed;
    const load = (start: LoadStart) =>
      this.request('load', { labId: this.labId, seed: this.drawSeed, start });
    if (stored.kind === 'ok') {
      try {
        return await load({ kind: 'state', state: stored.progress.state });
      } catch (e) {
        this.offerRecovery(e instanceof Error ? e.message : String(e), {
          journal: [...stored.progress.state.journal],
          history: [...stored.progress.history],
        });
        return load({ kind: 'fresh' });
      }
    }
    if (stored.kind === 'old')
      this.offerRecovery(stored.reason, { journal: stored.journal, history: stored.history });
    if (stored.kind === 'corrupt') this.showNotice(this.t('lab.savedCorrupt', { reason: stored.reason }));
    return load({ kind: 'fresh' });
  }

  private apply(result: LoadResult, progress?: LabProgress): void {
    this.lab = result.lab;
    this.files = new Map(Object.entries(result.files));
    this.readline.editor.history = [...(progress?.history ?? result.history)];
    this.readline.editor.reset();
    this.readline.setPrompt(result.prompt);
    this.hintLevel = Math.min(progress?.hintLevel ?? 0, result.lab.hints.length);
    this.current = progress?.openFile && this.files.has(progress.openFile) ? progress.openFile : undefined;
    this.renderHints();
    this.editor?.setFiles(result.files);
    this.renderTabs();
    // Labs with variants: "new fault" draws another; the fault's name waits for a pass (renderChecks).
    $(this.root, '[data-action="new-fault"]').hidden = !result.lab.variant;
    this.root.dataset.variant = result.lab.variant ? 'drawn' : '';
    this.revealVariant(false);
  }

  /** Shows which fault the learner had, once every check passes (labs with variants). */
  private revealVariant(passed: boolean): void {
    const box = $(this.root, '[data-variant]');
    const variant = this.lab?.variant;
    box.hidden = !(passed && variant);
    // The title uses the same inline Markdown as check titles (`code`); inlineMarkdown escapes the rest.
    box.innerHTML =
      passed && variant
        ? inlineMarkdown(this.t('lab.variantRevealed', { title: variant.title[this.lang] }))
        : '';
    if (passed && variant) this.root.dataset.variant = variant.id;
  }

  // ---- notices ----------------------------------------------------------------------------------

  private showNotice(text: string, actions: { label: string; run: () => void }[] = []): void {
    this.notice.replaceChildren();
    const p = document.createElement('p');
    p.textContent = text;
    this.notice.append(p);
    for (const a of actions) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = a.label;
      b.addEventListener('click', () => {
        this.notice.hidden = true;
        a.run();
      });
      this.notice.append(b);
    }
    this.notice.hidden = false;
  }

  private offerRecovery(reason: string, salvage: { journal: JournalStep[]; history: string[] }): void {
    this.salvage = salvage;
    this.saveSuspended = true;
    this.showNotice(this.t('lab.savedOld', { reason }), [
      { label: this.t('lab.migrate'), run: () => void this.recover() },
      {
        label: this.t('lab.startOver'),
        run: () => {
          this.saveSuspended = false;
          this.salvage = undefined;
          void this.store.delete(this.labId).catch(() => {});
          this.sync.loaded(undefined);
          this.changed();
        },
      },
    ]);
  }

  private async recover(): Promise<void> {
    const salvage = this.salvage;
    if (!salvage) return;
    const result = await this.request('load', {
      labId: this.labId,
      seed: this.drawSeed,
      start: { kind: 'replay', journal: salvage.journal },
    });
    this.apply(result);
    if (salvage.history.length > 0) this.readline.editor.history = [...salvage.history];
    this.saveSuspended = false;
    this.salvage = undefined;
    this.terminal.term.reset();
    this.readline.start();
    this.say(this.t('lab.migrated'));
    await this.checkRuns.now();
    this.sync.touch();
    await this.save();
  }

  // ---- terminal ---------------------------------------------------------------------------------

  private async run(text: string, signal: AbortSignal): Promise<void> {
    let r: Result<'exec'>;
    try {
      await this.flushWrites();
      r = await this.request('exec', { line: text }, { signal });
    } catch (e) {
      // The watchdog's notice tells what happened; the prompt comes back on the new worker.
      if (e instanceof HostError && e.code === 'unresponsive') {
        while (this.restarting) await this.restarting;
        return;
      }
      throw e;
    }
    if (r.clear) this.terminal.term.write('\x1b[H\x1b[2J\x1b[3J');
    for (const chunk of outputChunks(r)) this.readline.print(chunk.text);
    this.readline.setPrompt(r.prompt);
    this.checkRuns.schedule();
    if (/^\s*trace\s/.test(text) && r.exitCode !== 2) this.pendingTrace = text;
    this.refreshNetwork();
    this.changed();
  }

  // ---- network view (src/components/visual, loaded on first open) --------------------------------

  private network: PpNetwork | undefined;
  /** The last `trace …` line, drawn as a walk when the Network view is (or next gets) open. */
  private pendingTrace: string | undefined;

  private async toggleNetwork(button: HTMLButtonElement): Promise<void> {
    const box = $(this.root, '[data-network]');
    const open = box.hidden;
    box.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (!open) return;
    if (this.network) return this.refreshNetwork();
    const { defineVisualElements } = await import('../visual/index');
    defineVisualElements();
    const el = document.createElement('pp-network') as PpNetwork;
    el.dataset.lang = this.lang;
    box.append(el);
    this.network = el;
    // Through `this.client` at call time, so a host switch carries over.
    await el.connectHost({
      state: (signal) => this.request('network', {}, signal ? { signal } : {}),
      trace: (request, signal) => this.request('trace', request, signal ? { signal } : {}),
    });
    this.playPendingTrace();
  }

  private playPendingTrace(): void {
    const line = this.pendingTrace;
    if (!line || !this.network) return;
    this.pendingTrace = undefined;
    void this.network.traceCommand(line);
  }

  /** Redraws the Network view after anything that may change the cluster, when it is open. */
  private refreshNetwork(): void {
    if (!this.network || $(this.root, '[data-network]').hidden) return;
    void this.network.refresh().then(() => this.playPendingTrace());
  }

  // ---- files and editor -------------------------------------------------------------------------

  private fileChanged(path: string, content: string | null): void {
    const known = this.files.has(path);
    if (content === null) {
      this.files.delete(path);
      this.editor?.remove(path);
      if (this.current === path) this.current = undefined;
    } else {
      this.files.set(path, content);
      this.editor?.setContent(path, content);
      this.scheduleValidate(path);
    }
    if (known !== (content !== null)) this.renderTabs();
    this.changed();
  }

  private async flushWrites(): Promise<void> {
    const writes = [...this.pendingWrites];
    this.pendingWrites.clear();
    clearTimeout(this.timers.get('writes'));
    await Promise.all(writes.map(([path, content]) => this.request('writeFile', { path, content })));
  }

  private editorChanged(path: string, content: string): void {
    this.files.set(path, content);
    this.pendingWrites.set(path, content);
    // A write the stuck worker never took is not lost: the file is in `this.files`, which a restart writes.
    this.debounce('writes', 150, () => void this.flushWrites().catch(() => {}));
    this.scheduleValidate(path);
    // An output check may read the file (`cat`, a dry run): the edit can change a verdict.
    this.checkRuns.schedule();
    this.changed();
  }

  private scheduleValidate(path: string): void {
    if (!this.editor || !/\.ya?ml$/.test(path)) return;
    this.debounce(`validate:${path}`, 500, () => void this.validate(path));
  }

  private async validate(path: string): Promise<void> {
    try {
      await this.flushWrites();
      const diagnostics = await this.request('validate', { path });
      this.editor?.setDiagnostics(path, diagnostics);
    } catch {
      // validation is best effort (a pty host may not offer it)
    }
  }

  private async loadEditor(): Promise<void> {
    const loading = document.createElement('p');
    loading.className = 'pp-lab__editor-loading';
    loading.textContent = this.t('lab.editorLoading');
    this.editorBox.prepend(loading);
    try {
      const { loadEditorModule } = await import('./editor-loader');
      const { LabEditor } = await loadEditorModule(this.lang);
      const host = document.createElement('div');
      host.className = 'pp-lab__monaco';
      host.id = `${this.root.dataset.lab}-editor`;
      this.editorBox.append(host);
      $(this.root, '[data-static]').hidden = true;
      this.editor = new LabEditor(host, {
        labId: this.labId,
        dark: isDark(),
        ariaLabel: (file) => this.t('lab.editorLabel', { file }),
        onChange: (path, content) => this.editorChanged(path, content),
      });
      this.editor.setFiles(Object.fromEntries(this.files));
      this.renderTabs();
      $(this.root, '[data-editor-help]').hidden = false;
      performance.mark('pp-lab:editor');
      this.root.dataset.editor = 'ready';
      for (const path of this.files.keys()) this.scheduleValidate(path);
    } finally {
      loading.remove();
    }
  }

  private renderTabs(): void {
    const paths = [...this.files.keys()].sort();
    if (!this.current || !this.files.has(this.current))
      this.current = paths.find((p) => /\.ya?ml$/.test(p)) ?? paths[0];
    this.tabs.replaceChildren();
    if (!this.editor) return;
    this.tabs.hidden = paths.length === 0;
    const panelId = `${this.labId}-editor`;
    for (const path of paths) {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.role = 'tab';
      tab.textContent = path;
      tab.dataset.file = path;
      tab.id = `${this.labId}-tab-${path.replace(/[^\w-]/g, '_')}`;
      tab.setAttribute('aria-controls', panelId);
      const selected = path === this.current;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      tab.addEventListener('click', () => this.openFile(path));
      tab.addEventListener('keydown', (e) => {
        const i = paths.indexOf(path);
        const next =
          e.key === 'ArrowRight'
            ? paths[(i + 1) % paths.length]
            : e.key === 'ArrowLeft'
              ? paths[(i - 1 + paths.length) % paths.length]
              : undefined;
        if (next) {
          e.preventDefault();
          this.openFile(next);
          this.tabs.querySelector<HTMLElement>(`[data-file="${CSS.escape(next)}"]`)?.focus();
        }
      });
      this.tabs.append(tab);
    }
    const panel = document.getElementById(panelId);
    if (panel) {
      panel.setAttribute('role', 'tabpanel');
      const active = this.tabs.querySelector('[aria-selected="true"]');
      if (active) panel.setAttribute('aria-labelledby', active.id);
    }
    if (this.current) this.editor.open(this.current);
  }

  private openFile(path: string): void {
    this.current = path;
    this.renderTabs();
    this.changed();
  }

  // ---- checks, hints, solution ------------------------------------------------------------------

  private async runChecks(announce: boolean): Promise<void> {
    try {
      // Editor text not yet sent would be missing from what the checks see.
      await this.flushWrites();
      const summary = await this.request('check', {});
      const before = this.checks;
      this.renderChecks(summary);
      // The verdicts are part of the saved record: new ones must be saved even when the command that
      // changed them was saved before they came back (the run is debounced, so it often is).
      if (JSON.stringify(before) !== JSON.stringify(summary)) this.sync.touch();
      if (announce) {
        this.say(summary.passed === summary.total ? this.t('lab.checkAllPassed') : this.summaryText(summary));
      }
      this.scheduleSave();
    } catch {
      // checks are re-run after the next command
    }
  }

  private renderChecks(summary: CheckSummary): void {
    this.keepWorkInPlace(() => this.renderCheckList(summary));
  }

  /**
   * Runs `change`, which may grow the panels above the work area (one-column layout), without moving the
   * terminal or editor the learner is typing in: otherwise a check run after a command can push the prompt
   * out of view. The browser's scroll anchoring does not help here: on a Starlight page it anchors on the
   * sticky table of contents. Checks the learner asked for (the Check button) come with focus on the
   * toolbar, so they still grow into view.
   */
  private keepWorkInPlace(change: () => void): void {
    const focus = document.activeElement;
    if (!focus || !this.panes.contains(focus)) return change();
    const before = this.panes.getBoundingClientRect().top;
    change();
    const moved = this.panes.getBoundingClientRect().top - before;
    // Maximized, the lab is its own scroller.
    const scroller = this.root.classList.contains('pp-lab--max') ? this.root : window;
    if (moved !== 0) scroller.scrollBy(0, moved);
  }

  private renderCheckList(summary: CheckSummary): void {
    this.checks = summary;
    const list = $(this.root, '[data-check-list]');
    list.replaceChildren();
    for (const r of summary.results) {
      const li = document.createElement('li');
      li.dataset.check = r.id;
      const passed = r.status === 'pass';
      li.dataset.state = passed ? 'passed' : 'failed';
      const title = document.createElement('span');
      title.className = 'pp-lab__check-title';
      // Check titles use the same inline Markdown as steps (`code`); inlineMarkdown escapes the rest.
      title.innerHTML = inlineMarkdown(r.title[this.lang]);
      const state = document.createElement('span');
      state.className = 'pp-lab__check-state';
      state.textContent = passed ? this.t('lab.checkPassed') : this.t('lab.checkFailed');
      li.append(title, state);
      if (!passed) {
        const why = document.createElement('span');
        why.className = 'pp-lab__check-message';
        why.textContent = [r.observed[this.lang], r.hop?.[this.lang]].filter(Boolean).join(' — ');
        li.append(why);
      }
      list.append(li);
    }
    const text = this.summaryText(summary);
    const line = $(this.root, '[data-check-summary]');
    // A live region: an unchanged summary is not set again, so it is not read out after every command.
    if (line.textContent !== text) line.textContent = text;
    const bar = $(this.root, '[data-check-progress]') as HTMLProgressElement;
    bar.max = Math.max(summary.total, 1);
    bar.value = summary.passed;
    bar.hidden = false;
    this.root.dataset.percent = String(checkPercent(summary));
    this.revealVariant(summary.total > 0 && summary.passed === summary.total);
  }

  /** "3 of 5 checks pass (60%)." Hidden checks count like the others. */
  private summaryText(summary: CheckSummary): string {
    return this.t('lab.checkSummary', {
      passed: summary.passed,
      total: summary.total,
      percent: checkPercent(summary),
    });
  }

  private renderHints(): void {
    const box = $(this.root, '[data-hints]');
    const list = $(this.root, '[data-hint-list]');
    const hints = this.lab?.hints ?? [];
    list.replaceChildren();
    hints.slice(0, this.hintLevel).forEach((hint, i) => {
      const li = document.createElement('li');
      const label = document.createElement('strong');
      label.textContent = `${this.t('lab.hintN', { n: i + 1, total: hints.length })}: `;
      const text = document.createElement('span');
      text.innerHTML = inlineMarkdown(hint[this.lang]);
      li.append(label, text);
      list.append(li);
    });
    box.hidden = this.hintLevel === 0;
  }

  private nextHint(): void {
    const total = this.lab?.hints.length ?? 0;
    if (this.hintLevel >= total) {
      this.say(this.t('lab.noMoreHints'));
      return;
    }
    this.hintLevel++;
    this.renderHints();
    const last = this.lab?.hints[this.hintLevel - 1];
    if (last)
      this.say(`${this.t('lab.hintN', { n: this.hintLevel, total })}: ${last[this.lang].replace(/`/g, '')}`);
    this.changed();
  }

  private confirm(text: string): Promise<boolean> {
    const dialog = $(this.root, '[data-dialog]') as HTMLDialogElement;
    $(dialog, '[data-dialog-text]').textContent = text;
    dialog.returnValue = '';
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
      dialog.showModal();
    });
  }

  private showSolution(): void {
    const lab = this.lab;
    if (!lab) return;
    const box = $(this.root, '[data-solution]');
    box.replaceChildren();
    const h = document.createElement('h3');
    h.textContent = this.t('lab.solutionHeading');
    const pre = document.createElement('pre');
    pre.tabIndex = 0;
    pre.textContent = lab.solution.commands.join('\n');
    box.append(h);
    const files = Object.keys(lab.solution.files);
    if (files.length > 0) {
      const p = document.createElement('p');
      p.textContent = `${this.t('lab.solutionFiles')} ${files.join(', ')}`;
      box.append(p);
    }
    const run = document.createElement('button');
    run.type = 'button';
    run.textContent = this.t('lab.solutionRun');
    run.addEventListener('click', () => void this.runSolution());
    box.append(pre, run);
    box.hidden = false;
    h.tabIndex = -1;
    h.focus();
  }

  private async runSolution(): Promise<void> {
    const lab = this.lab;
    if (!lab) return;
    for (const [path, content] of Object.entries(lab.solution.files)) {
      await this.request('writeFile', { path, content });
      this.fileChanged(path, content);
    }
    for (const line of lab.solution.commands) await this.readline.submit(line);
    this.terminal.term.focus();
  }

  /** Labs with variants: a seed that draws another variant, then a Reset onto it. */
  private async newFault(): Promise<void> {
    const variant = this.lab?.variant;
    if (!variant) return;
    this.drawSeed = redrawSeed(this.labId, variant.of, this.drawSeed, randomSeed);
    await this.reset();
    this.say(this.t('lab.newFaultDone'));
  }

  private async reset(): Promise<void> {
    this.checkRuns.cancel();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.pendingWrites.clear();
    const result = await this.request('load', {
      labId: this.labId,
      seed: this.drawSeed,
      start: { kind: 'fresh' },
    });
    this.apply({ ...result, history: [] });
    this.readline.editor.history = [];
    this.hintLevel = 0;
    this.renderHints();
    $(this.root, '[data-solution]').hidden = true;
    this.terminal.term.reset();
    this.readline.start();
    this.saveSuspended = false;
    this.notice.hidden = true;
    await this.checkRuns.now();
    this.refreshNetwork();
    this.sync.touch();
    await this.save();
    this.say(this.t('lab.resetDone'));
  }

  // ---- saving, export, import -------------------------------------------------------------------

  private scheduleSave(): void {
    this.debounce('save', 400, () => void this.save());
  }

  /** This tab's whole progress as a record (without `rev`, which the store assigns). */
  private async currentRecord(lab: LabInfo): Promise<Omit<LabProgress, 'rev'>> {
    await this.flushWrites();
    const state = await this.request('state', {});
    this.lastState = state;
    return {
      version: PROGRESS_VERSION,
      labId: this.labId,
      labVersion: lab.version,
      files: Object.fromEntries(this.files),
      state,
      history: [...this.readline.editor.history],
      checks: this.checks,
      hintLevel: this.hintLevel,
      openFile: this.current,
      updatedAt: new Date().toISOString(),
      ...(lab.variant ? { drawSeed: this.drawSeed } : {}),
    };
  }

  async save(): Promise<void> {
    const lab = this.lab;
    if (!this.storageOk || this.saveSuspended || !lab || !this.sync.dirty || this.sync.inConflict) return;
    try {
      const record = await this.currentRecord(lab);
      this.saved(await this.sync.save(record), record.updatedAt);
    } catch {
      // the host did not answer (the watchdog is on it): the next change tries again
    }
  }

  private saved(outcome: SaveOutcome, at: string): void {
    if (outcome === 'saved') {
      this.root.dataset.saved = at;
      this.root.dataset.rev = String(this.sync.rev);
      if (this.quotaFull) {
        this.quotaFull = false;
        delete this.root.dataset.storage;
        this.notice.hidden = true;
      }
    } else if (outcome === 'quota' && !this.quotaFull) {
      this.quotaFull = true;
      this.root.dataset.storage = 'full';
      this.showNotice(this.t('lab.quotaFull'), [
        { label: this.t('lab.exportNow'), run: () => void this.exportAll() },
      ]);
    } else if (outcome === 'conflict') {
      this.showConflict();
    }
  }

  // ---- other tabs -------------------------------------------------------------------------------

  private async remoteChange(change: RemoteChange): Promise<void> {
    if (change === 'conflict') {
      this.showConflict();
      return;
    }
    await this.adopt(await this.store.get(this.labId));
    this.say(this.t('lab.otherTabUpdated'));
  }

  private showConflict(): void {
    this.root.dataset.conflict = 'true';
    this.showNotice(this.t('lab.conflict'), [
      {
        label: this.t('lab.conflictTheirs'),
        run: () =>
          void this.sync.takeTheirs().then(async (raw) => {
            await this.adopt(raw);
            this.say(this.t('lab.otherTabUpdated'));
          }),
      },
      {
        label: this.t('lab.conflictMine'),
        run: () => void this.keepMine(),
      },
    ]);
  }

  private async keepMine(): Promise<void> {
    const lab = this.lab;
    if (!lab) return;
    delete this.root.dataset.conflict;
    const record = await this.currentRecord(lab);
    this.saved(await this.sync.keepMine(record), record.updatedAt);
  }

  /** Shows a record another tab saved: its files, cluster, history, checks and hints. */
  private async adopt(raw: unknown): Promise<void> {
    const stored = classify(raw, this.labId);
    if (stored.kind !== 'ok') return;
    this.drawSeed = storedDrawSeed(stored) ?? this.drawSeed;
    const result = await this.request('load', {
      labId: this.labId,
      seed: this.drawSeed,
      start: { kind: 'state', state: stored.progress.state },
    });
    this.apply(result, stored.progress);
    this.lastState = stored.progress.state;
    this.sync.loaded(raw);
    delete this.root.dataset.conflict;
    this.notice.hidden = true;
    this.terminal.term.reset();
    this.readline.start();
    if (stored.progress.checks) this.renderChecks(stored.progress.checks);
    this.refreshNetwork();
    this.root.dataset.rev = String(this.sync.rev);
  }

  /** Download report: the host builds it (with the name from the field, if any), after pending edits. */
  private async downloadReport(): Promise<void> {
    let report: unknown;
    try {
      await this.flushWrites();
      report = await this.request('report', {
        locale: this.lang,
        submittedAt: new Date().toISOString(),
        learner: ($(this.root, '[data-learner]') as HTMLInputElement).value,
      });
    } catch (e) {
      this.say(this.t('lab.reportFailed', { reason: e instanceof Error ? e.message : String(e) }));
      return;
    }
    download(`packetpath-report-${this.labId}-${today()}.json`, report);
  }

  /**
   * The optional name for grade reports. Kept site-wide (localStorage), not with a lab's progress: it
   * belongs to the learner, not to a lab, so it is typed once for every lab, survives Reset and "new
   * fault", and needs no change to the saved-progress format. Other tabs pick up a change.
   */
  private wireLearner(): void {
    const input = $(this.root, '[data-learner]') as HTMLInputElement;
    input.value = readLearner();
    input.addEventListener('input', () => writeLearner(input.value));
    addEventListener('storage', (e) => {
      if (e.key === LEARNER_STORAGE_KEY && document.activeElement !== input) input.value = e.newValue ?? '';
    });
    $(this.root, '[data-learner-box]').hidden = false;
  }

  private async exportAll(): Promise<void> {
    await this.save();
    const stored = this.storageOk ? await this.store.all().catch(() => []) : [];
    // With the quota full (or a conflict) the page holds work the store does not: export the page's.
    const lab = this.lab;
    const mine =
      lab && (this.quotaFull || this.sync.dirty)
        ? [{ ...(await this.currentRecord(lab)), rev: this.sync.rev }]
        : [];
    const records = [
      ...stored.filter((r) => !(mine.length > 0 && (r as { labId?: unknown }).labId === this.labId)),
      ...mine,
    ];
    download(`packetpath-progress-${today()}.json`, buildExport(records));
  }

  private async importFile(file: File): Promise<void> {
    try {
      const entries = parseExport(await file.text());
      for (const { record } of entries) await this.store.put(record as Record<string, unknown>);
      this.say(this.t('lab.imported', { count: entries.length }));
      const mine = entries.find((e) => e.labId === this.labId);
      if (mine) {
        this.sync.loaded(mine.record);
        const stored = classify(mine.record, this.labId);
        const result = await this.loadFrom(stored);
        this.apply(result, stored.kind === 'ok' ? stored.progress : undefined);
        this.terminal.term.reset();
        this.readline.start();
        if (stored.kind === 'ok' && stored.progress.checks) this.renderChecks(stored.progress.checks);
      }
    } catch (e) {
      this.say(this.t('lab.importFailed', { reason: e instanceof Error ? e.message : String(e) }));
    }
  }

  // ---- hosts ------------------------------------------------------------------------------------

  private showHost(): void {
    const label = $(this.root, '[data-host]');
    label.textContent =
      this.host === 'webcontainer' ? this.t('lab.hostWebContainer') : this.t('lab.hostWorker');
    label.hidden = false;
    const button = $(this.root, '[data-action="host"]');
    button.hidden = this.host === 'worker' && !webContainerOffered();
    button.textContent =
      this.host === 'webcontainer' ? this.t('lab.useWorker') : this.t('lab.useWebContainer');
  }

  /** Moves the lab to the other host, carrying the state as an engine snapshot. */
  private async switchHost(): Promise<void> {
    await this.flushWrites();
    const state = await this.request('state', {});
    const start: LoadStart = { kind: 'state', state };
    if (this.host === 'webcontainer') {
      const next = new HostClient(connectWorkerHost());
      const result = await next.request('load', { labId: this.labId, seed: this.drawSeed, start });
      this.client.close();
      this.connect(next, 'worker');
      this.readline.setPassthrough(undefined);
      this.terminal.term.reset();
      this.apply(result);
      this.readline.start();
      this.showHost();
      return;
    }
    this.say(this.t('lab.wcBooting', { percent: 0 }));
    const { connectWebContainerHost } = await import('../../runtime/webcontainer/connect');
    const next = new HostClient(
      connectWebContainerHost({
        timeoutMs: Number(localStorage.getItem('packetpath.webcontainer.timeout')) || 30_000,
      }),
    );
    next.onEvent((event) => {
      if (event.type === 'progress')
        this.say(this.t('lab.wcBooting', { percent: Math.round(event.ratio * 100) }));
    });
    try {
      await next.request('load', { labId: this.labId, seed: this.drawSeed, start });
    } catch (e) {
      next.close();
      this.showNotice(this.t('lab.wcFailed', { reason: e instanceof Error ? e.message : String(e) }));
      this.say(this.t('lab.wcFailed', { reason: e instanceof Error ? e.message : String(e) }));
      this.root.dataset.host = 'worker';
      return;
    }
    this.client.close();
    this.connect(next, 'webcontainer');
    this.terminal.term.reset();
    this.readline.setPassthrough((data) => void next.request('ptyInput', { data }).catch(() => {}));
    const { cols, rows } = this.terminal.term;
    void next.request('ptyResize', { cols, rows }).catch(() => {});
    this.terminal.term.onResize(({ cols: c, rows: r }) => {
      if (this.host === 'webcontainer') void this.request('ptyResize', { cols: c, rows: r }).catch(() => {});
    });
    this.root.dataset.host = 'webcontainer';
    this.say(this.t('lab.wcReady'));
    this.showHost();
  }

  // ---- layout -----------------------------------------------------------------------------------

  private wireToolbar(): void {
    const toolbar = $(this.root, '[data-toolbar]');
    const fileInput = $(this.root, '[data-import-file]') as HTMLInputElement;
    fileInput.addEventListener('change', () => {
      const file = fileInput.files?.[0];
      if (file) void this.importFile(file);
      fileInput.value = '';
    });
    toolbar.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-action]');
      if (!button) return;
      switch (button.dataset.action) {
        case 'check':
          this.checkRuns.cancel();
          void this.runChecks(true);
          break;
        case 'hint':
          this.nextHint();
          break;
        case 'reset':
          void this.confirm(this.t('lab.resetConfirm')).then((yes) => {
            if (yes) void this.reset();
          });
          break;
        case 'new-fault':
          void this.confirm(this.t('lab.newFaultConfirm')).then((yes) => {
            if (yes) void this.newFault();
          });
          break;
        case 'solution':
          void this.confirm(this.t('lab.solutionConfirm')).then((yes) => {
            if (yes) this.showSolution();
          });
          break;
        case 'report':
          void this.downloadReport();
          break;
        case 'export':
          void this.exportAll();
          break;
        case 'import':
          fileInput.click();
          break;
        case 'host':
          void this.switchHost();
          break;
        case 'network':
          void this.toggleNetwork(button);
          break;
        case 'maximize': {
          const on = !this.root.classList.contains('pp-lab--max');
          this.root.classList.toggle('pp-lab--max', on);
          document.documentElement.classList.toggle('pp-lab-open', on);
          button.setAttribute('aria-pressed', String(on));
          requestAnimationFrame(() => {
            this.terminal.fit();
            this.editor?.layout();
          });
          break;
        }
      }
    });
  }

  private wireSplitter(): void {
    const splitter = $(this.root, '[data-splitter]');
    const set = (pct: number) => {
      const v = Math.max(20, Math.min(80, Math.round(pct)));
      this.panes.style.setProperty('--pp-split', `${v}%`);
      splitter.setAttribute('aria-valuenow', String(v));
      this.terminal.fit();
    };
    splitter.addEventListener('keydown', (e) => {
      const now = Number(splitter.getAttribute('aria-valuenow'));
      const step =
        e.key === 'ArrowUp'
          ? -5
          : e.key === 'ArrowDown'
            ? 5
            : e.key === 'Home'
              ? -100
              : e.key === 'End'
                ? 100
                : 0;
      if (step !== 0) {
        e.preventDefault();
        set(now + step);
      }
    });
    splitter.addEventListener('pointerdown', (e) => {
      splitter.setPointerCapture(e.pointerId);
      const move = (ev: PointerEvent) => {
        const rect = this.panes.getBoundingClientRect();
        set(((ev.clientY - rect.top) / rect.height) * 100);
      };
      const up = () => {
        splitter.removeEventListener('pointermove', move);
        splitter.removeEventListener('pointerup', up);
      };
      splitter.addEventListener('pointermove', move);
      splitter.addEventListener('pointerup', up);
    });
  }

  private watchTheme(): void {
    new MutationObserver(() => {
      const dark = isDark();
      this.terminal.setDark(dark);
      this.editor?.setTheme(dark);
    }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  }
}

export async function mountLab(root: HTMLElement, transport?: Transport): Promise<LabApp> {
  const app = new LabApp(root, transport);
  (root as HTMLElement & { labApp?: LabApp }).labApp = app;
  await app.start();
  return app;
}
