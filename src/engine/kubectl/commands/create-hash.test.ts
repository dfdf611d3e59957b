/**
 * `kubectl create configmap|secret generic --append-hash` (pkg/util/hash ConfigMapHash / SecretHash)
 * and the `create secret generic` generator. Goldens: kubectl v1.33 `--dry-run=client` output, which
 * works offline; the engine omits the zero `creationTimestamp` as v1.34 does (kubernetes#130989), so
 * that line is left out of the goldens.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from '../test-helpers.ts';

describe('create configmap --append-hash', () => {
  it.each([
    ['x --from-literal=a=b', 'configmap/x-64686gkt6c'],
    ['y', 'configmap/y-fc44bk2mfg'],
    // encoding/json escapes <, > and & before hashing; é is hashed as UTF-8.
    ["z '--from-literal=k=<a&b>' --from-literal=b=é", 'configmap/z-64f6cbk7tc'],
    ['cfg --from-literal=x=1 --from-literal=y=2', 'configmap/cfg-hb659h5c8c'],
  ])('%s', (args, name) => {
    const k = makeKubectl();
    expect(k.run(`create configmap ${args} --append-hash --dry-run=client -o name`).stdout).toBe(`${name}\n`);
  });

  it('prints and creates the suffixed name', () => {
    const k = makeKubectl();
    expect(k.run('create configmap x --from-literal=a=b --append-hash --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  a: b\nkind: ConfigMap\nmetadata:\n  name: x-64686gkt6c\n',
    );
    expect(k.run('create configmap x --from-literal=a=b --append-hash').stdout).toBe(
      'configmap/x-64686gkt6c created\n',
    );
    expect(k.host.api.get('configmaps', 'default', 'x-64686gkt6c')?.data).toEqual({ a: 'b' });
  });
});

describe('create secret generic', () => {
  it('base64-encodes the sources; --type only when given', () => {
    const k = makeKubectl({ files: { 'f.txt': 'hi\n' } });
    expect(
      k.run('create secret generic s --from-file=f.txt --from-literal=a=b -n x --dry-run=client -o yaml')
        .stdout,
    ).toBe(
      'apiVersion: v1\ndata:\n  a: Yg==\n  f.txt: aGkK\nkind: Secret\nmetadata:\n  name: s\n  namespace: x\n',
    );
    expect(k.run('create secret generic s --from-literal=a=b --type=foo -o json --dry-run=client').stdout)
      .toBe(`{
    "kind": "Secret",
    "apiVersion": "v1",
    "metadata": {
        "name": "s"
    },
    "data": {
        "a": "Yg=="
    },
    "type": "foo"
}
`);
    // A literal's quotes are part of the value.
    expect(
      k.run(`create secret generic s "--from-literal=b='r'" --dry-run=client -o jsonpath={.data.b}`).stdout,
    ).toBe('J3In');
    expect(k.run('create secret generic s --from-literal=a=b').stdout).toBe('secret/s created\n');
    expect(k.host.api.get('secrets', 'default', 's')?.data).toEqual({ a: 'Yg==' });
  });

  it.each([
    ['s --from-literal=a=b', 'secret/s-7fd2tm89d8'],
    ['s2', 'secret/s2-ttd4kkgk62'],
    ['s3 --type=kubernetes.io/tls --from-literal=a=b', 'secret/s3-b5tmmbg4h7'],
    ['s --from-literal=a=b --from-literal=c=dé --type=foo', 'secret/s-7gg875g42b'],
  ])('--append-hash: %s', (args, name) => {
    const k = makeKubectl();
    expect(k.run(`create secret generic ${args} --append-hash --dry-run=client -o name`).stdout).toBe(
      `${name}\n`,
    );
  });

  it.each([
    ['s --from-literal=a=b --from-literal=a=c', 'cannot add key a, another key by that name already exists'],
    ['s --from-literal=a', 'invalid literal source a, expected key=value'],
    [
      "s '--from-literal=a b=c'",
      `"a b" is not valid key name for a Secret a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ],
    ['s --from-file=nope', 'error reading nope: no such file or directory'],
    ['s --from-env-file=nope', 'error reading nope: no such file or directory'],
    [
      's --from-env-file=e.env --from-literal=x=y',
      'from-env-file cannot be combined with from-file or from-literal',
    ],
  ])('%s', (args, message) => {
    const k = makeKubectl({ files: { 'e.env': 'A=1\n' } });
    expect(k.run(`create secret generic ${args} --dry-run=client`)).toMatchObject({
      stderr: `error: ${message}\n`,
      exitCode: 1,
    });
  });

  it('needs exactly one NAME', () => {
    expect(makeKubectl().run('create secret generic --dry-run=client').stderr).toBe(
      "error: exactly one NAME is required, got 0\nSee 'kubectl create secret generic -h' for help and examples\n",
    );
  });
});
