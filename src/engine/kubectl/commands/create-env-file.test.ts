/**
 * `--from-env-file` as kubectl's env_file.go `processEnvFileLine` reads it: the key checked with
 * validation.IsEnvVarName before the ConfigMap/Secret rule, only leading whitespace trimmed, a UTF-8
 * BOM dropped from the first line only. Goldens: kubectl v1.33 `create … --dry-run=client -o yaml`
 * on the same files (it needs no cluster).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { makeKubectl } from '../test-helpers.ts';

const ENV_NAME_RULE =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

describe('kubectl create --from-env-file', () => {
  it.each([
    ['A=1\nbad line\n', 'configmap c', '"bad line"'],
    ['A=1\nbad line\n', 'secret generic s', '"bad line"'],
    ['A=1\nb:c=1\n', 'configmap c', '"b:c"'],
    ['A=1\n1X=2\n', 'configmap c', '"1X"'],
  ])('%j (%s): %s is not an environment variable name', (text, what, key) => {
    const k = makeKubectl({ files: { env: text } });
    expect(k.run(`create ${what} --from-env-file=env --dry-run=client -o yaml`)).toEqual({
      stdout: '',
      stderr: `error: ${key} is not a valid key name: ${ENV_NAME_RULE}\n`,
      exitCode: 1,
    });
  });

  it('keeps trailing spaces, drops the first line’s BOM and a CR, reads a bare key from the environment', () => {
    const c = createCluster(undefined, {
      seed: 1,
      files: { env: '\uFEFF  A=1 \n\t# c\n   \nB= x\r\nC\nD=a=b\nE' },
    });
    expect(
      c.execSync(
        "export C=hello; kubectl create configmap c --from-env-file=env --dry-run=client -o jsonpath='{.data}'",
      ),
    ).toEqual({
      stdout: '{"A":"1 ","B":" x","C":"hello","D":"a=b","E":""}',
      stderr: '',
      exitCode: 0,
    });
  });

  it('a repeated key is still the ConfigMap’s and the Secret’s own error', () => {
    const k = makeKubectl({ files: { env: 'A=1\nA=2\n' } });
    expect(k.run('create configmap c --from-env-file=env --dry-run=client').stderr).toBe(
      'error: cannot add key "A", another key by that name already exists in Data for ConfigMap "c"\n',
    );
    expect(k.run('create secret generic s --from-env-file=env --dry-run=client').stderr).toBe(
      'error: cannot add key A, another key by that name already exists\n',
    );
  });
});
