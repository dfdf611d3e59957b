/**
 * Loads Monaco for a page language. Monaco reads its UI strings while its modules load, so the
 * Brazilian Portuguese messages (which Monaco ships) are loaded first, as their own chunk.
 */
export async function loadEditorModule(lang: string): Promise<typeof import('./monaco/editor')> {
  if (lang === 'pt-BR') await import('monaco-editor/nls/lang/pt-br.js');
  return import('./monaco/editor');
}
