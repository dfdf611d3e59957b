/**
 * The little Markdown a lab's steps and hints use, rendered to HTML: `code`, **bold**, *emphasis*
 * and [links](https://…) inline; fenced code blocks, `- ` lists and blank-line paragraphs for a
 * whole step (blockMarkdown). Everything else is escaped text. Used at build time (Lab.astro) and
 * in the browser (hints), so it has no dependencies.
 */
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function inlineMarkdown(text: string): string {
  const parts = text.split(/(`[^`]+`)/g);
  return parts
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1)
        return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\*([^*]+)\*/g, '<em>$1</em>')
        .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+|\/[^)\s]*)\)/g, '<a href="$2">$1</a>');
    })
    .join('');
}

/**
 * A whole step: fenced code blocks (```sh … ```) become <pre><code>, runs of `- ` lines a list, and
 * the other blank-line-separated paragraphs <p>, each with inlineMarkdown. A one-paragraph step stays
 * bare inline HTML, as before.
 */
export function blockMarkdown(text: string): string {
  const blocks: string[] = [];
  const paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const lines = paragraph.splice(0);
    blocks.push(
      lines.every((l) => /^\s*- /.test(l))
        ? `<ul>${lines.map((l) => `<li>${inlineMarkdown(l.replace(/^\s*- /, ''))}</li>`).join('')}</ul>`
        : `<p>${inlineMarkdown(lines.join('\n'))}</p>`,
    );
  };
  const lines = text.replace(/\s+$/, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? '')) code.push(lines[i] ?? '');
      // tabindex: a code line wider than the step scrolls, and a scrollable region must take focus (axe).
      blocks.push(`<pre tabindex="0"><code>${escapeHtml(code.join('\n'))}</code></pre>`);
    } else if (line.trim() === '') flush();
    else paragraph.push(line);
  }
  flush();
  const only = blocks.length === 1 ? /^<p>([\s\S]*)<\/p>$/.exec(blocks[0] ?? '') : null;
  return only ? (only[1] ?? '') : blocks.join('');
}
