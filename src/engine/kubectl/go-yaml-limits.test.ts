/**
 * go-yaml v2's resource limits, worded as kubectl prints them. Expected texts are kubectl v1.33's
 * (`kubectl apply --dry-run=client --validate=false -f FILE` with generated files): an alias bomb is
 * `document contains excessive aliasing`; more than 10000 nested flow collections or block levels is
 * `exceeded max depth of 10000`, with `line N: ` only past a document's first line.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from './test-helpers.ts';
import { goYamlDepthError } from './go-yaml-limits.ts';

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';
const PREFIX = 'error: error parsing f.yaml: error converting YAML to JSON: ';

function applyText(text: string): { stderr: string; exitCode: number } {
  const k = makeKubectl({ files: { 'f.yaml': text } });
  const r = k.run('apply --dry-run=client --validate=false -f f.yaml');
  return { stderr: r.stderr, exitCode: r.exitCode };
}

function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  let prev = 'a';
  for (const n of 'bcdefghi') {
    lines.push(`${n}: &${n} [${Array(9).fill(`*${prev}`).join(',')}]`);
    prev = n;
  }
  return `${lines.join('\n')}\n`;
}

describe('go-yaml limits through kubectl apply -f', () => {
  it('an alias bomb', () => {
    expect(applyText(aliasBomb())).toEqual({
      stderr: `${PREFIX}yaml: document contains excessive aliasing\n`,
      exitCode: 1,
    });
  });

  it.each([
    ['flow sequences on the first line', `a: ${'['.repeat(10001)}${']'.repeat(10001)}\n`, ''],
    ['flow maps on the first line', `a: ${'{a: '.repeat(10001)}1${'}'.repeat(10001)}\n`, ''],
    ['flow sequences on line 6', `${CM}data:\n  a: ${'['.repeat(10001)}${']'.repeat(10001)}\n`, 'line 6: '],
    ['block sequence entries on line 6', `${CM}a:\n${'- '.repeat(10001)}x\n`, 'line 6: '],
  ])('%s: exceeded max depth of 10000', (_name, text, where) => {
    expect(applyText(text)).toEqual({
      stderr: `${PREFIX}yaml: ${where}exceeded max depth of 10000\n`,
      exitCode: 1,
    });
  });

  it('lines count from the start of each document of a stream', () => {
    const text = `${CM}---\n\nb: ${'['.repeat(10001)}${']'.repeat(10001)}\n`;
    expect(applyText(text).stderr).toBe(`${PREFIX}yaml: line 2: exceeded max depth of 10000\n`);
  });
});

describe('goYamlDepthError', () => {
  it('counts block levels by increasing columns, as roll_indent does (line 10001)', () => {
    // 10002 keys, each indented one column deeper: the 10001st push fails, on the 10001st line.
    const lines = Array.from({ length: 10002 }, (_, i) => `${' '.repeat(i)}a:`);
    expect(goYamlDepthError(`${lines.join('\n')} 1\n`)).toBe('yaml: line 10001: exceeded max depth of 10000');
  });

  it('10000 levels are allowed; quoted brackets, comments and closed levels do not count', () => {
    expect(goYamlDepthError(`a: ${'['.repeat(10000)}${']'.repeat(10000)}\n`)).toBeUndefined();
    expect(goYamlDepthError(`a: "${'['.repeat(20000)}"\nb: '${'{'.repeat(20000)}'\n`)).toBeUndefined();
    expect(goYamlDepthError(`a: 1 # ${'['.repeat(20000)}\n`)).toBeUndefined();
    expect(goYamlDepthError(`${'a: [1]\n'.repeat(20000)}`)).toBeUndefined();
    const siblings = Array.from({ length: 20000 }, (_, i) => (i % 2 === 0 ? 'a:' : '  b: 1'));
    expect(goYamlDepthError(siblings.join('\n'))).toBeUndefined();
  });
});
