/**
 * Monaco for the lab, loaded only when a lab is on screen: the tree-shakeable >= 0.56 entry points
 * (core API, YAML highlighting and the editing features a manifest needs), monaco-yaml with the
 * Kubernetes schema, and two shims monaco-yaml 5.5 needs on current Monaco (platform-notes §3.2):
 * `createWebWorker` must be given a worker, and the worker side is aliased (./worker-manager-shim.js).
 *
 * The page's language must be set before this module loads (`loadEditor` in ../editor-loader.ts
 * loads Monaco's pt-BR messages first), because Monaco reads its strings while its modules load.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/suggest/register';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
import 'monaco-editor/languages/definitions/yaml/register';
import { configureMonacoYaml } from 'monaco-yaml';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import YamlWorker from './yaml.worker.js?worker';
import { kubernetesJsonSchema } from '../../../runtime/editor-schema';
import type { Diagnostic } from '../../../runtime/protocol';

type WorkerFactory = (moduleId: string, label: string) => Worker;

const getWorker: WorkerFactory = (_moduleId, label) =>
  label === 'yaml' ? new YamlWorker() : new EditorWorker();
(globalThis as unknown as { MonacoEnvironment: { getWorker: WorkerFactory } }).MonacoEnvironment = {
  getWorker,
};

// Shim (b): Monaco >= 0.55 only uses an explicit `opts.worker`; monaco-worker-manager passes
// moduleId/label/createData. Create the worker ourselves and hand it createData as its first message.
type CreateOpts = Parameters<typeof monaco.editor.createWebWorker>[0] & {
  moduleId?: string;
  label?: string;
  createData?: unknown;
};
const originalCreateWebWorker = monaco.editor.createWebWorker;
monaco.editor.createWebWorker = (<T extends object>(opts: CreateOpts) => {
  if ('worker' in opts && opts.worker) return originalCreateWebWorker<T>(opts);
  const worker = getWorker(opts.moduleId ?? '', opts.label ?? '');
  worker.postMessage(opts.createData);
  return originalCreateWebWorker<T>({ ...opts, worker });
}) as typeof monaco.editor.createWebWorker;

configureMonacoYaml(monaco, {
  enableSchemaRequest: false,
  isKubernetes: true,
  hover: true,
  completion: true,
  validate: true,
  schemas: [
    // The uri is also the schema's name; a file-like path keeps monaco-yaml from fetching it.
    {
      uri: 'file:///packetpath/kubernetes.json',
      fileMatch: ['**/*.yaml', '**/*.yml'],
      schema: kubernetesJsonSchema(),
    },
  ],
});

const ENGINE_MARKERS = 'packetpath-engine';

export interface LabEditorOptions {
  readonly labId: string;
  readonly dark: boolean;
  readonly ariaLabel: (path: string) => string;
  readonly onChange: (path: string, content: string) => void;
}

export class LabEditor {
  private readonly editor: monaco.editor.IStandaloneCodeEditor;
  private readonly models = new Map<string, monaco.editor.ITextModel>();
  private readonly viewStates = new Map<string, monaco.editor.ICodeEditorViewState | null>();
  private current: string | undefined;
  /** Set while we change a model ourselves, so the change is not reported back as the learner's. */
  private applying = false;

  constructor(
    container: HTMLElement,
    private readonly opts: LabEditorOptions,
  ) {
    this.editor = monaco.editor.create(container, {
      model: null,
      theme: opts.dark ? 'vs-dark' : 'vs',
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 14,
      tabSize: 2,
      insertSpaces: true,
      renderWhitespace: 'boundary',
      quickSuggestions: { other: true, comments: false, strings: true },
      accessibilitySupport: 'auto',
      fixedOverflowWidgets: true,
    });
  }

  private uri(path: string): monaco.Uri {
    return monaco.Uri.parse(`file:///lab/${this.opts.labId}/${path}`);
  }

  private modelFor(path: string, content: string): monaco.editor.ITextModel {
    let model = this.models.get(path);
    if (!model) {
      const language = /\.ya?ml$/.test(path) ? 'yaml' : /\.json$/.test(path) ? 'json' : 'plaintext';
      model = monaco.editor.createModel(content, language, this.uri(path));
      model.onDidChangeContent(() => {
        if (!this.applying) this.opts.onChange(path, model!.getValue());
      });
      this.models.set(path, model);
    }
    return model;
  }

  /** Replaces the whole file set (load, reset, import). */
  setFiles(files: Readonly<Record<string, string>>): void {
    for (const [path, model] of this.models) {
      if (!(path in files)) {
        model.dispose();
        this.models.delete(path);
      }
    }
    for (const [path, content] of Object.entries(files)) this.setContent(path, content);
  }

  /** A file changed elsewhere (the shell): update it, keeping the learner's cursor and undo stack. */
  setContent(path: string, content: string): void {
    const existing = this.models.get(path);
    if (!existing) {
      this.modelFor(path, content);
      return;
    }
    if (existing.getValue() === content) return;
    this.applying = true;
    try {
      existing.pushEditOperations([], [{ range: existing.getFullModelRange(), text: content }], () => null);
      existing.pushStackElement();
    } finally {
      this.applying = false;
    }
  }

  remove(path: string): void {
    this.models.get(path)?.dispose();
    this.models.delete(path);
    if (this.current === path) this.current = undefined;
  }

  content(path: string): string | undefined {
    return this.models.get(path)?.getValue();
  }

  open(path: string): void {
    const model = this.models.get(path);
    if (!model) return;
    if (this.current) this.viewStates.set(this.current, this.editor.saveViewState());
    this.current = path;
    this.editor.setModel(model);
    this.editor.updateOptions({ ariaLabel: this.opts.ariaLabel(path) });
    const state = this.viewStates.get(path);
    if (state) this.editor.restoreViewState(state);
  }

  focus(): void {
    this.editor.focus();
  }

  setDiagnostics(path: string, diagnostics: readonly Diagnostic[]): void {
    const model = this.models.get(path);
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      ENGINE_MARKERS,
      diagnostics.map((d) => ({
        severity: monaco.MarkerSeverity.Error,
        message: d.message,
        source: 'kubectl apply --dry-run=server',
        startLineNumber: d.line ?? 1,
        startColumn: d.column ?? 1,
        endLineNumber: d.endLine ?? d.line ?? 1,
        endColumn: d.endColumn ?? model.getLineMaxColumn(d.endLine ?? d.line ?? 1),
      })),
    );
  }

  /** Every marker on a file (monaco-yaml's and the engine's), for tests and the status line. */
  markers(path: string): { message: string; line: number; owner: string }[] {
    return monaco.editor
      .getModelMarkers({ resource: this.uri(path) })
      .map((m) => ({ message: m.message, line: m.startLineNumber, owner: m.owner }));
  }

  setTheme(dark: boolean): void {
    monaco.editor.setTheme(dark ? 'vs-dark' : 'vs');
  }

  layout(): void {
    this.editor.layout();
  }

  dispose(): void {
    this.editor.dispose();
    for (const m of this.models.values()) m.dispose();
    this.models.clear();
  }
}
