/** Small HTML helpers shared by the glossary page and the chapter tooltips. */

export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Escapes `text` and turns `backtick spans` into <code>. */
export const inlineCodeHtml = (text: string): string =>
  text
    .split('`')
    .map((part, i) => (i % 2 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
    .join('');

/** The glossary page's lang (`pt-BR` or `en`) from a Starlight locale. */
export const glossaryLang = (lang: string | undefined): 'pt-BR' | 'en' => (lang === 'en' ? 'en' : 'pt-BR');

/** Lower-case, accent-free text for accent-insensitive matching ("Conexão" → "conexao"). */
export const foldForSearch = (text: string): string =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
