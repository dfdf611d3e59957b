/**
 * Links the first occurrence of each glossary term in a chapter's rendered HTML to its glossary entry.
 *
 * Runs at render time on the HTML of the chapter body (src/components/overrides/MarkdownContent.astro),
 * so it works the same whatever Markdown pipeline Astro uses. The HTML comes from Astro itself, so a small
 * tokenizer (tags, comments, raw-text elements, text) is enough: no DOM, no parser dependency.
 *
 * Text is left alone inside code blocks, headings, links and other interactive elements, diagrams (`svg`,
 * `figure`), and anything marked `not-content` (the objectives box, the lab) or `data-pp-no-terms`.
 * Inline code that is exactly a term (`ndots`, `resolv.conf`, or with a value: `ndots:5`) is linked as a
 * whole, since writers often set the term itself in code; its text is not changed.
 */

export interface LinkableTerm {
  /** The term id (key of content/glossary/terms.yaml), used as the glossary anchor. */
  id: string;
  /** The term as written in the glossary (`veth pair`, `ingress (policy)`). */
  term: string;
}

export interface LinkOptions {
  /** The link target of a term id, e.g. `/pt-br/glossary/#cni`. */
  href: (id: string) => string;
  /** HTML placed right after the link (the tooltip), or '' for none. */
  after: (id: string) => string;
  /** Id of the element describing the link (`aria-describedby`), if any. */
  describedBy?: (id: string) => string | undefined;
}

export interface LinkResult {
  html: string;
  /** Ids of the terms that were linked, in the order they were found. */
  linked: string[];
}

/** Elements whose text is never linked (their whole subtree is skipped). */
const SKIP_TAGS = new Set([
  'a',
  'button',
  'code',
  'kbd',
  'samp',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'svg',
  'math',
  'figure',
  'figcaption',
  'label',
  'select',
  'option',
  'textarea',
  'summary',
  'title',
  'template',
  'dialog',
]);
const SKIP_CLASSES = ['not-content', 'pp-diagram', 'pp-lab', 'pp-term', 'expressive-code'];
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript']);
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The spellings a term is matched by: the term itself, the term without a trailing parenthetical
 * (`ingress (policy)` → `ingress`), and the id when it is the short form (`veth` for `veth pair`,
 * `overlay` for `overlay network`). Longest first, so `Gateway API` wins over `Gateway`.
 */
export function spellingsOf({ id, term }: LinkableTerm): string[] {
  const base = term.replace(/\s*\([^)]*\)\s*$/, '').trim();
  const candidates = new Set([term, base]);
  const idWords = id.replace(/-/g, ' ');
  if (base.toLowerCase().startsWith(idWords + ' ')) candidates.add(idWords);
  return [...candidates].filter((s) => s.length > 1).sort((a, b) => b.length - a.length);
}

/**
 * A matcher for a set of terms: spellings with an uppercase letter match case-sensitively
 * (`Service` the object, not "service" the word); all-lowercase ones in any case (`Kubelet` at the start
 * of a sentence). A plural `s` is allowed. Term boundaries exclude letters, digits, `_`, and a `-` or `.`
 * that joins two words (so `kube-proxy` does not match inside `kube-proxy-free`, nor `tc` inside `tc.go`).
 */
function matcherFor(terms: LinkableTerm[]) {
  const patterns = terms.flatMap((t) =>
    spellingsOf(t).map((spelling) => ({
      id: t.id,
      spelling,
      re: new RegExp(
        `(?<![\\p{L}\\p{N}_/.-])${escapeRegExp(spelling).replace(/ /g, '\\s+')}(?:e?s)?(?![\\p{L}\\p{N}_]|[-.][\\p{L}\\p{N}])`,
        /\p{Lu}/u.test(spelling) ? 'gu' : 'giu',
      ),
    })),
  );
  return patterns;
}

/** Anchored matchers for inline code that is exactly a term, optionally with `:value` or `=value`. */
function codeMatcherFor(terms: LinkableTerm[]) {
  return terms.flatMap((t) =>
    spellingsOf(t).map((spelling) => ({
      id: t.id,
      re: new RegExp(`^${escapeRegExp(spelling)}(?:[:=][^\\s]*)?$`, /\p{Lu}/u.test(spelling) ? 'u' : 'iu'),
    })),
  );
}

interface Token {
  kind: 'text' | 'open' | 'close' | 'other';
  raw: string;
  tag?: string;
  selfClosing?: boolean;
}

const TAG_RE =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\/([a-zA-Z][^\s/>]*)\s*>|<([a-zA-Z][^\s/>]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g;

function* tokenize(html: string): Generator<Token> {
  let last = 0;
  TAG_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TAG_RE.exec(html))) {
    if (m.index > last) yield { kind: 'text', raw: html.slice(last, m.index) };
    last = TAG_RE.lastIndex;
    if (m[1]) {
      yield { kind: 'close', raw: m[0], tag: m[1].toLowerCase() };
    } else if (m[2]) {
      const tag = m[2].toLowerCase();
      yield { kind: 'open', raw: m[0], tag, selfClosing: m[4] === '/' || VOID.has(tag) };
      if (RAW_TEXT.has(tag) && m[4] !== '/') {
        // Raw text runs to the matching end tag, whatever it contains.
        const end = html.toLowerCase().indexOf(`</${tag}`, last);
        const stop = end === -1 ? html.length : end;
        if (stop > last) yield { kind: 'other', raw: html.slice(last, stop) };
        last = stop;
        TAG_RE.lastIndex = stop;
      }
    } else {
      yield { kind: 'other', raw: m[0] };
    }
  }
  if (last < html.length) yield { kind: 'text', raw: html.slice(last) };
}

function skips(token: Token): boolean {
  if (SKIP_TAGS.has(token.tag!) || RAW_TEXT.has(token.tag!)) return true;
  if (/\sdata-pp-no-terms\b/.test(token.raw)) return true;
  // A link inside an aria-hidden subtree (Starlight's aside titles) would be focusable yet hidden from
  // assistive technology: axe's aria-hidden-focus.
  if (/\saria-hidden\s*=\s*["']?true\b/.test(token.raw)) return true;
  const cls = /\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/.exec(token.raw);
  const classes = (cls?.[1] ?? cls?.[2] ?? cls?.[3] ?? '').split(/\s+/);
  return SKIP_CLASSES.some((c) => classes.includes(c));
}

/** Links the first occurrence of each term in the body text of `html`. */
export function linkTerms(html: string, terms: LinkableTerm[], options: LinkOptions): LinkResult {
  const patterns = matcherFor(terms);
  const codePatterns = codeMatcherFor(terms);
  const pending = new Set(terms.map((t) => t.id));
  const linked: string[] = [];
  const out: string[] = [];
  /** Open elements; `skip` marks the one that started a skipped subtree. */
  const stack: { tag: string; skip: boolean }[] = [];
  let skipDepth = 0;

  const tokens = [...tokenize(html)];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'open' && token.tag === 'code' && skipDepth === 0 && pending.size > 0) {
      const [text, close] = [tokens[i + 1], tokens[i + 2]];
      if (text?.kind === 'text' && close?.kind === 'close' && close.tag === 'code') {
        const id = codePatterns.find((p) => pending.has(p.id) && p.re.test(text.raw.trim()))?.id;
        if (id !== undefined) {
          out.push(wrap(id, token.raw + text.raw + close.raw));
          i += 2;
          continue;
        }
      }
    }
    if (token.kind === 'open') {
      if (!token.selfClosing) {
        const skip = skips(token);
        stack.push({ tag: token.tag!, skip });
        if (skip) skipDepth++;
      }
      out.push(token.raw);
    } else if (token.kind === 'close') {
      // Pop to the matching element (tolerates unclosed `p`/`li`, which Astro does not emit anyway).
      const at = stack.map((e) => e.tag).lastIndexOf(token.tag!);
      if (at !== -1) {
        for (const e of stack.splice(at)) if (e.skip) skipDepth--;
      }
      out.push(token.raw);
    } else if (token.kind === 'text' && skipDepth === 0 && pending.size > 0) {
      out.push(linkText(token.raw));
    } else {
      out.push(token.raw);
    }
  }
  return { html: out.join(''), linked };

  function wrap(id: string, inner: string): string {
    const described = options.describedBy?.(id);
    pending.delete(id);
    linked.push(id);
    return (
      `<span class="pp-term"><a href="${options.href(id)}" class="pp-term__link" data-pp-term="${id}"` +
      (described ? ` aria-describedby="${described}"` : '') +
      `>${inner}</a>${options.after(id)}</span>`
    );
  }

  function linkText(text: string): string {
    let result = '';
    let rest = text;
    for (;;) {
      let best: { index: number; length: number; id: string } | undefined;
      for (const p of patterns) {
        if (!pending.has(p.id)) continue;
        p.re.lastIndex = 0;
        const m = p.re.exec(rest);
        if (m && (!best || m.index < best.index || (m.index === best.index && m[0].length > best.length))) {
          best = { index: m.index, length: m[0].length, id: p.id };
        }
      }
      if (!best) return result + rest;
      result += rest.slice(0, best.index) + wrap(best.id, rest.slice(best.index, best.index + best.length));
      rest = rest.slice(best.index + best.length);
    }
  }
}
