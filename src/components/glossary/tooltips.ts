/**
 * Glossary term tooltips in chapters. Each `.pp-term` wraps a link and its popover
 * (`[popover=manual]`, id referenced by the link's `aria-describedby`):
 * - hover shows it after a short delay, leaving both the link and the popover hides it after a grace
 *   period (so the pointer can move onto the popover: WCAG 1.4.13 "hoverable");
 * - keyboard focus on the link shows it at once, blur hides it;
 * - Escape hides the open popover until the pointer leaves and focus moves away ("dismissible");
 * - it stays until then ("persistent"). One popover is open at a time.
 */

const SHOW_DELAY = 100;
const HIDE_DELAY = 300;
const GAP = 6;

interface Term {
  wrapper: HTMLElement;
  link: HTMLAnchorElement;
  tip: HTMLElement;
  hover: boolean;
  focus: boolean;
  dismissed: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

export function setupTermTooltips(root: Document): void {
  if (!('showPopover' in HTMLElement.prototype)) return; // the link alone still works
  let open: Term | undefined;

  const place = (term: Term) => {
    const anchor = term.link.getClientRects()[0] ?? term.link.getBoundingClientRect();
    const tip = term.tip.getBoundingClientRect();
    const left = Math.max(8, Math.min(anchor.left, window.innerWidth - tip.width - 8));
    const below = anchor.bottom + GAP;
    const top =
      below + tip.height > window.innerHeight - 8 && anchor.top - GAP - tip.height > 8
        ? anchor.top - GAP - tip.height
        : below;
    term.tip.style.left = `${left}px`;
    term.tip.style.top = `${top}px`;
  };

  const show = (term: Term) => {
    if (open && open !== term) hide(open);
    if (!term.tip.matches(':popover-open')) term.tip.showPopover();
    open = term;
    place(term);
  };
  const hide = (term: Term) => {
    clearTimeout(term.timer);
    if (term.tip.matches(':popover-open')) term.tip.hidePopover();
    if (open === term) open = undefined;
  };
  const update = (term: Term, delay: number) => {
    clearTimeout(term.timer);
    const apply = () => ((term.hover || term.focus) && !term.dismissed ? show(term) : hide(term));
    if (delay === 0) apply();
    else term.timer = setTimeout(apply, delay);
  };

  for (const wrapper of root.querySelectorAll<HTMLElement>('.pp-term')) {
    const link = wrapper.querySelector<HTMLAnchorElement>('.pp-term__link');
    const tip = wrapper.querySelector<HTMLElement>('.pp-term__tip');
    if (!link || !tip) continue;
    const term: Term = { wrapper, link, tip, hover: false, focus: false, dismissed: false };
    wrapper.addEventListener('pointerenter', (event) => {
      if (event.pointerType === 'touch') return;
      term.hover = true;
      update(term, term.tip.matches(':popover-open') ? 0 : SHOW_DELAY);
    });
    wrapper.addEventListener('pointerleave', (event) => {
      if (event.pointerType === 'touch') return;
      term.hover = false;
      if (!term.focus) term.dismissed = false;
      update(term, HIDE_DELAY);
    });
    link.addEventListener('focus', () => {
      term.focus = true;
      update(term, 0);
    });
    link.addEventListener('blur', () => {
      term.focus = false;
      if (!term.hover) term.dismissed = false;
      update(term, 0);
    });
  }

  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !open) return;
    open.dismissed = true;
    hide(open);
  });
  const reposition = () => open && place(open);
  window.addEventListener('scroll', reposition, { passive: true });
  window.addEventListener('resize', reposition, { passive: true });
}
