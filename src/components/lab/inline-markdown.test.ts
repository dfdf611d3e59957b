import { describe, expect, it } from 'vitest';
import { blockMarkdown, inlineMarkdown } from './inline-markdown.ts';

describe('lab step Markdown', () => {
  it('keeps a one-paragraph step inline, as inlineMarkdown renders it', () => {
    expect(blockMarkdown('Run `kubectl get pods` **now**.')).toBe(
      inlineMarkdown('Run `kubectl get pods` **now**.'),
    );
  });

  it('renders a fenced block as pre/code with its lines, escaped, between paragraphs', () => {
    const step =
      'Look:\n\n```sh\nkubectl get pods -A | grep -e a <b>\ncurl -s http://x/\n```\n\nThen `exit`.\n';
    expect(blockMarkdown(step)).toBe(
      '<p>Look:</p><pre tabindex="0"><code>kubectl get pods -A | grep -e a &lt;b&gt;\ncurl -s http://x/</code></pre><p>Then <code>exit</code>.</p>',
    );
  });

  it('renders a run of "- " lines as a list', () => {
    expect(blockMarkdown('Edit it so that:\n\n- `/api` goes to api;\n- `/` goes to web.')).toBe(
      '<p>Edit it so that:</p><ul><li><code>/api</code> goes to api;</li><li><code>/</code> goes to web.</li></ul>',
    );
  });
});
