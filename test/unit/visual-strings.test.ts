/**
 * The Network view's words live in the site's catalogue (`src/i18n/<lang>.json`, keys `net.*`): the
 * schema the build validates both files with requires each of them, and both locales fill the same
 * placeholders.
 */
import { describe, expect, it } from 'vitest';
import en from '../../src/i18n/en.json' with { type: 'json' };
import ptBR from '../../src/i18n/pt-BR.json' with { type: 'json' };
import { uiStrings } from '../../src/i18n/schema.ts';
import { dictionaryKeys, format } from '../../src/visual/strings.ts';

const net = (o: Record<string, string>) => Object.keys(o).filter((k) => k.startsWith('net.'));
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('Network view strings in the i18n catalogue', () => {
  it('both catalogues pass the schema, which requires every net.* key', () => {
    expect(net(en).length).toBeGreaterThan(200);
    expect(uiStrings.safeParse(en).success).toBe(true);
    expect(uiStrings.safeParse(ptBR).success).toBe(true);
    const { ['net.matrix.svcCell']: _gone, ...missing } = ptBR;
    const r = uiStrings.safeParse(missing);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['net.matrix.svcCell']);
  });

  it('pt-BR has the same net.* keys and fills the same placeholders', () => {
    expect(net(ptBR).sort()).toEqual(net(en).sort());
    for (const k of net(en)) {
      const key = k as keyof typeof en & keyof typeof ptBR;
      expect(`${k}: ${placeholders(ptBR[key]).join(',')}`).toBe(`${k}: ${placeholders(en[key]).join(',')}`);
    }
  });

  it('the renderers read them from there', () => {
    expect(dictionaryKeys('en')).toEqual(
      net(en)
        .map((k) => k.slice(4))
        .sort(),
    );
    expect(format('pt-BR', 'ui.matrixMode.services')).toBe(ptBR['net.ui.matrixMode.services']);
    expect(format('en', 'matrix.cell', { from: 'a/x', to: 'a/y', port: 80, verdict: 'blocked' })).toBe(
      'a/x → a/y port 80: blocked',
    );
  });
});
