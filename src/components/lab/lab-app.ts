/**
 * The lab app, loaded by `<pp-lab>` when the lab nears the viewport. It only wires the parts: the host
 * session and its watchdog (host-session.ts), the files (lab-files.ts) and the editor (editor-pane.ts),
 * the checks panel (checks-panel.ts, checks-view.ts), saved progress and the other tabs
 * (lab-progress.ts), the host switch (host-switch.ts) and the layout (lab-layout.ts), around the xterm
 * terminal with our readline.
 */
import { createTerminal, type LabTerminal } from './terminal';
import { Readline } from './readline';
import { createPtyFilter } from './line-editor';
import { connectWorkerHost } from '../../runtime/worker/connect';
import { ProgressStore, type LabProgress } from './progress';
import { broadcastChannel } from './progress-sync';
import { CheckScheduler } from './check-scheduler';
import { redrawSeed } from '../../grader/draw';
import {
  HostError,
  outputChunks,
  type LabInfo,
  type LoadResult,
  type Result,
  type Transport,
} from '../../runtime/protocol';
import type { PpNetwork } from '../visual/network-element';
import { LabUi, downloadJson, randomSeed } from './lab-ui';
import type { LabDebug } from './lab-debug';
import { HostSession } from './host-session';
import { LabFiles, type FileChange } from './lab-files';
import { EditorPane } from './editor-pane';
import { ChecksPanel } from './checks-panel';
import { DomChecksView } from './checks-view';
import { LabProgressKeeper, type Restored } from './lab-progress';
import { HostSwitch } from './host-switch';
import { LabLayout } from './lab-layout';
import { JournalStore, WriteAheadLog, execJournaled } from './write-ahead';
import { LabViews, type LabView } from './lab-views';
import { Debounce } from './debounce';
import { downloadOpenFile, downloadReport, rememberPlace, wireLearner, wireShortcuts } from './lab-tools';

export interface LabOptions {
  /** A worker transport already opened (the element starts the worker while this chunk loads). */
  readonly transport?: Transport | undefined;
  /** Test hooks (lab-debug.ts); never set for learners. */
  readonly debug?: LabDebug | undefined;
}

export class LabApp {
  readonly ui: LabUi;
  readonly session: HostSession;
  readonly files: LabFiles;
  readonly progress: LabProgressKeeper;
  readonly checks: ChecksPanel;
  /** Command lines and edits, stored before the host gets them (write-ahead.ts). */
  readonly wal: WriteAheadLog;
  private readonly editor: EditorPane;
  private readonly view: DomChecksView;
  private terminal!: LabTerminal;
  private readline!: Readline;
  private layout: LabLayout | undefined;
  private views: LabViews | undefined;
  /** Tells a line host the terminal's size after fits settle (a splitter drag fits many times). */
  private readonly sizeReport = new Debounce();
  private hostSwitch!: HostSwitch;
  private lab: LabInfo | undefined;
  /** Re-runs the checks after commands, applies and editor saves, debounced (see check-scheduler.ts). */
  private readonly checkRuns = new CheckScheduler(() => this.checks.run(false));
  /** Drops title/clipboard/hyperlink sequences from the WebContainer pty (its output is not neutralised). */
  private readonly ptyFilter = createPtyFilter();

  constructor(root: HTMLElement, opts: LabOptions = {}) {
    const ui = (this.ui = new LabUi(root));
    this.session = new HostSession(
      {
        openWorker: connectWorkerHost,
        debug: opts.debug,
        recoveryPoint: () => {
          const state = this.progress.lastState;
          return {
            load: this.progress.loadParams(state ? { kind: 'state', state } : { kind: 'fresh' }),
            files: this.files.map,
          };
        },
        onEvent: (event) => {
          if (event.type === 'file') this.files.fromHost(event.path, event.content);
          else if (event.type === 'pty-output') this.terminal.term.write(this.ptyFilter(event.data));
          else if (event.type === 'fatal') ui.say(ui.t('lab.engineFailed', { reason: event.error.message }));
        },
        onRestarting: () => {
          ui.mark('watchdog', 'restarting');
          ui.say(ui.t('lab.watchdogRestarting'));
        },
        onRestarted: (result) => {
          this.readline.setPrompt(result.prompt);
          this.reportSize();
          ui.mark('watchdog', 'restarted');
          ui.say(ui.t('lab.watchdogRestarted'));
          this.readline.notify(ui.t('lab.watchdogTerminal'));
          this.refreshNetwork();
        },
        onRestartFailed: (e) => {
          ui.mark('watchdog', 'failed');
          ui.say(ui.t('lab.engineFailed', { reason: e instanceof Error ? e.message : String(e) }));
        },
      },
      opts.transport,
    );
    const writer = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    this.wal = new WriteAheadLog(new JournalStore(), ui.labId, writer);
    this.files = new LabFiles(this.session, (change) => this.fileChanged(change), this.wal);
    this.editor = new EditorPane(
      ui,
      this.files,
      this.session,
      (path, content) => this.files.edited(path, content),
      () => this.progress.changed(),
    );
    this.view = new DomChecksView(ui, (change) =>
      this.layout ? this.layout.keepWorkInPlace(change) : change(),
    );
    this.checks = new ChecksPanel(
      this.session,
      ui.lang,
      ui.t,
      this.view,
      () => this.files.flush(),
      (changed) => {
        if (changed) this.progress.touch();
        this.progress.scheduleSave();
      },
      () => this.progress.changed(),
    );
    this.progress = new LabProgressKeeper(
      ui.labId,
      this.session,
      {
        lab: () => this.lab,
        flush: () => this.files.flush(),
        fileContents: () => this.files.toRecord(),
        history: () => [...this.readline.editor.history],
        checks: () => this.checks.summary,
        hintLevel: () => this.checks.hintLevel,
        openFile: () => this.files.current,
        show: (result, progress) => this.show(result, progress),
        restartTerminal: () => {
          this.terminal.term.reset();
          this.readline.start();
        },
        checkNow: () => this.checkRuns.now(),
        clusterChanged: () => this.refreshNetwork(),
      },
      ui,
      this.wal,
      {
        store: new ProgressStore(),
        channel: broadcastChannel(),
        writer,
        seed: randomSeed(),
        download: downloadJson,
      },
    );
  }

  // ---- start ------------------------------------------------------------------------------------

  async start(): Promise<void> {
    const { ui } = this;
    ui.say(ui.t('lab.loading'));
    ui.mark('state', 'loading');
    ui.$('[data-terminal-pane]').hidden = false;
    ui.$('[data-splitter]').hidden = false;
    this.terminal = createTerminal(ui.$('[data-terminal]'), {
      promptLabel: ui.t('lab.terminalInput'),
      tooMuchOutput: ui.t('lab.tooMuchOutput'),
    });
    this.readline = new Readline(this.terminal.term, {
      complete: (line, cursor) => this.session.request('complete', { line, cursor }),
      incomplete: (text) => this.session.request('incomplete', { text }),
      run: (text, signal) => this.run(text, signal),
      historyChanged: () => this.progress.changed(),
    });
    this.layout = new LabLayout(ui, this.terminal, this.editor);
    this.views = new LabViews(ui, this.terminal, { shown: (view) => this.viewShown(view) });
    this.terminal.term.onResize(() => this.sizeReport.run('size', 100, () => this.reportSize()));
    this.hostSwitch = new HostSwitch({
      ui,
      session: this.session,
      terminal: this.terminal,
      readline: this.readline,
      flush: () => this.files.flush(),
      loadParams: (start) => this.progress.loadParams(start),
      show: (result) => this.show(result),
    });

    const stored = await this.progress.readStored();
    let restored: Restored;
    try {
      restored = await this.progress.restore(stored);
    } catch (e) {
      ui.mark('state', 'failed');
      ui.say(ui.t('lab.engineFailed', { reason: e instanceof Error ? e.message : String(e) }));
      throw e;
    }
    this.show(restored.result, restored.progress);
    // The saved verdicts predate the replayed steps.
    if (restored.replayed > 0) this.checkRuns.schedule();
    this.readline.start();
    performance.mark('pp-lab:prompt');
    ui.mark('state', 'ready');
    ui.say(stored.kind === 'ok' || restored.replayed > 0 ? ui.t('lab.restored') : ui.t('lab.ready'));
    ui.$('[data-toolbar]').hidden = false;
    this.wireToolbar();
    wireShortcuts(ui, () => this.layout?.maximized ?? false);
    this.wireQuizzes();
    wireLearner(ui);
    this.views.wire();
    this.layout.wireSplitter();
    this.layout.wireEscape(ui.$('[data-action="maximize"]'));
    this.layout.watchTheme();
    this.hostSwitch.showHost();
    addEventListener('pagehide', () => void this.progress.save());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') void this.progress.save();
    });
    void this.editor.load();
  }

  /** Shows a loaded lab: files, history, prompt, hints, variant and the saved record's verdicts. */
  private show(result: LoadResult, progress?: LabProgress): void {
    this.lab = result.lab;
    this.files.setAll(result.files, progress?.openFile);
    this.readline.editor.history = [...(progress?.history ?? result.history)];
    this.readline.editor.reset();
    this.readline.setPrompt(result.prompt);
    this.view.variantLoaded(result.lab.variant);
    this.checks.load(result.lab, progress?.hintLevel ?? 0, progress?.checks);
    this.showAnswers(result.quizAnswers ?? {});
    this.editor.showAll();
    this.reportSize();
  }

  /**
   * The terminal's size reaches the shell as a pty's winsize would (`$COLUMNS`, `stty size`, `tput
   * cols`). A WebContainer host has a real pty and gets `ptyResize` from the host switch instead.
   */
  private reportSize(): void {
    if (this.session.kind !== 'worker') return;
    const { cols, rows } = this.terminal.term;
    void this.session.request('resize', { cols, rows }).catch(() => {});
  }

  /** A part of the phone layout came on screen: it measures itself again (it was display: none). */
  private viewShown(view: LabView): void {
    if (view === 'editor') this.editor.layout();
    else if (view === 'terminal') this.terminal.fit();
    else if (view === 'network') void this.openNetwork();
  }

  // ---- questions --------------------------------------------------------------------------------

  /** The lab's questions (rendered by Lab.astro): ticked as answered, usable once the lab runs. */
  private showAnswers(answers: Readonly<Record<string, readonly string[]>>): void {
    for (const form of this.ui.root.querySelectorAll<HTMLFormElement>('form[data-quiz]')) {
      const given = answers[form.dataset.quiz ?? ''] ?? [];
      for (const input of form.querySelectorAll<HTMLInputElement>('input, button')) {
        input.disabled = false;
        if (input instanceof HTMLInputElement) input.checked = given.includes(input.value);
      }
    }
  }

  private wireQuizzes(): void {
    for (const form of this.ui.root.querySelectorAll<HTMLFormElement>('form[data-quiz]')) {
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const picked = [...form.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value);
        this.checkRuns.cancel();
        void this.checks.answer(form.dataset.quiz ?? '', picked);
      });
    }
  }

  private fileChanged(change: FileChange): void {
    if (change.by === 'learner') {
      this.editor.scheduleValidate(change.path);
      // An output check may read the file (`cat`, a dry run): the edit can change a verdict.
      this.checkRuns.schedule();
    } else {
      this.editor.show(change.path, change.content, change.listChanged);
    }
    this.progress.changed();
  }

  // ---- terminal ---------------------------------------------------------------------------------

  private async run(text: string, signal: AbortSignal): Promise<void> {
    const r = await execJournaled(this.wal, this.session, () => this.files.flush(), text, signal);
    // The watchdog's notice tells what happened; the prompt comes back on the new worker.
    if (!r) return this.session.settled();
    if (r.clear) this.terminal.term.write('\x1b[H\x1b[2J\x1b[3J');
    for (const chunk of outputChunks(r)) this.readline.print(chunk.text);
    this.readline.setPrompt(r.prompt);
    this.checkRuns.schedule();
    rememberPlace(this.ui.labId);
    if (/^\s*trace\s/.test(text) && r.exitCode !== 2) this.pendingTrace = text;
    this.refreshNetwork();
    this.progress.changed();
  }

  // ---- network view (src/components/visual, loaded on first open) --------------------------------

  private network: PpNetwork | undefined;
  /** The last `trace …` line, drawn as a walk when the Network view is (or next gets) open. */
  private pendingTrace: string | undefined;

  private async toggleNetwork(): Promise<void> {
    if (this.ui.$('[data-network]').hidden) return this.openNetwork();
    this.ui.$('[data-network]').hidden = true;
    this.ui.$('[data-action="network"]').setAttribute('aria-expanded', 'false');
  }

  private async openNetwork(): Promise<void> {
    const box = this.ui.$('[data-network]');
    const wasOpen = !box.hidden;
    box.hidden = false;
    this.ui.$('[data-action="network"]').setAttribute('aria-expanded', 'true');
    if (this.network) return wasOpen ? undefined : this.refreshNetwork();
    const { defineVisualElements } = await import('../visual/index');
    defineVisualElements();
    const el = document.createElement('pp-network') as PpNetwork;
    el.dataset.lang = this.ui.lang;
    box.append(el);
    this.network = el;
    // Through the session at call time, so a host switch carries over.
    await el.connectHost({
      state: (signal) => this.session.request('network', {}, signal ? { signal } : {}),
      trace: (request, signal) => this.session.request('trace', request, signal ? { signal } : {}),
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
    if (!this.network || this.ui.$('[data-network]').hidden) return;
    void this.network.refresh().then(() => this.playPendingTrace());
  }

  // ---- solution, reset, new fault ----------------------------------------------------------------

  private async runSolution(): Promise<void> {
    const lab = this.lab;
    if (!lab) return;
    for (const [path, content] of Object.entries(lab.solution.files)) await this.files.write(path, content);
    for (const line of lab.solution.commands) await this.readline.submit(line);
    this.terminal.term.focus();
  }

  /** Labs with variants: a seed that draws another variant, then a Reset onto it. */
  private async newFault(): Promise<void> {
    const variant = this.lab?.variant;
    if (!variant) return;
    this.progress.drawSeed = redrawSeed(this.ui.labId, variant.of, this.progress.drawSeed, randomSeed);
    await this.reset();
    this.ui.say(this.ui.t('lab.newFaultDone'));
  }

  private async reset(): Promise<void> {
    this.checkRuns.cancel();
    this.progress.cancelSave();
    this.editor.cancelValidation();
    this.files.dropPending();
    const result = await this.session.request('load', this.progress.loadParams({ kind: 'fresh' }));
    this.show({ ...result, history: [] });
    this.view.hideSolution();
    this.terminal.term.reset();
    this.readline.start();
    this.progress.resumeSaving();
    await this.checkRuns.now();
    this.refreshNetwork();
    this.progress.touch();
    await this.progress.save();
    this.ui.say(this.ui.t('lab.resetDone'));
  }

  // ---- toolbar ----------------------------------------------------------------------------------

  private wireToolbar(): void {
    const { ui } = this;
    const fileInput = ui.$('[data-import-file]') as HTMLInputElement;
    fileInput.addEventListener('change', () => {
      const file = fileInput.files?.[0];
      if (file) void file.text().then((text) => this.progress.importText(text));
      fileInput.value = '';
    });
    const confirmed = (key: string, then: () => void) =>
      void ui.confirm(ui.t(key)).then((yes) => {
        if (yes) then();
      });
    const tools = ui.$('[data-tools]');
    const onAction = (event: Event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-action]');
      if (!button) return;
      // A menu item closes its menu (the popover) once chosen.
      if (tools.contains(button)) tools.hidePopover();
      switch (button.dataset.action) {
        case 'check':
          this.checkRuns.cancel();
          void this.checks.run(true);
          break;
        case 'hint':
          this.checks.nextHint();
          break;
        case 'reset':
          confirmed('lab.resetConfirm', () => void this.reset());
          break;
        case 'new-fault':
          confirmed('lab.newFaultConfirm', () => void this.newFault());
          break;
        case 'solution':
          confirmed('lab.solutionConfirm', () => {
            if (this.lab) this.view.showSolution(this.lab, () => void this.runSolution());
          });
          break;
        case 'report':
          void downloadReport(this.ui, this.session, this.files);
          break;
        case 'export':
          void this.progress.exportAll();
          break;
        case 'import':
          fileInput.click();
          break;
        case 'host':
          void this.hostSwitch.toggle();
          break;
        case 'network':
          void this.toggleNetwork();
          break;
        case 'download-file':
          downloadOpenFile(this.ui, this.files);
          break;
        case 'maximize':
          this.layout?.toggleMaximized(button);
          break;
      }
    };
    ui.$('[data-toolbar]').addEventListener('click', onAction);
    tools.addEventListener('click', onAction);
  }
}

export async function mountLab(root: HTMLElement, opts: LabOptions = {}): Promise<LabApp> {
  const app = new LabApp(root, opts);
  (root as HTMLElement & { labApp?: LabApp }).labApp = app;
  await app.start();
  return app;
}
