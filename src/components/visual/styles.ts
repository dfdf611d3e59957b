/**
 * The network views' CSS, added once to the document by whichever element connects first (the
 * elements are mounted by the lab island, which may load them without a stylesheet of their own).
 * Colours are Starlight's custom properties, so light and dark follow the site theme; verdicts have a
 * symbol as well as a colour.
 */
const CSS = `
.pp-net{display:block;color:var(--sl-color-white);font-size:var(--sl-text-sm,0.875rem)}
.pp-net :focus-visible{outline:2px solid var(--sl-color-accent-high);outline-offset:2px}
.pp-net button{font:inherit;color:var(--sl-color-white);background:var(--sl-color-gray-6);border:1px solid var(--sl-color-gray-4);border-radius:.25rem;padding:.15rem .6rem;cursor:pointer}
.pp-net button:disabled{opacity:.55;cursor:default}
.pp-net .pp-net__sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
.pp-net__tabs{display:flex;gap:.25rem;border-bottom:1px solid var(--sl-color-gray-5);margin-bottom:.5rem}
.pp-net__tabs [role=tab]{border-radius:.25rem .25rem 0 0;border-bottom:none;background:transparent}
.pp-net__tabs [role=tab][aria-selected=true]{background:var(--sl-color-accent-low);border-color:var(--sl-color-accent)}
.pp-topology__scroll{overflow:auto;max-height:70vh;border:1px solid var(--sl-color-gray-5);border-radius:.25rem}
.pp-topology__scroll svg{display:block;width:100%;min-width:640px;height:auto}
.pp-topology__scroll[data-actual-size] svg{width:auto;min-width:0;max-width:none}
.pp-topology__bar{display:flex;gap:.5rem;align-items:center;margin:.35rem 0}
.pp-topology details{margin-top:.35rem}
.pp-topology details ul{margin:.25rem 0 .25rem 1.2rem;padding:0}
.pp-walk__title{font-weight:600;margin:.25rem 0}
.pp-walk__bar{display:flex;gap:.35rem;align-items:center;flex-wrap:wrap;margin:.35rem 0}
.pp-walk__list{list-style:none;margin:0;padding:0;max-height:22rem;overflow:auto;border:1px solid var(--sl-color-gray-5);border-radius:.25rem}
.pp-walk__list li{display:grid;grid-template-columns:2.2rem 7.5rem 1fr;gap:.4rem;padding:.3rem .45rem;border-bottom:1px solid var(--sl-color-gray-6);cursor:pointer}
.pp-walk__list li[aria-current=step]{background:var(--sl-color-accent-low);outline:2px solid var(--sl-color-accent);outline-offset:-2px}
.pp-walk__list li[data-tone=stop] .pp-walk__label{color:var(--sl-color-red-high)}
.pp-walk__list li[data-deciding] .pp-walk__label::after{content:' ◆'}
.pp-walk__label{font-weight:600}
.pp-walk__detail{display:block;font-family:var(--__sl-font-mono,monospace);font-size:.8em;color:var(--sl-color-gray-2);overflow-wrap:anywhere}
.pp-walk__now{margin:.35rem 0;min-height:1.5em}
.pp-walk__form{display:flex;gap:.5rem;align-items:end;flex-wrap:wrap;margin:.35rem 0}
.pp-walk__form label{display:flex;flex-direction:column;font-size:.85em}
.pp-walk__form input,.pp-walk__form select{font:inherit;color:var(--sl-color-white);background:var(--sl-color-black);border:1px solid var(--sl-color-gray-4);border-radius:.25rem;padding:.1rem .3rem}
.pp-matrix__summary{font-weight:600;margin:.25rem 0}
.pp-matrix__mode{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;border:1px solid var(--sl-color-gray-5);border-radius:.25rem;padding:.2rem .6rem;margin:.25rem 0}
.pp-matrix__mode legend{font-weight:600;padding:0 .25rem}
.pp-matrix__mode label{display:inline-flex;gap:.3rem;align-items:center;cursor:pointer}
.pp-matrix__scroll{overflow:auto;max-height:60vh}
.pp-matrix table{border-collapse:collapse;font-size:.8em;margin:0}
.pp-matrix th,.pp-matrix td{border:1px solid var(--sl-color-gray-5);padding:.15rem .35rem;text-align:center;white-space:nowrap}
.pp-matrix thead th{writing-mode:vertical-rl;transform:rotate(180deg);text-align:start;font-weight:500}
.pp-matrix tbody th{text-align:start;font-weight:500}
.pp-matrix td{min-width:1.8rem;cursor:pointer;font-weight:700}
.pp-matrix td[data-verdict=allowed]{background:var(--sl-color-green-low);color:var(--sl-color-green-high)}
.pp-matrix td[data-verdict=blocked]{background:var(--sl-color-red-low);color:var(--sl-color-red-high)}
.pp-matrix td[data-verdict=refused]{background:var(--sl-color-orange-low);color:var(--sl-color-orange-high)}
.pp-matrix td[data-verdict=none]{color:var(--sl-color-gray-3)}
.pp-matrix td:focus{outline:3px solid var(--sl-color-accent-high);outline-offset:-3px}
.pp-matrix__legend{display:flex;gap:1rem;margin:.35rem 0;flex-wrap:wrap}
.pp-matrix__decision{margin:.35rem 0;min-height:1.5em}
`;

export function ensureStyles(doc: Document): void {
  if (doc.getElementById('pp-visual-style')) return;
  const style = doc.createElement('style');
  style.id = 'pp-visual-style';
  style.textContent = CSS;
  doc.head.append(style);
}
