/**
 * `<pp-walk>`: a trace played hop by hop, like a network simulator's event list. Set `el.trace`
 * (a `TraceResult` from the host) and optionally `el.model` (the topology, so route hops can point at
 * the overlay); link a diagram with `for="<pp-topology id>"` or `el.topology = …`.
 *
 * Keyboard: ← / → step back and forward, Home / End jump, anywhere inside the element except form
 * fields; the buttons do the same. The current hop is announced through an `aria-live` region and
 * lit on the diagram. Emits `pp-walk-step` (detail: the step) on every move.
 */
import { walkView, type WalkView } from '../../visual/walk/walk.ts';
import type { TraceResult } from '../../visual/walk/hops.ts';
import type { TopologyModel } from '../../visual/topology/types.ts';
import { translator, toLocale, type Locale, type StringKey } from '../../visual/strings.ts';
import { ensureStyles } from './styles.ts';
import type { PpTopology } from './topology-element.ts';

export class PpWalk extends HTMLElement {
  #trace: TraceResult | null = null;
  #model: TopologyModel | undefined;
  #view: WalkView | null = null;
  #index = 0;
  #topology: PpTopology | null = null;

  get locale(): Locale {
    return toLocale(this.dataset.lang ?? this.closest('[lang]')?.getAttribute('lang'));
  }

  set trace(value: TraceResult | null) {
    this.#trace = value;
    this.#index = 0;
    this.render();
  }
  get trace(): TraceResult | null {
    return this.#trace;
  }

  set model(value: TopologyModel | undefined) {
    this.#model = value;
    if (this.#trace) this.render();
  }

  set topology(value: PpTopology | null) {
    this.#topology = value;
  }

  get index(): number {
    return this.#index;
  }

  #diagram(): PpTopology | null {
    if (this.#topology) return this.#topology;
    const id = this.getAttribute('for');
    return id ? (this.ownerDocument.getElementById(id) as PpTopology | null) : null;
  }

  connectedCallback(): void {
    ensureStyles(this.ownerDocument);
    this.classList.add('pp-net', 'pp-walk');
    this.addEventListener('keydown', this.#onKey);
    if (!this.firstChild) this.render();
  }

  disconnectedCallback(): void {
    this.removeEventListener('keydown', this.#onKey);
  }

  #onKey = (e: KeyboardEvent): void => {
    const target = e.target as HTMLElement | null;
    if (target?.closest('input, select, textarea')) return;
    const n = this.#view?.steps.length ?? 0;
    if (n === 0) return;
    const to =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? this.#index + 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? this.#index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : undefined;
    if (to === undefined) return;
    e.preventDefault();
    this.go(to);
  };

  /** Moves to hop `i` (clamped), updates the list, the live region and the diagram. */
  go(i: number): void {
    const view = this.#view;
    if (!view || view.steps.length === 0) return;
    this.#index = Math.max(0, Math.min(view.steps.length - 1, i));
    this.#sync(true);
  }

  #sync(announce: boolean): void {
    const view = this.#view;
    if (!view) return;
    const t = translator(this.locale);
    const step = view.steps[this.#index];
    if (!step) return;
    for (const li of this.querySelectorAll<HTMLLIElement>('.pp-walk__list li')) {
      const current = Number(li.dataset.index) === this.#index;
      if (current) {
        li.setAttribute('aria-current', 'step');
        li.scrollIntoView?.({ block: 'nearest' });
      } else li.removeAttribute('aria-current');
    }
    const at = (sel: string) => this.querySelector<HTMLButtonElement>(`[data-action="${sel}"]`);
    const first = this.#index === 0;
    const last = this.#index === view.steps.length - 1;
    for (const [a, off] of [
      ['first', first],
      ['prev', first],
      ['next', last],
      ['last', last],
    ] as const) {
      const b = at(a);
      if (b) b.disabled = off;
    }
    const counter = this.querySelector('[data-counter]');
    if (counter) counter.textContent = t('ui.stepOf', { n: this.#index + 1, total: view.steps.length });
    const now = this.querySelector('[data-now]');
    if (now && announce)
      now.textContent = `${t('ui.stepOf', { n: this.#index + 1, total: view.steps.length })}. ${step.label}: ${step.text}${last ? ` ${view.outcomeText}` : ''}`;
    this.#diagram()?.highlight(step.targets);
    this.dispatchEvent(new CustomEvent('pp-walk-step', { detail: step, bubbles: true }));
  }

  render(): void {
    const doc = this.ownerDocument;
    const t = translator(this.locale);
    this.replaceChildren();
    const trace = this.#trace;
    this.#view = trace ? walkView(trace, this.locale, this.#model) : null;
    const view = this.#view;
    if (!view) {
      const p = doc.createElement('p');
      p.textContent = t('ui.walkEmpty');
      this.append(p);
      this.#diagram()?.highlight([]);
      return;
    }
    const title = doc.createElement('p');
    title.className = 'pp-walk__title';
    title.textContent = `${view.title} · ${view.outcomeText}`;
    const help = doc.createElement('p');
    help.className = 'pp-net__sr';
    help.id = `${this.id || 'pp-walk'}-help`;
    help.textContent = t('ui.walkHelp');
    const bar = doc.createElement('div');
    bar.className = 'pp-walk__bar';
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', t('ui.walk'));
    const button = (action: string, key: StringKey, symbol: string, to: () => number) => {
      const b = doc.createElement('button');
      b.type = 'button';
      b.dataset.action = action;
      b.setAttribute('aria-label', t(key));
      b.title = t(key);
      b.textContent = symbol;
      b.addEventListener('click', () => this.go(to()));
      return b;
    };
    const counter = doc.createElement('span');
    counter.dataset.counter = '';
    bar.append(
      button('first', 'ui.first', '◀◀', () => 0),
      button('prev', 'ui.prev', '◀', () => this.#index - 1),
      button('next', 'ui.next', '▶', () => this.#index + 1),
      button('last', 'ui.last', '▶▶', () => (this.#view?.steps.length ?? 1) - 1),
      counter,
    );
    const list = doc.createElement('ol');
    list.className = 'pp-walk__list';
    list.tabIndex = 0;
    list.setAttribute('aria-label', t('ui.walk'));
    list.setAttribute('aria-describedby', help.id);
    for (const s of view.steps) {
      const li = doc.createElement('li');
      li.dataset.index = String(s.index);
      li.dataset.kind = s.kind;
      li.dataset.tone = s.tone;
      if (s.deciding) li.dataset.deciding = '';
      const num = doc.createElement('span');
      num.textContent = String(s.index + 1);
      const label = doc.createElement('span');
      label.className = 'pp-walk__label';
      label.textContent = s.label;
      const text = doc.createElement('span');
      text.textContent = s.text;
      if (s.detail) {
        const code = doc.createElement('code');
        code.className = 'pp-walk__detail';
        code.textContent = s.detail;
        text.append(code);
      }
      li.append(num, label, text);
      li.addEventListener('click', () => this.go(s.index));
      list.append(li);
    }
    const now = doc.createElement('p');
    now.className = 'pp-walk__now';
    now.dataset.now = '';
    now.setAttribute('aria-live', 'polite');
    now.setAttribute('aria-atomic', 'true');
    this.append(title, help, bar, list, now);
    this.#sync(false);
  }
}

export function defineWalkElement(): void {
  if (!customElements.get('pp-walk')) customElements.define('pp-walk', PpWalk);
}
