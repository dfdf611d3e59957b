/**
 * Filter-as-you-type for the glossary page (src/components/GlossaryList.astro). Each entry's searchable
 * text is the text of its `[data-pp-field]` elements (term, expansion, definition, how Brazilians say it),
 * folded to lower case without accents, so "conexao" finds "conexão". Every word typed must appear.
 * Escape clears the filter; the count goes to a polite live region, a moment after typing stops.
 */
import { foldForSearch } from './render';

const ANNOUNCE_DELAY = 400;

export function setupGlossaryFilter(root: HTMLElement): void {
  const form = root.querySelector<HTMLElement>('[data-pp-filter]');
  const input = root.querySelector<HTMLInputElement>('[data-pp-filter] input');
  const status = root.querySelector<HTMLElement>('[data-pp-count]');
  if (!form || !input || !status) return;
  const strings = { ...root.dataset } as Record<string, string>;
  const entries = [...root.querySelectorAll<HTMLElement>('[data-pp-entry]')].map((element) => ({
    element,
    text: foldForSearch(
      [...element.querySelectorAll('[data-pp-field]')].map((field) => field.textContent ?? '').join(' '),
    ),
  }));
  const groups = [...root.querySelectorAll<HTMLElement>('[data-pp-group]')];
  const letters = [...root.querySelectorAll<HTMLElement>('[data-pp-letter]')];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const message = (count: number, query: string) => {
    const template = !query
      ? strings.countAll
      : count === 0
        ? strings.countNone
        : count === 1
          ? strings.countOne
          : strings.countMany;
    return (template ?? '').replace('{count}', String(count)).replace('{query}', query);
  };

  const apply = () => {
    const query = input.value.trim();
    const words = foldForSearch(query).split(/\s+/).filter(Boolean);
    let count = 0;
    for (const { element, text } of entries) {
      const match = words.every((word) => text.includes(word));
      element.hidden = !match;
      if (match) count++;
    }
    for (const group of groups) {
      group.hidden = !group.querySelector('[data-pp-entry]:not([hidden])');
    }
    for (const letter of letters) {
      const group = root.querySelector<HTMLElement>(`[data-pp-group="${letter.dataset.ppLetter}"]`);
      letter.hidden = group?.hidden ?? true;
    }
    clearTimeout(timer);
    timer = setTimeout(() => {
      status.textContent = message(count, query);
    }, ANNOUNCE_DELAY);
  };

  input.addEventListener('input', apply);
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || input.value === '') return;
    event.preventDefault();
    input.value = '';
    apply();
  });
  // Following a link to an entry the filter hides (a jump link, a chapter link in the same tab): show all.
  window.addEventListener('hashchange', () => {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.closest('[hidden]') && root.contains(target)) {
      input.value = '';
      apply();
      target.scrollIntoView();
    }
  });
  form.hidden = false;
  // A value the browser restored (back/forward) is applied at once.
  if (input.value) apply();
}
