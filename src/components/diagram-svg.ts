import { createHash } from 'node:crypto';
import { renderMermaidSVG } from 'beautiful-mermaid';

/**
 * Colours handed to beautiful-mermaid. They are Starlight CSS variables, so the same SVG
 * follows the light and the dark theme without a script or a second render.
 */
const renderOptions = {
  bg: 'var(--sl-color-bg)',
  fg: 'var(--sl-color-white)',
  line: 'var(--sl-color-gray-3)',
  accent: 'var(--sl-color-accent-high)',
  muted: 'var(--sl-color-gray-2)',
  surface: 'var(--sl-color-accent-low)',
  border: 'var(--sl-color-accent)',
  transparent: true,
  // beautiful-mermaid's default is 40px of blank canvas around the drawing; the figure has its own margins.
  padding: 16,
} as const;

/** Widest left-to-right flowchart (in px) kept as drawn; see renderDiagramSvg. */
export const MAX_HORIZONTAL_WIDTH = 880;

const svgWidth = (svg: string) => Number(/<svg\b[^>]*?\bwidth="([\d.]+)"/.exec(svg)?.[1] ?? 0);

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface DiagramSvg {
  /** The `<svg>` element as a string, ready to be inlined. */
  svg: string;
  /** Intrinsic width in CSS pixels (the SVG scales down below it). */
  width: number;
  /** The prefix given to every id inside this SVG. */
  idPrefix: string;
}

/**
 * Renders Mermaid source to an inline SVG that is safe to put several times on one page:
 *
 * - drops beautiful-mermaid's `<style>` block: it `@import`s web fonts from a CDN (the site is
 *   offline-first) and its `svg {}` / `text {}` rules would leak to every SVG of the page. The same
 *   derived variables live in `src/styles/course.css`, scoped to `.pp-diagram`;
 * - prefixes every `id` (arrow markers) so two diagrams on a page do not share ids;
 * - draws a left-to-right flowchart top-down when it is too wide to stay legible in the content column;
 * - makes the SVG an image with a text alternative: `role="img"` and a `<title>` it is labelled by.
 */
export function renderDiagramSvg(code: string, alt: string): DiagramSvg {
  if (!alt.trim()) throw new Error('Diagram: the `alt` text must not be empty.');
  const idPrefix = 'pp-d-' + createHash('sha256').update(code).digest('hex').slice(0, 10);
  let svg = renderMermaidSVG(code.trim(), renderOptions);
  // A left-to-right flowchart wider than this would be scaled down until its 13px labels become
  // hard to read (Starlight's content column is at most 45rem wide), so it is drawn top-down instead.
  const horizontal = /^\s*(?:flowchart|graph)\s+(LR|RL)\b/.exec(code);
  if (horizontal && svgWidth(svg) > MAX_HORIZONTAL_WIDTH) {
    svg = renderMermaidSVG(code.trim().replace(/^(flowchart|graph)\s+(LR|RL)\b/, '$1 TD'), renderOptions);
  }

  svg = svg.replace(/<style>[\s\S]*?<\/style>\s*/, '');
  svg = svg.replace(/\bid="([^"]+)"/g, (_m, id: string) => `id="${idPrefix}-${id}"`);
  svg = svg.replace(/url\(#([^)]+)\)/g, (_m, id: string) => `url(#${idPrefix}-${id})`);
  svg = svg.replace(/\bhref="#([^"]+)"/g, (_m, id: string) => `href="#${idPrefix}-${id}"`);

  const open = /^<svg\b([^>]*)>/.exec(svg);
  if (!open) throw new Error('Diagram: beautiful-mermaid did not return an <svg> element.');
  const attrs = open[1] ?? '';
  const width = svgWidth(svg);
  const titleId = `${idPrefix}-title`;
  const newAttrs = attrs
    .replace(/\s(width|height)="[^"]*"/g, '')
    .concat(` role="img" aria-labelledby="${titleId}" focusable="false"`);
  svg = `<svg${newAttrs}><title id="${titleId}">${escapeXml(alt.trim())}</title>` + svg.slice(open[0].length);

  if (/@import|https?:\/\/(?!www\.w3\.org\/)/.test(svg)) {
    throw new Error('Diagram: the rendered SVG still refers to an external resource.');
  }
  return { svg, width: Math.round(width), idPrefix };
}
