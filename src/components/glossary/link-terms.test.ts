import { describe, expect, it } from 'vitest';
import { linkTerms, spellingsOf, type LinkableTerm } from './link-terms';
import { foldForSearch, inlineCodeHtml } from './render';

const terms: LinkableTerm[] = [
  { id: 'cni', term: 'CNI' },
  { id: 'veth', term: 'veth pair' },
  { id: 'kube-proxy', term: 'kube-proxy' },
  { id: 'gateway', term: 'Gateway' },
  { id: 'gateway-api', term: 'Gateway API' },
  { id: 'service', term: 'Service' },
  { id: 'ingress-rule', term: 'ingress (policy)' },
  { id: 'resolv-conf', term: 'resolv.conf' },
];
const options = {
  href: (id: string) => `/en/glossary/#${id}`,
  after: (id: string) => `<span id="tip-${id}"></span>`,
  describedBy: (id: string) => `tip-${id}`,
};
const link = (html: string, list = terms) => linkTerms(html, list, options);

describe('spellingsOf', () => {
  it('adds the short form and drops a trailing parenthetical', () => {
    expect(spellingsOf({ id: 'veth', term: 'veth pair' })).toEqual(['veth pair', 'veth']);
    expect(spellingsOf({ id: 'ingress-rule', term: 'ingress (policy)' })).toEqual([
      'ingress (policy)',
      'ingress',
    ]);
    expect(spellingsOf({ id: 'overlay', term: 'overlay network' })).toEqual(['overlay network', 'overlay']);
  });
});

describe('linkTerms', () => {
  it('links only the first occurrence of each term, with its description', () => {
    const { html, linked } = link('<p>The CNI plugin. Another CNI.</p>');
    expect(linked).toEqual(['cni']);
    expect(html).toBe(
      '<p>The <span class="pp-term"><a href="/en/glossary/#cni" class="pp-term__link" data-pp-term="cni" aria-describedby="tip-cni">CNI</a><span id="tip-cni"></span></span> plugin. Another CNI.</p>',
    );
  });

  it('skips code, pre, headings, links, diagrams, not-content and raw text', () => {
    const html =
      '<h2>CNI</h2><p><code>CNI plugin</code> <a href="/x">CNI</a></p><pre>CNI</pre><figure class="pp-diagram"><svg><text>CNI</text></svg></figure>' +
      '<section class="pp-objectives not-content"><p>CNI</p></section><script>CNI</script><div class="expressive-code"><p>CNI</p></div><p>then CNI</p>';
    const result = link(html);
    expect(result.linked).toEqual(['cni']);
    expect(result.html).toContain('<p>then <span class="pp-term">');
    expect(result.html.split('class="pp-term"').length).toBe(2);
  });

  it('leaves aria-hidden subtrees alone (a focusable link there breaks aria-hidden-focus)', () => {
    const result = link('<p class="starlight-aside__title" aria-hidden="true">CNI note</p><p>the CNI</p>');
    expect(result.html).toContain('aria-hidden="true">CNI note</p>');
    expect(result.html).toContain('<p>the <span class="pp-term">');
  });

  it('prefers the longest spelling at the same place, and respects term boundaries', () => {
    expect(link('<p>The Gateway API and a Gateway.</p>').linked).toEqual(['gateway-api', 'gateway']);
    expect(link('<p>kube-proxy-free mode, then kube-proxy itself.</p>').html).toContain(
      'then <span class="pp-term"><a',
    );
    expect(link('<p>The file /etc/resolv.conf and resolv.conf.</p>').html).toContain(
      'and <span class="pp-term">',
    );
  });

  it('matches capitalised terms by case, lower-case ones in any case, and plurals', () => {
    expect(link('<p>a service, then two Services</p>').html).toContain(
      'two <span class="pp-term"><a href="/en/glossary/#service" class="pp-term__link" data-pp-term="service" aria-describedby="tip-service">Services</a>',
    );
    expect(link('<p>Veth pairs connect</p>').linked).toEqual(['veth']);
    expect(link('<p>the ingress rules</p>').linked).toEqual(['ingress-rule']);
  });

  it('keeps attributes with > inside and self-closing tags intact', () => {
    const html = '<p title="a > CNI"><img alt="CNI" src="x.png"/>text <br/> CNI</p>';
    const result = link(html);
    expect(
      result.html.startsWith(
        '<p title="a > CNI"><img alt="CNI" src="x.png"/>text <br/> <span class="pp-term">',
      ),
    ).toBe(true);
  });

  it('links inline code that is exactly a term, but not code blocks or longer code', () => {
    const result = link(
      '<pre><code>kube-proxy</code></pre><p><code>kube-proxy --help</code> and <code>resolv.conf</code></p>',
    );
    expect(result.linked).toEqual(['resolv-conf']);
    expect(result.html).toContain('aria-describedby="tip-resolv-conf"><code>resolv.conf</code></a>');
    expect(link('<p>with <code>ndots:5</code></p>', [{ id: 'ndots', term: 'ndots' }]).linked).toEqual([
      'ndots',
    ]);
  });

  it('leaves HTML without terms unchanged', () => {
    const html = '<p>Nothing <em>here</em> &amp; there.</p><!-- CNI -->';
    expect(link(html)).toEqual({ html, linked: [] });
  });
});

describe('render helpers', () => {
  it('folds accents and case', () => {
    expect(foldForSearch('Conexão ÉTICA')).toBe('conexao etica');
  });
  it('escapes HTML and renders backtick code', () => {
    expect(inlineCodeHtml('run `ip <link>` & go')).toBe('run <code>ip &lt;link&gt;</code> &amp; go');
  });
});
