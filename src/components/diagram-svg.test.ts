import { describe, expect, it } from 'vitest';
import { MAX_HORIZONTAL_WIDTH, renderDiagramSvg } from './diagram-svg';

const flowchart = `flowchart LR
  A[pod A] -->|veth| B[overlay]`;
const sequence = `sequenceDiagram
  participant A as pod A
  participant D as CoreDNS
  A->>D: resolve "web"
  D-->>A: ClusterIP`;

describe('renderDiagramSvg', () => {
  it.each([
    { name: 'flowchart', code: flowchart },
    { name: 'sequence diagram', code: sequence },
  ])('$name: an image labelled by its <title>, no external resource, no <style>', ({ code }) => {
    const { svg, idPrefix } = renderDiagramSvg(code, 'Pod A & "B" <link>');
    expect(svg).toMatch(new RegExp(`^<svg[^>]* role="img" aria-labelledby="${idPrefix}-title"`));
    expect(svg).toContain(`<title id="${idPrefix}-title">Pod A &amp; &quot;B&quot; &lt;link&gt;</title>`);
    expect(svg).not.toContain('<style');
    expect(svg).not.toMatch(/@import|fonts\.googleapis/);
  });

  it('prefixes every id and every reference to one', () => {
    const { svg, idPrefix } = renderDiagramSvg(flowchart, 'alt');
    const ids = [...svg.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
    const refs = [...svg.matchAll(/url\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(1);
    for (const id of [...ids, ...refs]) expect(id?.startsWith(`${idPrefix}-`)).toBe(true);
    for (const ref of refs) expect(ids).toContain(ref);
  });

  it('uses Starlight colour variables, so the SVG follows the site theme', () => {
    const { svg } = renderDiagramSvg(flowchart, 'alt');
    expect(svg).toContain('--fg:var(--sl-color-white)');
    expect(svg).toContain('--bg:var(--sl-color-bg)');
  });

  it('keeps a narrow left-to-right flowchart as drawn, and turns a wide one top-down', () => {
    const narrow = renderDiagramSvg(flowchart, 'alt');
    expect(narrow.width).toBeLessThanOrEqual(MAX_HORIZONTAL_WIDTH);
    const wide = renderDiagramSvg(
      `flowchart LR
        A[a fairly long first label] -->|with a label| B[another fairly long label]
        B -->|and another one| C[a third long label here]
        C -->|one more edge label| D[the fourth and last node]`,
      'alt',
    );
    expect(wide.width).toBeLessThanOrEqual(MAX_HORIZONTAL_WIDTH);
  });

  it('passes classDef colours through, so authors can use theme variables', () => {
    const { svg } = renderDiagramSvg(
      `graph TD
        A[pod]:::hot --> B[node]
        classDef hot fill:var(--sl-color-accent-low),stroke:var(--sl-color-accent)`,
      'alt',
    );
    expect(svg).toContain('fill="var(--sl-color-accent-low)"');
  });

  it('refuses an empty text alternative', () => {
    expect(() => renderDiagramSvg(flowchart, '  ')).toThrow(/alt/);
  });

  it('gives the same ids for the same code (stable builds)', () => {
    expect(renderDiagramSvg(sequence, 'a').idPrefix).toBe(renderDiagramSvg(sequence, 'b').idPrefix);
  });
});
