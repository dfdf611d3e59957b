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

describe('go-yaml unclosed flow collections (kubectl v1.33 apply -f - --dry-run=client)', () => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hd\ndata:\n';
  it.each([
    [`${cm}  a: "1"\n  b: [x\n`, "line 7: did not find expected ',' or ']'"],
    [`${cm}  b: {x: 1\n`, "line 6: did not find expected ',' or '}'"],
    ['a: [x, y\nb: 1\n', "line 1: did not find expected ',' or ']'"],
    ['a: [x, y\n\n\nb: 1\nc: 2\n', "line 3: did not find expected ',' or ']'"],
    ['a: [x,\n  y\n', "line 2: did not find expected ',' or ']'"],
    ['a: {x: 1,\n  y: 2\nb: 3\n', "line 2: did not find expected ',' or '}'"],
    ['a: [x\n', "line 1: did not find expected ',' or ']'"],
    ['a: [x', "line 1: did not find expected ',' or ']'"],
    ['a: [\n', 'line 1: did not find expected node content'],
    ['a: {\n', 'line 1: did not find expected node content'],
    ['a: [x,\n', 'line 1: did not find expected node content'],
    ['a: [x]\nb: [y, [z]\n', "line 2: did not find expected ',' or ']'"],
    ['a: [x, {y: 1}\n', "line 1: did not find expected ',' or ']'"],
    ['a: [x y\n', "line 1: did not find expected ',' or ']'"],
    ['a: {x\n', "line 1: did not find expected ',' or '}'"],
    ['a:\n  - [x\n  - y\n', "line 3: did not find expected ',' or ']'"],
    ['a: [x, y\n---\nb: 1\n', "line 1: did not find expected ',' or ']'"],
    ['a: [x: 1\n', "line 1: did not find expected ',' or ']'"],
    ['a: [x,\n  [y, z\n', "line 2: did not find expected ',' or ']'"],
    ['a: |\n  [x\nb: [y\n', "line 3: did not find expected ',' or ']'"],
    ['a: [x, "y\n  z" w\n', "line 1: did not find expected ',' or ']'"],
    ['a: [x # c\n', "line 1: did not find expected ',' or ']'"],
    // Problem and collection both on the first (0th) line: yaml.go prints no line at all.
    ['a: {x: [1, 2}\n', "did not find expected ',' or ']'"],
  ])('%j → %s', (text, message) => {
    expect(run('apply -f - --dry-run=client', text)).toEqual({
      stdout: '',
      stderr: `error: error parsing STDIN: error converting YAML to JSON: yaml: ${message}\n`,
      exitCode: 1,
    });
  });
});

describe('malformed -l selectors: the API server BadRequest (apimachinery labels/selector.go, cli-runtime helper.go EnhanceListError)', () => {
  const wrap = (selector: string, why: string): string =>
    `Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "${selector}", field selector "": ${why}\n`;
  it.each([
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a,', "found '', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    [
      'x>a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
  ])('get pods -l %j', (selector, why) => {
    expect(run(`get pods -l '${selector}'`)).toEqual({
      stdout: '',
      stderr: wrap(selector, why),
      exitCode: 1,
    });
  });

  it('delete and logs list through the same server error', () => {
    expect(run(`delete pods -l 'a b'`).stderr).toBe(
      wrap('a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"),
    );
    expect(run(`logs -l 'a in b'`).stderr).toBe(
      wrap('a in b', "unable to parse requirement: found 'b' expected: '('"),
    );
  });

  it('valid set-based selectors still parse (in, notin, !key, empty values)', () => {
    expect(run(`get pods -l 'a in (x,,y),b notin (),!c,d'`)).toEqual({
      stdout: '',
      stderr: 'No resources found in default namespace.\n',
      exitCode: 0,
    });
  });
});

describe('built-in kinds the simulation lacks are named as such, not as missing CRDs', () => {
  const files = {
    'ss.yaml': 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: web\n',
    'foo.yaml': 'apiVersion: example.com/v1\nkind: Foo\nmetadata:\n  name: web\n',
  };
  const k = (line: string) => {
    const r = makeKubectl({ files }).run(line);
    return { stderr: r.stderr, exitCode: r.exitCode };
  };
  it('apply -f of a StatefulSet', () => {
    expect(k('apply -f ss.yaml')).toEqual({
      stderr:
        'error: resource mapping not found for name: "web" namespace: "" from "ss.yaml": StatefulSet (apps/v1) is a built-in Kubernetes kind that this simulated cluster does not implement\n',
      exitCode: 1,
    });
  });
  it('get of an unsimulated built-in type, qualified or not', () => {
    for (const typed of ['statefulsets', 'sts', 'jobs.batch', 'cronjob'])
      expect(k(`get ${typed}`).stderr).toMatch(
        new RegExp(
          `^error: resource type "${typed.replace('.', '\\.')}": \\w+ \\([a-z/.0-9]+\\) is a built-in Kubernetes kind that this simulated cluster does not implement\\n$`,
        ),
      );
  });
  it('truly unknown kinds keep the real mapping error and CRD hint', () => {
    expect(k('apply -f foo.yaml').stderr).toBe(
      'error: resource mapping not found for name: "web" namespace: "" from "foo.yaml": no matches for kind "Foo" in version "example.com/v1"\nensure CRDs are installed first\n',
    );
    expect(k('get foos').stderr).toBe('error: the server doesn\'t have a resource type "foos"\n');
    expect(k('get jobs.example.com').stderr).toBe(
      'error: the server doesn\'t have a resource type "jobs.example.com"\n',
    );
  });
});
