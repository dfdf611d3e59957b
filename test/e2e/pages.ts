import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

export const locales = [
  { prefix: 'pt-br', lang: 'pt-BR' },
  { prefix: 'en', lang: 'en' },
] as const;

/**
 * URL paths (`/pt-br/k3s/cluster-networking/`) of every built page of both locales. The redirects that
 * keep the chapters' old URLs working (astro.config.mjs `redirects`) are built as tiny refresh pages; they
 * are not pages of the course, so they are left out.
 */
export function builtPages(
  distDir: string,
): { path: string; prefix: string; lang: string; counterpart: string }[] {
  return locales.flatMap(({ prefix, lang }) => {
    const other = locales.find((l) => l.prefix !== prefix)!.prefix;
    return readdirSync(join(distDir, prefix), { recursive: true, encoding: 'utf8' })
      .filter((file) => file === 'index.html' || file.endsWith(`${sep}index.html`))
      .filter((file) => !isRedirect(join(distDir, prefix, file)))
      .map((file) => `/${prefix}/${file.split(sep).slice(0, -1).join('/')}/`.replace(/\/+/g, '/'))
      .sort()
      .map((path) => ({ path, prefix, lang, counterpart: path.replace(`/${prefix}/`, `/${other}/`) }));
  });
}

/** Astro's static redirect page: a meta refresh to the new address and nothing else. */
function isRedirect(file: string): boolean {
  return /<meta http-equiv="refresh"/i.test(readFileSync(file, 'utf8').slice(0, 600));
}
