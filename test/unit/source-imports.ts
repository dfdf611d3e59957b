/**
 * Every import of a TypeScript source, as the compiler's pre-processor sees it: static and dynamic,
 * value and type (`import type`, `import('…').T`, `export … from`), with comments and strings that only
 * look like imports ignored. Shared by the layer test and the grader's purity test, so there is one
 * parser for "who imports what".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

export interface SourceImport {
  /** As written: `../api/objects.ts`, `yaml`, `node:fs`. */
  readonly specifier: string;
  /** The absolute path a relative specifier points at; undefined for a package or built-in. */
  readonly target?: string;
  /** 1-based line of the import, for the failure message. */
  readonly line: number;
}

export const isTestSource = (path: string): boolean =>
  path.endsWith('.test.ts') || path.endsWith('test-helpers.ts');

/** The .ts files under `dir`, recursively; `skip` prunes a folder (given its path). */
export function typeScriptFiles(dir: string, skip: (folder: string) => boolean = () => false): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return skip(p) ? [] : typeScriptFiles(p, skip);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** The imports of a source text; `file` (its path) resolves the relative ones. */
export function importsOfText(text: string, file: string): SourceImport[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((ref) => ({
    specifier: ref.fileName,
    target: ref.fileName.startsWith('.') ? resolve(dirname(file), ref.fileName) : undefined,
    line: text.slice(0, ref.pos).split('\n').length,
  }));
}

export function importsOf(file: string): SourceImport[] {
  return importsOfText(readFileSync(file, 'utf8'), file);
}

/** `@noble/hashes/sha2.js` → `@noble/hashes`, `yaml` → `yaml`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
