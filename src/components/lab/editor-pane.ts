/**
 * The editor side of the lab: Monaco (loaded after the prompt is up), the file tabs, and validation
 * of YAML files against the lab's schemas (debounced, best effort). The files themselves live in
 * LabFiles; this only shows them.
 */
import { isDark } from './terminal';
import { Debounce } from './debounce';
import type { LabFiles } from './lab-files';
import type { LabUi } from './lab-ui';
import type { HostSession } from './host-session';
import type { LabEditor } from './monaco/editor';

export const VALIDATE_DEBOUNCE_MS = 500;

export class EditorPane {
  editor: LabEditor | undefined;
  private readonly timers = new Debounce();
  private readonly box: HTMLElement;
  private readonly tabs: HTMLElement;

  constructor(
    private readonly ui: LabUi,
    private readonly files: LabFiles,
    private readonly host: Pick<HostSession, 'request'>,
    /** The learner typed in the editor (see LabFiles.edited). */
    private readonly onEdit: (path: string, content: string) => void,
    /** The learner opened another file. */
    private readonly onOpen: () => void,
  ) {
    this.box = ui.$('[data-editor]');
    this.tabs = ui.$('[data-tabs]');
  }

  /** Shows every file again after a load (the editor keeps its models per path). */
  showAll(): void {
    this.editor?.setFiles(this.files.toRecord());
    this.renderTabs();
  }

  /** A file changed under the editor (a command wrote it). */
  show(path: string, content: string | null, listChanged: boolean): void {
    if (content === null) this.editor?.remove(path);
    else {
      this.editor?.setContent(path, content);
      this.scheduleValidate(path);
    }
    if (listChanged) this.renderTabs();
  }

  scheduleValidate(path: string): void {
    if (!this.editor || !/\.ya?ml$/.test(path)) return;
    this.timers.run(`validate:${path}`, VALIDATE_DEBOUNCE_MS, () => void this.validate(path));
  }

  cancelValidation(): void {
    this.timers.cancelAll();
  }

  private async validate(path: string): Promise<void> {
    try {
      await this.files.flush();
      const diagnostics = await this.host.request('validate', { path });
      this.editor?.setDiagnostics(path, diagnostics);
    } catch {
      // validation is best effort (a pty host may not offer it)
    }
  }

  async load(): Promise<void> {
    const loading = document.createElement('p');
    loading.className = 'pp-lab__editor-loading';
    loading.textContent = this.ui.t('lab.editorLoading');
    this.box.prepend(loading);
    try {
      const { loadEditorModule } = await import('./editor-loader');
      const { LabEditor } = await loadEditorModule(this.ui.lang);
      const host = document.createElement('div');
      host.className = 'pp-lab__monaco';
      host.id = `${this.ui.labId}-editor`;
      this.box.append(host);
      this.ui.$('[data-static]').hidden = true;
      this.editor = new LabEditor(host, {
        labId: this.ui.labId,
        dark: isDark(),
        ariaLabel: (file) => this.ui.t('lab.editorLabel', { file }),
        onChange: (path, content) => this.onEdit(path, content),
      });
      this.showAll();
      this.ui.$('[data-editor-help]').hidden = false;
      performance.mark('pp-lab:editor');
      this.ui.mark('editor', 'ready');
      for (const path of this.files.paths()) this.scheduleValidate(path);
    } finally {
      loading.remove();
    }
  }

  renderTabs(): void {
    const paths = this.files.paths();
    const current = this.files.openOrDefault();
    this.tabs.replaceChildren();
    if (!this.editor) return;
    this.tabs.hidden = paths.length === 0;
    const panelId = `${this.ui.labId}-editor`;
    for (const path of paths) {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.role = 'tab';
      tab.textContent = path;
      tab.dataset.file = path;
      tab.id = `${this.ui.labId}-tab-${path.replace(/[^\w-]/g, '_')}`;
      tab.setAttribute('aria-controls', panelId);
      const selected = path === current;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      tab.addEventListener('click', () => this.open(path));
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
          this.open(next);
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
    if (current) this.editor.open(current);
  }

  private open(path: string): void {
    this.files.current = path;
    this.renderTabs();
    this.onOpen();
  }

  setTheme(dark: boolean): void {
    this.editor?.setTheme(dark);
  }

  layout(): void {
    this.editor?.layout();
  }
}
