/**
 * help-texts.ts is the generated copy of the help texts captured from the real kubectl v1.35
 * (testdata/capture.mjs → testdata/help/*.txt → testdata/gen-help.mjs): every capture is in it word
 * for word, nothing else is, and the captures come from v1.35.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HELP_TEXTS } from './help-texts.ts';
import client from './testdata/client-goldens.json' with { type: 'json' };

const dir = join(import.meta.dirname, 'testdata/help');
/** gen-help.mjs's naming: file names join the command path with '-', except inside these commands. */
const DASHED = [
  'port-forward',
  'api-resources',
  'api-versions',
  'cluster-info',
  'current-context',
  'get-contexts',
  'can-i',
  'use-context',
  'set-context',
];

function commandPath(file: string): string {
  let path = file.slice(0, -'.txt'.length);
  for (const d of DASHED) path = path.replace(d, d.replace('-', '\u0000'));
  path = path.replace(/-/g, ' ').replace(/\u0000/g, '-');
  return path === 'kubectl' ? '' : path;
}

describe('kubectl help texts', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.txt'));

  it('were captured from kubectl v1.35', () => {
    expect(client.kubectl).toMatch(/^Client Version: v1\.35\./);
  });

  it.each(files)('%s is in help-texts.ts unchanged', (file) => {
    expect(HELP_TEXTS[commandPath(file)]).toBe(readFileSync(join(dir, file), 'utf8'));
  });

  it('holds nothing that was not captured', () => {
    expect(Object.keys(HELP_TEXTS).sort()).toEqual(files.map(commandPath).sort());
  });
});
