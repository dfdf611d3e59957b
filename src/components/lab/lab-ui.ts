/**
 * What every part of the lab UI shares: the skeleton's elements by selector, the page's strings, the
 * status line, notices, the confirm dialog and downloads. The parts get this instead of the whole app.
 */
type Strings = Record<string, string>;
export type Translate = (key: string, params?: Record<string, string | number>) => string;

export interface NoticeAction {
  readonly label: string;
  readonly run: () => void;
}

/** `{name}` placeholders filled from `params`; an unknown name stays as written. */
export const fmt = (text: string, params: Record<string, string | number> = {}) =>
  text.replace(/\{(\w+)\}/g, (all, k: string) => (k in params ? String(params[k]) : all));

export function $(root: ParentNode, selector: string): HTMLElement {
  const el = root.querySelector<HTMLElement>(selector);
  if (!el) throw new Error(`lab skeleton: ${selector} missing`);
  return el;
}

export const today = () => new Date().toISOString().slice(0, 10);

/** A draw seed from the browser's randomness (the engine and grader read none). */
export const randomSeed = (): number => crypto.getRandomValues(new Uint32Array(1))[0]!;

/** Saves `data` as a file the browser downloads (a report, an export, a lab file). */
export function download(name: string, data: string | Blob, type = 'application/json'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const downloadJson = (name: string, data: unknown) =>
  download(name, JSON.stringify(data, null, 2) + '\n');

export class LabUi {
  readonly labId: string;
  readonly lang: 'pt-BR' | 'en';
  readonly t: Translate;
  private readonly status: HTMLElement;
  private readonly notice: HTMLElement;

  constructor(readonly root: HTMLElement) {
    this.labId = root.dataset.lab ?? '';
    this.lang = root.dataset.lang === 'en' ? 'en' : 'pt-BR';
    const strings = JSON.parse(root.dataset.strings ?? '{}') as Strings;
    this.t = (key, params) => fmt(strings[key] ?? key, params);
    this.status = this.$('[data-status]');
    this.notice = this.$('[data-notice]');
  }

  $(selector: string): HTMLElement {
    return $(this.root, selector);
  }

  say(text: string): void {
    this.status.textContent = text;
  }

  /** Sets (or, with undefined, removes) a `data-*` attribute on the lab: state the tests and CSS read. */
  mark(key: string, value: string | undefined): void {
    if (value === undefined) delete this.root.dataset[key];
    else this.root.dataset[key] = value;
  }

  showNotice(text: string, actions: readonly NoticeAction[] = []): void {
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

  hideNotice(): void {
    this.notice.hidden = true;
  }

  confirm(text: string): Promise<boolean> {
    const dialog = this.$('[data-dialog]') as HTMLDialogElement;
    $(dialog, '[data-dialog-text]').textContent = text;
    dialog.returnValue = '';
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
      dialog.showModal();
    });
  }
}
