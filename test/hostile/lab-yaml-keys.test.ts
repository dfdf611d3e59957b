/**
 * Hostile lab.yaml: prototype keys and multi-line keys. Found by the fuzz suite: an issue about a
 * complex (`? `) key spanning lines printed lines that did not name the file.
 */
import { describe, expect, it } from 'vitest';
import { LabError, parseLab } from '../../src/grader/index.ts';

const SOURCE = 'labs/x/lab.yaml';

describe('lab.yaml with hostile keys', () => {
  it('every line of a LabError names the file, even for a key that spans lines', () => {
    const text = '? |\n  two\n  lines\n: 1\nid: x\n';
    expect(() => parseLab(SOURCE, text)).toThrow(LabError);
    try {
      parseLab(SOURCE, text);
    } catch (e) {
      for (const line of (e as Error).message.split('\n')) expect(line.startsWith(`${SOURCE}: `)).toBe(true);
    }
  });

  it('__proto__/constructor/prototype keys are rejected as unknown keys, and pollute nothing', () => {
    const text =
      'id: x\n__proto__: {polluted: yes}\nconstructor: {prototype: {polluted: yes}}\ntitle: {__proto__: {polluted: yes}, pt-BR: a, en: b}\n';
    expect(() => parseLab(SOURCE, text)).toThrow(LabError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });
});
