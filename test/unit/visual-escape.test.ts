import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topologyModel } from '../../src/visual/topology/model.ts';
import { renderTopologySvg, textListHtml, topologyText } from '../../src/visual/topology/index.ts';
import { apply, crossNode } from './visual-fixtures.ts';

const TAGS = new Set(['svg', 'title', 'desc', 'style', 'rect', 'g', 'text', 'path', 'ul', 'li']);
const ATTRS = new Set([
  'xmlns',
  'class',
  'viewBox',
  'width',
  'height',
  'role',
  'aria-labelledby',
  'aria-hidden',
  'id',
  'x',
  'y',
  'rx',
  'text-anchor',
  'd',
  'data-el',
  'data-from',
  'data-to',
  'data-members',
  'opacity',
  'style',
]);

/** Every `<` opens a known tag with known, double-quoted attributes that hold no `"` or `<`. */
function markupProblems(markup: string): string[] {
  const body = markup.replace(/<style>[\s\S]*?<\/style>/, '');
  const problems: string[] = [];
  for (const m of body.matchAll(/<[^>]*>?/g)) {
    const tag = /^<\/?([a-z]+)((?:\s[\w:-]+="[^"<>]*")*)\s*\/?>$/.exec(m[0]);
    if (!tag) {
      problems.push(`bad tag: ${m[0].slice(0, 80)}`);
      continue;
    }
    if (!TAGS.has(tag[1]!)) problems.push(`unknown element ${tag[1]}`);
    for (const a of tag[2]!.matchAll(/\s([\w:-]+)=/g))
      if (!ATTRS.has(a[1]!)) problems.push(`attribute ${a[1]}`);
  }
  return problems;
}

describe('hostile names never become markup', () => {
  const cluster = crossNode('calico');
  apply(cluster, [
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'p', namespace: 'default' },
      spec: {
        podSelector: { matchLabels: { app: 'echo' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { run: 'client' } } }] }],
      },
    },
  ]);
  const base = cluster.snapshot();

  it('for any names and label values (fast-check)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    fc.assert(
      fc.property(fc.array(text, { minLength: 8, maxLength: 8 }), (names) => {
        const snap = structuredClone(base);
        let i = 0;
        for (const o of snap.store.objects) {
          if (!['pods', 'services', 'nodes', 'networkpolicies.networking.k8s.io'].includes(o.resource))
            continue;
          const n = names[i++ % names.length]!;
          if (o.resource !== 'nodes') o.object.metadata.name = `${o.object.metadata.name}${n}`;
          o.object.metadata.labels = { ...(o.object.metadata.labels ?? {}), [`k${i}`]: n };
        }
        const model = topologyModel(snap);
        for (const locale of ['en', 'pt-BR'] as const) {
          expect(markupProblems(renderTopologySvg(model, { locale }))).toEqual([]);
          expect(markupProblems(renderTopologySvg(model, { locale, palette: 'dark' }))).toEqual([]);
          expect(markupProblems(textListHtml(topologyText(model, locale)))).toEqual([]);
        }
      }),
      { numRuns: 40 },
    );
    // 40 full renders: a few seconds on a loaded shared machine.
  }, 30_000);

  it('the checker itself catches injected markup', () => {
    expect(markupProblems('<g data-el="x" onload="y"></g>')).toEqual(['attribute onload']);
    expect(markupProblems('<text>a</text><script>1</script>')).toEqual([
      'unknown element script',
      'unknown element script',
    ]);
    expect(markupProblems('<g data-el="a"b">')).not.toEqual([]);
  });
});
