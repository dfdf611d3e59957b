/**
 * `<pp-topology>`: the live topology diagram. Give it a model (`el.model = …`, computed by the host
 * with `topologyModel`) and it draws the SVG, a "Download SVG" button (a standalone file with resolved
 * colours) and the text equivalent. `highlight(ids)` lights up the elements a walk step touches.
 * Imports renderers only: no engine code reaches the page.
 */
import { exportTopologySvg, renderTopologySvg } from '../../visual/topology/svg.ts';
import { textListHtml, topologyText } from '../../visual/topology/text.ts';
import type { TopologyModel } from '../../visual/topology/types.ts';
import { translator, toLocale, type Locale } from '../../visual/strings.ts';
import { ensureStyles } from './styles.ts';

let counter = 0;

export class PpTopology extends HTMLElement {
  #model: TopologyModel | null = null;
  #uid = `pp-topo-${++counter}`;
  #hot: readonly string[] = [];
  /** Fit to the width (default) or drawn at 1:1 in its scrolling region (big clusters, narrow panels). */
  #actualSize = false;

  get locale(): Locale {
    return toLocale(this.dataset.lang ?? this.closest('[lang]')?.getAttribute('lang'));
  }

  get model(): TopologyModel | null {
    return this.#model;
  }

  set model(value: TopologyModel | null) {
    this.#model = value;
    this.render();
  }

  connectedCallback(): void {
    ensureStyles(this.ownerDocument);
    this.classList.add('pp-net', 'pp-topology');
    if (!this.firstChild) this.render();
  }

  render(): void {
    const t = translator(this.locale);
    this.replaceChildren();
    const model = this.#model;
    if (!model) return;
    const scroll = this.ownerDocument.createElement('div');
    scroll.className = 'pp-topology__scroll';
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-label', t('ui.topology'));
    // The SVG string is built by renderTopologySvg, which escapes every value taken from the cluster.
    scroll.innerHTML = renderTopologySvg(model, { locale: this.locale, idPrefix: this.#uid });
    const bar = this.ownerDocument.createElement('div');
    bar.className = 'pp-topology__bar';
    const download = this.ownerDocument.createElement('button');
    download.type = 'button';
    download.dataset.action = 'download-svg';
    download.textContent = t('ui.download');
    download.addEventListener('click', () => this.download());
    const zoom = this.ownerDocument.createElement('button');
    zoom.type = 'button';
    zoom.dataset.action = 'zoom';
    zoom.textContent = t('ui.zoomActual');
    zoom.setAttribute('aria-pressed', String(this.#actualSize));
    zoom.addEventListener('click', () => {
      this.#actualSize = !this.#actualSize;
      zoom.setAttribute('aria-pressed', String(this.#actualSize));
      scroll.toggleAttribute('data-actual-size', this.#actualSize);
    });
    scroll.toggleAttribute('data-actual-size', this.#actualSize);
    bar.append(download, zoom);
    const details = this.ownerDocument.createElement('details');
    const summary = this.ownerDocument.createElement('summary');
    summary.textContent = t('ui.textEquivalent');
    const list = this.ownerDocument.createElement('div');
    list.dataset.text = '';
    list.innerHTML = textListHtml(topologyText(model, this.locale));
    details.append(summary, list);
    this.append(scroll, bar, details);
    this.highlight(this.#hot);
  }

  /** The standalone SVG file's text (light colours: a file has no theme to follow). */
  exportSvg(theme: 'light' | 'dark' = 'light'): string {
    return this.#model ? exportTopologySvg(this.#model, this.locale, theme) : '';
  }

  download(): void {
    const blob = new Blob([this.exportSvg()], { type: 'image/svg+xml' });
    const a = this.ownerDocument.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'cluster-network.svg';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  /** Lights up these element ids (a pod drawn inside a collapsed group lights the group); [] clears. */
  highlight(ids: readonly string[]): void {
    this.#hot = ids;
    const svg = this.querySelector('svg');
    if (!svg) return;
    for (const el of svg.querySelectorAll('.is-hot')) el.classList.remove('is-hot');
    svg.toggleAttribute('data-walking', ids.length > 0);
    const hot = new Set<string>();
    for (const el of svg.querySelectorAll<SVGElement>('[data-el]')) {
      const id = el.dataset.el ?? '';
      const members = (el.dataset.members ?? '').split(' ');
      if (ids.includes(id) || members.some((m) => m && ids.includes(m))) {
        el.classList.add('is-hot');
        hot.add(id);
        for (const m of members) if (m) hot.add(m);
      }
    }
    for (const path of svg.querySelectorAll<SVGElement>('path[data-from]')) {
      const to = (path.dataset.to ?? '').split(' ');
      if (hot.has(path.dataset.from ?? '') && to.some((x) => hot.has(x))) path.classList.add('is-hot');
    }
  }
}

export function defineTopologyElement(): void {
  if (!customElements.get('pp-topology')) customElements.define('pp-topology', PpTopology);
}
