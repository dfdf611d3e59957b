/**
 * `<pp-matrix>`: the reachability grid (rows: source pods; columns: destination pod:port). Set
 * `el.cells` (the host's `reachabilityMatrix` cells) and `el.model` (pod IPs for trace requests);
 * it redraws on every set, keeping the focused cell.
 *
 * A grid in the ARIA sense: one cell in the tab order, arrow keys / Home / End move, Enter or Space
 * asks for a trace of that pair (`pp-trace-request`, detail `TraceRequestDetail`); the page answers
 * with `showDecision(text)`, announced in a live region. Verdicts are a symbol and a colour.
 */
import { matrixView, VERDICT_SYMBOL, type MatrixCell, type MatrixView } from '../../visual/matrix/matrix.ts';
import type { TopologyModel } from '../../visual/topology/types.ts';
import type { Source } from '../../visual/walk/hops.ts';
import { translator, toLocale, type Locale } from '../../visual/strings.ts';
import { ensureStyles } from './styles.ts';

/** Above this many pods the grid (rows × columns cells) is summarised instead of drawn. */
export const MAX_ROWS = 40;

export interface TraceRequestDetail {
  readonly from: Source;
  /** The destination: its pod IP when known, else `namespace/name`. */
  readonly to: string;
  readonly port: number;
  readonly protocol: string;
  readonly label: string;
}

export class PpMatrix extends HTMLElement {
  #cells: readonly MatrixCell[] = [];
  #model: TopologyModel | undefined;
  #view: MatrixView | null = null;
  #focus: [number, number] = [0, 0];

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

  set model(value: TopologyModel | undefined) {
    this.#model = value;
  }

  get view(): MatrixView | null {
    return this.#view;
  }

  connectedCallback(): void {
    ensureStyles(this.ownerDocument);
    this.classList.add('pp-net', 'pp-matrix');
    if (!this.firstChild) this.render();
  }

  showDecision(text: string): void {
    const out = this.querySelector('[data-decision]');
    if (out) out.textContent = text;
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
    const ip = this.#model?.nodes.flatMap((n) => n.pods).find((p) => p.key === cell.to)?.ip;
    const t = translator(this.locale);
    this.showDecision(t('ui.tracing', { from: cell.from, to: `${cell.to}:${cell.port}` }));
    const detail: TraceRequestDetail = {
      from: { kind: 'pod', namespace: ns, name },
      to: ip ?? cell.to,
      port: cell.port,
      protocol: cell.protocol,
      label: cell.label,
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

  render(): void {
    const doc = this.ownerDocument;
    const t = translator(this.locale);
    const hadFocus = this.contains(doc.activeElement) && doc.activeElement instanceof HTMLTableCellElement;
    this.replaceChildren();
    const model = this.#model;
    const view = matrixView(this.#cells, this.locale, model ? { cni: model.cni } : {});
    this.#view = view;
    const summary = doc.createElement('p');
    summary.className = 'pp-matrix__summary';
    summary.dataset.summary = view.summaryKind;
    summary.setAttribute('role', 'status');
    summary.textContent = view.summary;
    this.append(summary);
    if (view.rows.length === 0) return;
    if (view.rows.length > MAX_ROWS) {
      const note = doc.createElement('p');
      note.textContent = t('ui.matrixTooBig', { rows: view.rows.length, columns: view.columns.length });
      this.append(note);
      return;
    }
    const legend = doc.createElement('p');
    legend.className = 'pp-matrix__legend';
    legend.textContent = (['allowed', 'blocked', 'refused'] as const)
      .map((v) => `${VERDICT_SYMBOL[v]} ${t(`matrix.${v}`)}`)
      .join('   ');
    const help = doc.createElement('p');
    help.textContent = t('ui.matrixHelp');
    help.id = `${this.id || 'pp-matrix'}-help`;
    const scroll = doc.createElement('div');
    scroll.className = 'pp-matrix__scroll';
    const table = doc.createElement('table');
    table.setAttribute('role', 'grid');
    table.setAttribute('aria-describedby', help.id);
    const caption = doc.createElement('caption');
    caption.textContent = t('matrix.caption');
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
      view.columns.forEach((col, c) => {
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
    const decision = doc.createElement('p');
    decision.className = 'pp-matrix__decision';
    decision.dataset.decision = '';
    decision.setAttribute('aria-live', 'polite');
    this.append(legend, help, scroll, decision);
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
