/**
 * Parser error paths checked against the real tools: client-go's jsonpath parser, go-yaml's flow
 * collections, apimachinery's label selector parser and Go's text/template as kubectl v1.33 runs
 * them. Goldens were captured from /usr/lib/google-cloud-sdk/bin/kubectl.1.33 (client-side cases)
 * or transcribed from the upstream sources named at each block.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from './test-helpers.ts';

function run(line: string, stdin?: string): { stdout: string; stderr: string; exitCode: number } {
  const r = makeKubectl().run(line, stdin === undefined ? undefined : { stdin });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

describe('jsonpath parse errors (client-go util/jsonpath parser.go, kubectl v1.33)', () => {
  it.each([
    ['{.items[?(@.x==)]}', "unrecognized character in action: U+003D '='"],
    ['{.data[?(@.x=~"a")]}', "unrecognized character in action: U+007E '~'"],
    ['{.a[?(@.x==1]}', 'unterminated filter'],
    ['{.a....b}', 'invalid multiple recursive descent'],
    ['{#}', "unrecognized character in action: U+0023 '#'"],
    ['{.metadata.name', 'unclosed action'],
    ['{.a[x]}', 'invalid array index x'],
    ['{.a[1:b]}', 'invalid array index 1:b'],
    ['{.a["b"]}', 'invalid array index "b"'],
  ])('%s → %s', (template, message) => {
    expect(run(`create cm x --dry-run=client -o jsonpath='${template}'`)).toEqual({
      stdout: '',
      stderr: `error: error parsing jsonpath ${template}, ${message}\n`,
      exitCode: 1,
    });
  });

  it('a filter with a quoted operand and a valid one still print', () => {
    expect(run(`create cm x --dry-run=client -o jsonpath='{.a[?(@.x=="a")]}'`).exitCode).toBe(0);
    expect(run(`create cm x --dry-run=client -o jsonpath='{.a[?(@.x==")")]}'`).exitCode).toBe(0);
  });
});
