/**
 * `<pp-matrix>`: the reachability grid, in two modes chosen with a radio group: source pods × destination
 * pod:port (`el.cells`, the host's `reachabilityMatrix` cells) and source pods × Service port
 * (`el.services`, one probe through ClusterIP:port per cell). `el.model` gives pod IPs for trace
 * requests. It redraws on every set, keeping the mode and the focused cell.
 *
 * A grid in the ARIA sense: one cell in the tab order, arrow keys / Home / End move, Enter or Space
 * asks for a trace of that pair (`pp-trace-request`, detail `TraceRequestDetail`); the page answers
 * with `showDecision(text)`, announced in a live region. Verdicts are a symbol and a colour.
 */
import {
  matrixView,
  serviceMatrixView,
  MAX_MATRIX_PODS,
  VERDICT_SYMBOL,
  type MatrixCell,
  type MatrixMode,
  type MatrixView,
  type ServiceMatrixCell,
} from '../../visual/matrix/matrix.ts';
import type { TopologyModel } from '../../visual/topology/types.ts';
import type { Source } from '../../visual/walk/hops.ts';
import { translator, toLocale, type Locale } from '../../visual/strings.ts';
import { ensureStyles } from './styles.ts';

/** Above this many pods the grid (rows × columns cells) is summarised instead of drawn. */
export const MAX_ROWS = MAX_MATRIX_PODS;

export interface TraceRequestDetail {
  readonly from: Source;
  /** The destination: its pod IP when known (a Service cell: its ClusterIP), else `namespace/name`. */
  readonly to: string;
  readonly port: number;
  readonly protocol: string;
  readonly label: string;
  readonly mode: MatrixMode;
}

let counter = 0;

export class PpMatrix extends HTMLElement {
  #cells: readonly MatrixCell[] = [];
  #services: readonly ServiceMatrixCell[] = [];
  #servicesTooLarge: { readonly pods: number; readonly ports: number } | undefined;
  #model: TopologyModel | undefined;
  #view: MatrixView | null = null;
  #mode: MatrixMode = 'pods';
  #focus: [number, number] = [0, 0];
  #uid = `pp-matrix-${++counter}`;
  #content: HTMLElement | null = null;

  get locale(): Locale {
    return toLocale(this.dataset.lang ?? this.closest('[lang]')?.getAttribute('lang'));
  }

  set cells(value: readonly MatrixCell[]) {
    this.#cells = value;
    this.render();
  }
  get cells(): readonly MatrixCell[] {
    return this.#cells;
  }

  /** Pod × Service port cells; `tooLarge` when the host did not probe (too many pods). */
  setServices(
    value: readonly ServiceMatrixCell[],
    tooLarge?: { readonly pods: number; readonly ports: number },
  ): void {
    this.#services = value;
    this.#servicesTooLarge = tooLarge;
    this.render();
  }
  get services(): readonly ServiceMatrixCell[] {
    return this.#services;
  }

  get mode(): MatrixMode {
    return this.#mode;
  }
  set mode(value: MatrixMode) {
    if (value === this.#mode) return;
    this.#mode = value;
    for (const r of this.querySelectorAll<HTMLInputElement>('input[type=radio]'))
      r.checked = r.value === value;
    this.#focus = [0, 0];
    this.showDecision('');
    this.render();
  }

  set model(value: TopologyModel | undefined) {
    this.#model = value;
  }

  get view(): MatrixView | null {
    return this.#view;
  }

  connectedCallback(): void {
    ensureStyles(this.ownerDocument);
    this.classList.add('pp-net', 'pp-matrix');
    if (!this.#content) this.render();
  }

  /** Shows (and announces) which hop decided the traced cell; `action` adds a button after it. */
  showDecision(text: string, action?: { readonly label: string; readonly run: () => void }): void {
    const out = this.querySelector('[data-decision]');
    if (!out) return;
    out.textContent = text;
    if (!action) return;
    const b = this.ownerDocument.createElement('button');
    b.type = 'button';
    b.dataset.action = 'show-walk';
    b.textContent = action.label;
    b.addEventListener('click', action.run);
    out.append(' ', b);
  }

  #cellAt(r: number, c: number): HTMLTableCellElement | null {
    return this.querySelector<HTMLTableCellElement>(`td[data-r="${r}"][data-c="${c}"]`);
  }

  #move(r: number, c: number, focus: boolean): void {
    const v = this.#view;
    if (!v) return;
    const rr = Math.max(0, Math.min(v.rows.length - 1, r));
    const cc = Math.max(0, Math.min(v.columns.length - 1, c));
    this.#cellAt(...this.#focus)?.setAttribute('tabindex', '-1');
    this.#focus = [rr, cc];
    const cell = this.#cellAt(rr, cc);
    cell?.setAttribute('tabindex', '0');
    if (focus) cell?.focus();
  }

  #request(r: number, c: number): void {
    const v = this.#view;
    const cell = v?.grid[r]?.[c];
    if (!v || !cell) return;
    const [ns, name] = splitKey(cell.from);
    const ip = cell.address ?? this.#model?.nodes.flatMap((n) => n.pods).find((p) => p.key === cell.to)?.ip;
    const t = translator(this.locale);
    this.showDecision(t('ui.tracing', { from: cell.from, to: `${cell.to}:${cell.port}` }));
    const detail: TraceRequestDetail = {
      from: { kind: 'pod', namespace: ns, name },
      to: ip ?? cell.to,
      port: cell.port,
      protocol: cell.protocol,
      label: cell.label,
      mode: v.mode,
    };
    this.dispatchEvent(new CustomEvent<TraceRequestDetail>('pp-trace-request', { detail, bubbles: true }));
  }

  #onKey = (e: KeyboardEvent): void => {
    const [r, c] = this.#focus;
    const v = this.#view;
    if (!v) return;
    const moves: Record<string, [number, number]> = {
      ArrowUp: [r - 1, c],
      ArrowDown: [r + 1, c],
      ArrowLeft: [r, c - 1],
      ArrowRight: [r, c + 1],
      Home: e.ctrlKey ? [0, 0] : [r, 0],
      End: e.ctrlKey ? [v.rows.length - 1, v.columns.length - 1] : [r, v.columns.length - 1],
    };
    const to = moves[e.key];
    if (to) {
      e.preventDefault();
      this.#move(to[0], to[1], true);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.#request(r, c);
    }
  };

  /** The mode switch: a native radio group (arrow keys move and select; one tab stop), built once. */
  #buildSwitch(): HTMLFieldSetElement {
    const doc = this.ownerDocument;
    const t = translator(this.locale);
    const fieldset = doc.createElement('fieldset');
    fieldset.className = 'pp-matrix__mode';
    const legend = doc.createElement('legend');
    legend.textContent = t('ui.matrixMode');
    fieldset.append(legend);
    for (const mode of ['pods', 'services'] as const) {
      const label = doc.createElement('label');
      const input = doc.createElement('input');
      input.type = 'radio';
      input.name = `${this.#uid}-mode`;
      input.value = mode;
      input.checked = mode === this.#mode;
      input.addEventListener('change', () => {
        if (input.checked) this.mode = mode;
      });
      label.append(input, ` ${t(mode === 'pods' ? 'ui.matrixMode.pods' : 'ui.matrixMode.services')}`);
      fieldset.append(label);
    }
    return fieldset;
  }

  render(): void {
    const doc = this.ownerDocument;
    const t = translator(this.locale);
    if (!this.#content) {
      this.#content = doc.createElement('div');
      const decision = doc.createElement('p');
      decision.className = 'pp-matrix__decision';
      decision.dataset.decision = '';
      decision.setAttribute('aria-live', 'polite');
      this.replaceChildren(this.#buildSwitch(), this.#content, decision);
    }
    const content = this.#content;
    const hadFocus = this.contains(doc.activeElement) && doc.activeElement instanceof HTMLTableCellElement;
    content.replaceChildren();
    const model = this.#model;
    const opts = model ? { cni: model.cni } : {};
    const services = this.#mode === 'services';
    const view = services
      ? serviceMatrixView(this.#services, this.locale, opts)
      : matrixView(this.#cells, this.locale, opts);
    this.#view = view;
    const summary = doc.createElement('p');
    summary.className = 'pp-matrix__summary';
    summary.dataset.summary = view.summaryKind;
    summary.setAttribute('role', 'status');
    summary.textContent =
      services && this.#servicesTooLarge
        ? t('ui.matrixServicesTooBig', { ...this.#servicesTooLarge })
        : view.summary;
    content.append(summary);
    if (view.rows.length === 0) return;
    if (view.rows.length > MAX_ROWS) {
      const note = doc.createElement('p');
      note.textContent = t('ui.matrixTooBig', { rows: view.rows.length, columns: view.columns.length });
      content.append(note);
      return;
    }
    const legend = doc.createElement('p');
    legend.className = 'pp-matrix__legend';
    legend.textContent = (['allowed', 'blocked', 'refused'] as const)
      .map((v) => `${VERDICT_SYMBOL[v]} ${t(`matrix.${v}`)}`)
      .join('   ');
    const help = doc.createElement('p');
    help.textContent = t('ui.matrixHelp');
    help.id = `${this.id || this.#uid}-help`;
    const scroll = doc.createElement('div');
    scroll.className = 'pp-matrix__scroll';
    const table = doc.createElement('table');
    table.setAttribute('role', 'grid');
    table.setAttribute('aria-describedby', help.id);
    table.dataset.mode = view.mode;
    const caption = doc.createElement('caption');
    caption.textContent = t(services ? 'matrix.captionServices' : 'matrix.caption');
    const thead = doc.createElement('thead');
    const hr = doc.createElement('tr');
    const corner = doc.createElement('td');
    corner.setAttribute('role', 'gridcell');
    hr.append(corner);
    for (const col of view.columns) {
      const th = doc.createElement('th');
      th.scope = 'col';
      th.setAttribute('role', 'columnheader');
      th.textContent = col.label;
      hr.append(th);
    }
    thead.append(hr);
    const tbody = doc.createElement('tbody');
    view.rows.forEach((row, r) => {
      const tr = doc.createElement('tr');
      const th = doc.createElement('th');
      th.scope = 'row';
      th.setAttribute('role', 'rowheader');
      th.textContent = row;
      tr.append(th);
      view.columns.forEach((_, c) => {
        const cell = view.grid[r]![c];
        const td = doc.createElement('td');
        td.setAttribute('role', 'gridcell');
        td.dataset.r = String(r);
        td.dataset.c = String(c);
        td.tabIndex = -1;
        td.dataset.verdict = cell?.verdict ?? 'none';
        const sym = doc.createElement('span');
        sym.setAttribute('aria-hidden', 'true');
        sym.textContent = cell ? cell.symbol : '·';
        const sr = doc.createElement('span');
        sr.className = 'pp-net__sr';
        sr.textContent = cell ? `${cell.label} (${cell.reason})` : t('matrix.self', { pod: row });
        td.title = cell ? `${cell.label}: ${cell.reason}` : t('matrix.self', { pod: row });
        td.append(sym, sr);
        td.addEventListener('click', () => {
          this.#move(r, c, true);
          this.#request(r, c);
        });
        tr.append(td);
      });
      tbody.append(tr);
    });
    table.append(caption, thead, tbody);
    table.addEventListener('keydown', this.#onKey);
    scroll.append(table);
    content.append(legend, help, scroll);
    const [fr, fc] = this.#focus;
    this.#focus = [0, 0];
    this.#move(Math.min(fr, view.rows.length - 1), Math.min(fc, view.columns.length - 1), hadFocus);
  }
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

export function defineMatrixElement(): void {
  if (!customElements.get('pp-matrix')) customElements.define('pp-matrix', PpMatrix);
}
