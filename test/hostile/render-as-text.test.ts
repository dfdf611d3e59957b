/**
 * Hostile input rendered as HTML/SVG: the string renderers behind the checks panel and hints
 * (inlineMarkdown), the glossary (escapeHtml, inlineCodeHtml) and the diagrams (escapeXml; the topology
 * SVG and its text list have their own property test in test/unit/visual-escape.test.ts) turn any
 * markup a learner can get into a name, label, annotation or file name into text. The DOM-built views
 * (terminal, matrix, network diagram) are covered in the browser by test/e2e/hostile.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineMarkdown } from '../../src/components/lab/inline-markdown.ts';
import { escapeHtml, inlineCodeHtml } from '../../src/components/glossary/render.ts';
import { escapeXml } from '../../src/visual/escape.ts';

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'><a href=javascript:alert(1)>x</a>",
  '`<b>code</b>`',
  '[click](javascript:alert(1))',
  '[click](https://ok.example/"onmouseover="alert(1))',
  '**<i>bold</i>**',
  '&lt;script&gt;',
];

/** The tags and attributes the renderer itself may produce; anything else came from the input. */
function tags(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => `${m[1]}${m[2]}`);
}

describe('inlineMarkdown (check titles, steps, hints)', () => {
  it.each(PAYLOADS)('%s renders as text', (payload) => {
    const html = inlineMarkdown(payload);
    for (const t of tags(html)) expect(t).toMatch(/^(code|strong|em|a|a href="(https?:\/\/|\/)[^"<>]*")$/);
    expect(html).not.toMatch(/<(script|img|svg|i|b)\b/);
    expect(html).not.toContain('javascript:alert(1)">');
  });

  it('any text: only its own tags, every < of the input escaped (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('<', '>', '"', "'", '`', '*', '[', ']', '(', ')', 'a', ' ', '&', '/', ':'),
        }),
        (s) => {
          const html = inlineMarkdown(s);
          for (const t of tags(html))
            expect(t).toMatch(/^(code|strong|em|a|a href="(https?:\/\/|\/)[^"<>]*")$/);
        },
      ),
      { numRuns: 500, seed: 9 },
    );
  });
});

describe('glossary and diagram escapers', () => {
  it.each(PAYLOADS)('%s is escaped by escapeHtml, inlineCodeHtml and escapeXml', (payload) => {
    expect(escapeHtml(payload)).not.toMatch(/[<>]/);
    expect(tags(inlineCodeHtml(payload)).every((t) => t === 'code')).toBe(true);
    expect(escapeXml(payload)).not.toMatch(/[<>]/);
    expect(escapeXml(payload)).not.toMatch(/"/);
  });
});
