/**
 * `kubectl create serviceaccount` (create_serviceaccount.go). The goldens are the real kubectl v1.33
 * binary's client dry-run output, with the v1.34+ change applied: a zero creationTimestamp is omitted
 * (kubernetes#130989).
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from '../test-helpers.ts';

function toV135(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/^\s*creationTimestamp: null$/.test(l))
    .join('\n')
    .replace(/,"creationTimestamp":null/g, '')
    .replace(/,\n\s*"creationTimestamp": null/g, '');
}

const V133: ReadonlyArray<readonly [string, string]> = [
  [
    'create serviceaccount foo --dry-run=client -o yaml',
    'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  creationTimestamp: null\n  name: foo\n',
  ],
  [
    'create serviceaccount foo --dry-run=client -o json',
    '{\n    "kind": "ServiceAccount",\n    "apiVersion": "v1",\n    "metadata": {\n        "name": "foo",\n        "creationTimestamp": null\n    }\n}\n',
  ],
  [
    'create sa foo -n bar --dry-run=client -o yaml',
    'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  creationTimestamp: null\n  name: foo\n  namespace: bar\n',
  ],
  ['create sa foo --dry-run=client', 'serviceaccount/foo created (dry run)\n'],
  ['create sa foo --dry-run=client -o name', 'serviceaccount/foo\n'],
  [
    'create sa foo --save-config --dry-run=client -o yaml',
    'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {"kind":"ServiceAccount","apiVersion":"v1","metadata":{"name":"foo","creationTimestamp":null}}\n  creationTimestamp: null\n  name: foo\n',
  ],
];

describe('kubectl create serviceaccount', () => {
  it.each(V133)('%s', (line, golden) => {
    expect(makeKubectl().run(line)).toEqual({ stdout: toV135(golden), stderr: '', exitCode: 0 });
  });

  it('NAME count errors as the real one prints them', () => {
    const k = makeKubectl();
    for (const [args, n] of [
      ['', 0],
      [' a b', 2],
    ] as const) {
      expect(k.run(`create serviceaccount${args} --dry-run=client`)).toEqual({
        stdout: '',
        stderr: `error: exactly one NAME is required, got ${n}\nSee 'kubectl create serviceaccount -h' for help and examples\n`,
        exitCode: 1,
      });
    }
  });

  it('creates it, and AlreadyExists is wrapped as the generator does', () => {
    const k = makeKubectl();
    expect(k.run('create sa robot').stdout).toBe('serviceaccount/robot created\n');
    expect(k.run('get sa robot -o name').stdout).toBe('serviceaccount/robot\n');
    expect(k.run('create sa robot')).toMatchObject({
      stderr: 'error: failed to create serviceaccount: serviceaccounts "robot" already exists\n',
      exitCode: 1,
    });
  });
});
