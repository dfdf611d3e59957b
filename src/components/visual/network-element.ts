/**
 * `<pp-network>`: the lab's "Network" view. The diagram on top (always visible, so the walk can light
 * it up), and under it two tabs: the packet walk (with a from/to/port trace form) and the
 * reachability matrix. It talks to the engine only through a `NetworkHost` (state + trace), which the
 * lab island implements over the worker protocol; `refresh()` after each command or file apply.
 */
import type { NetworkHost, NetworkState, NetworkTraceRequest } from '../../visual/state.ts';
import { walkView } from '../../visual/walk/walk.ts';
import { translator, toLocale, type Locale, type StringKey } from '../../visual/strings.ts';
import { ensureStyles } from './styles.ts';
import { defineMatrixElement, PpMatrix, type TraceRequestDetail } from './matrix-element.ts';
import { defineTopologyElement, PpTopology } from './topology-element.ts';
import { defineWalkElement, PpWalk } from './walk-element.ts';

let counter = 0;

export class PpNetwork extends HTMLElement {
  #host: NetworkHost | null = null;
  #state: NetworkState | null = null;
  #uid = `pp-net-${++counter}`;
  #abort: AbortController | null = null;
  topology!: PpTopology;
  walk!: PpWalk;
  matrix!: PpMatrix;

  get locale(): Locale {
    return toLocale(this.dataset.lang ?? this.closest('[lang]')?.getAttribute('lang'));
  }

  connectedCallback(): void {
    ensureStyles(this.ownerDocument);
    this.classList.add('pp-net');
    if (!this.topology) this.#build();
  }

  disconnectedCallback(): void {
    this.#abort?.abort();
  }

  /** Uses this host from now on and fetches the current state. */
  connectHost(host: NetworkHost): Promise<void> {
    this.#host = host;
    return this.refresh();
  }

  async refresh(): Promise<void> {
    if (!this.#host) return;
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    try {
      const state = await this.#host.state(abort.signal);
      if (!abort.signal.aborted) this.setState(state);
    } catch (e) {
      if (!abort.signal.aborted)
        this.#status(
          translator(this.locale)('ui.error', { reason: e instanceof Error ? e.message : String(e) }),
        );
    }
  }

  /** Draws this state (skipped when nothing it shows has changed). */
  setState(state: NetworkState): void {
    const prev = this.#state;
    // The same revision can still change the Services mode: kube-proxy's endpoint choice depends on the
    // simulated time, which moves with every command; a cell must show the connection its click replays.
    const sameServices = prev !== null && JSON.stringify(prev.services) === JSON.stringify(state.services);
    if (prev && prev.revision === state.revision) {
      if (!sameServices) {
        this.#state = state;
        this.matrix.setServices(state.services, state.servicesTooLarge);
      }
      return;
    }
    this.#state = state;
    this.topology.model = state.topology;
    this.walk.model = state.topology;
    this.matrix.model = state.topology;
    this.matrix.cells = state.matrix;
    this.matrix.setServices(state.services, state.servicesTooLarge);
    this.#fillPods();
  }

  /** Traces and plays the walk; `fromMatrix` also names the deciding rule under the grid. */
  async trace(request: NetworkTraceRequest, fromMatrix = false): Promise<void> {
    const t = translator(this.locale);
    if (!this.#host) return;
    const result = await this.#host.trace(request);
    if ('error' in result) {
      this.#status(result.error);
      if (fromMatrix) this.matrix.showDecision(result.error);
      return;
    }
    this.#status('');
    this.walk.trace = result;
    if (!fromMatrix) {
      this.#showTab('walk');
      return;
    }
    // The hop that decided a failure; for a pass, the policy rule that allowed it (or the policy hop
    // saying nothing isolates the pod), which is what a matrix cell is about. Through a Service, the
    // kube-proxy rule that picked the endpoint comes first: it decides where the packet goes.
    const view = walkView(result, this.locale, this.#state?.topology);
    const policySteps = view.steps.filter((s) => s.kind === 'network-policy');
    const deciding =
      view.steps.find((s) => s.deciding) ??
      [...policySteps].reverse().find((s) => s.targets.some((x) => x.startsWith('pol-'))) ??
      policySteps.at(-1) ??
      view.steps.at(-1);
    const service = view.steps.find((s) => s.kind === 'service');
    const hops = [service, deciding].filter((s, i, all) => s !== undefined && all.indexOf(s) === i);
    if (!deciding) return;
    // The diagram lights the deciding hop; the button opens the whole walk there.
    this.walk.go(deciding.index);
    this.matrix.showDecision(
      t('matrix.decidedBy', { hop: hops.map((s) => `${s!.label}: ${s!.text}`).join(' — ') }),
      {
        label: t('ui.showWalk'),
        run: () => {
          this.#showTab('walk');
          this.querySelector<HTMLElement>('.pp-walk__list')?.focus();
        },
      },
    );
  }

  /** Draws the walk of a `trace …` line the learner ran in the terminal. */
  traceCommand(line: string): Promise<void> {
    return this.trace({ command: line });
  }

  #showTab(name: string): void {
    this.querySelector<HTMLButtonElement>(`[role=tab][data-tab="${name}"]`)?.click();
  }

  #status(text: string): void {
    const s = this.querySelector('[data-net-status]');
    if (s) s.textContent = text;
  }

  #fillPods(): void {
    const select = this.querySelector<HTMLSelectElement>('select[name=from]');
    const model = this.#state?.topology;
    if (!select || !model) return;
    const current = select.value;
    select.replaceChildren();
    for (const p of model.nodes.flatMap((n) => n.pods).filter((x) => x.role === 'app')) {
      const o = this.ownerDocument.createElement('option');
      o.value = p.key;
      o.textContent = `${p.key} (${p.ip ?? p.phase})`;
      select.append(o);
    }
    if ([...select.options].some((o) => o.value === current)) select.value = current;
  }

  #build(): void {
    defineTopologyElement();
    defineWalkElement();
    defineMatrixElement();
    const doc = this.ownerDocument;
    const t = translator(this.locale);
    const el = <K extends keyof HTMLElementTagNameMap>(
      tag: K,
      props: Readonly<Record<string, string | number | boolean>> = {},
    ): HTMLElementTagNameMap[K] => Object.assign(doc.createElement(tag), props);
    this.topology = doc.createElement('pp-topology') as PpTopology;
    this.topology.id = `${this.#uid}-topology`;
    this.walk = doc.createElement('pp-walk') as PpWalk;
    this.walk.id = `${this.#uid}-walk`;
    this.walk.topology = this.topology;
    this.matrix = doc.createElement('pp-matrix') as PpMatrix;
    this.matrix.id = `${this.#uid}-matrix`;
    for (const x of [this.topology, this.walk, this.matrix])
      if (this.dataset.lang) x.dataset.lang = this.dataset.lang;

    const tabs = el('div', { className: 'pp-net__tabs' });
    tabs.setAttribute('role', 'tablist');
    tabs.setAttribute('aria-label', t('ui.tabs'));
    const panels: HTMLElement[] = [];
    const tabButtons: HTMLButtonElement[] = [];
    const select = (i: number, focus: boolean) =>
      tabButtons.forEach((b, j) => {
        b.setAttribute('aria-selected', String(i === j));
        b.tabIndex = i === j ? 0 : -1;
        panels[j]!.hidden = i !== j;
        if (i === j && focus) b.focus();
      });
    const makeTab = (key: StringKey, name: string, content: HTMLElement[]) => {
      const i = tabButtons.length;
      const b = el('button', { type: 'button', id: `${this.#uid}-tab-${name}`, textContent: t(key) });
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-controls', `${this.#uid}-panel-${name}`);
      b.dataset.tab = name;
      b.addEventListener('click', () => select(i, false));
      b.addEventListener('keydown', (e) => {
        const n = tabButtons.length;
        const to =
          e.key === 'ArrowRight'
            ? (i + 1) % n
            : e.key === 'ArrowLeft'
              ? (i + n - 1) % n
              : e.key === 'Home'
                ? 0
                : e.key === 'End'
                  ? n - 1
                  : -1;
        if (to < 0) return;
        e.preventDefault();
        select(to, true);
      });
      const panel = el('div', { id: `${this.#uid}-panel-${name}` });
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', b.id);
      panel.append(...content);
      tabButtons.push(b);
      panels.push(panel);
      tabs.append(b);
    };

    const form = el('form', { className: 'pp-walk__form' });
    const from = el('select', { name: 'from' });
    const to = el('input', {
      name: 'to',
      type: 'text',
      required: true,
      autocomplete: 'off',
      spellcheck: false,
    });
    const port = el('input', { name: 'port', type: 'number', min: '1', max: '65535', inputMode: 'numeric' });
    const label = (key: StringKey, control: HTMLElement) => {
      const l = el('label');
      l.append(t(key), control);
      return l;
    };
    form.append(
      label('ui.traceFrom', from),
      label('ui.traceTo', to),
      label('ui.tracePort', port),
      el('button', { type: 'submit', textContent: t('ui.traceButton') }),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const key = from.value;
      const slash = key.indexOf('/');
      if (slash < 0 || !to.value.trim()) return;
      void this.trace({
        from: { kind: 'pod', namespace: key.slice(0, slash), name: key.slice(slash + 1) },
        to: to.value.trim(),
        ...(port.value ? { port: Number(port.value) } : {}),
      });
    });
    makeTab('ui.tab.walk', 'walk', [form, this.walk]);
    makeTab('ui.tab.matrix', 'matrix', [this.matrix]);
    this.addEventListener('pp-trace-request', (e) => {
      const d = (e as CustomEvent<TraceRequestDetail>).detail;
      void this.trace({ from: d.from, to: d.to, port: d.port, protocol: d.protocol, probe: true }, true);
    });
    const status = el('p', { className: 'pp-net__status' });
    status.dataset.netStatus = '';
    status.setAttribute('role', 'status');
    this.append(this.topology, status, tabs, ...panels);
    select(0, false);
  }
}

export function defineNetworkElement(): void {
  if (!customElements.get('pp-network')) customElements.define('pp-network', PpNetwork);
}
