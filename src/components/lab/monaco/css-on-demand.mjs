// @ts-check
/**
 * Vite plugin: Monaco's stylesheets arrive with the lazily loaded editor chunk instead of as
 * render-blocking `<link>`s on every page.
 *
 * Why: monaco-editor's ESM modules each `import './x.css'`. Astro adds the CSS of every module a
 * client script can reach, dynamic imports included (withastro/astro#9495), so ~135 KB of Monaco CSS
 * was linked in the `<head>` of every page, lab or not, and blocked the first paint. Here each of
 * those imports becomes a tiny module that inserts the stylesheet text when the editor code runs,
 * the way Monaco itself adds its theme styles at run time.
 */
// The id must not end in `.css`, or Vite's CSS pipeline would take the module for a stylesheet.
const PREFIX = '\0monaco-css:';
const SUFFIX = '.js';

/** @returns {import('vite').Plugin} */
export function monacoCssOnDemand() {
  return {
    name: 'packet-path-monaco-css-on-demand',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (options?.ssr || !importer || !source.endsWith('.css')) return null;
      if (!/[\\/]node_modules[\\/]monaco-editor[\\/]/.test(importer)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved ? PREFIX + resolved.id + SUFFIX : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length, -SUFFIX.length);
      return [
        `import css from ${JSON.stringify(file + '?inline')};`,
        `const style = document.createElement('style');`,
        `style.dataset.monaco = ${JSON.stringify(file.replace(/^.*[\\/]monaco-editor[\\/]/, ''))};`,
        `style.textContent = css;`,
        `document.head.append(style);`,
      ].join('\n');
    },
  };
}
