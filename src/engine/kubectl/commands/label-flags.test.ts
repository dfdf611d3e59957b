/**
 * `kubectl label` / `annotate` `--local` (the -f objects changed and printed, the server never asked)
 * and `--resource-version` (sent in the patch: a stale one is a Conflict). Goldens: kubectl v1.33
 * run offline on the same pod.yaml (label.go / annotate.go Validate and RunLabel).
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from '../test-helpers.ts';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  containers:
  - name: c
    image: nginx
`;

describe('kubectl label/annotate --local', () => {
  it('changes the file’s object and prints it, with nothing on the server', () => {
    const k = makeKubectl({ files: { 'pod.yaml': POD } });
    expect(k.run('label --local -f pod.yaml a=b')).toMatchObject({
      stdout: 'pod/web labeled\n',
      exitCode: 0,
    });
    expect(k.run('label --local -f pod.yaml a=b -o yaml').stdout).toBe(`apiVersion: v1
kind: Pod
metadata:
  labels:
    a: b
    app: web
  name: web
spec:
  containers:
  - image: nginx
    name: c
`);
    expect(k.run('label -f pod.yaml --local a=b -o json').stdout).toBe(`{
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "labels": {
            "a": "b",
            "app": "web"
        },
        "name": "web"
    },
    "spec": {
        "containers": [
            {
                "image": "nginx",
                "name": "c"
            }
        ]
    }
}
`);
    expect(k.run('label --local -f pod.yaml app- -o name').stdout).toBe('pod/web\n');
    expect(k.run('label --local -f pod.yaml a=b --dry-run=client').stdout).toBe(
      'pod/web labeled (dry run)\n',
    );
    expect(k.run('label --local -f pod.yaml --list').stdout).toBe('app=web\n');
    expect(k.run('annotate --local -f pod.yaml x=y').stdout).toBe('pod/web annotated\n');
    // --resource-version means nothing without a server.
    expect(k.run('label --local -f pod.yaml --resource-version=5 a=b').stdout).toBe('pod/web labeled\n');
    expect(k.host.api.get('pods', 'default', 'web')).toBeUndefined();
  });

  it('keeps --overwrite’s rule', () => {
    const k = makeKubectl({ files: { 'pod.yaml': POD } });
    expect(k.run('label --local -f pod.yaml app=x').stderr).toBe(
      "error: 'app' already has a value (web), and --overwrite is false\n",
    );
  });

  it.each([
    [
      'label --local pod web a=b',
      'can only use local files by -f pod.yaml or --filename=pod.json when --local=true is set',
    ],
    [
      'label --local pod web',
      'can only use local files by -f pod.yaml or --filename=pod.json when --local=true is set',
    ],
    [
      'annotate --local pod web x=y',
      'can only use local files by -f rsrc.yaml or --filename=rsrc.json when --local=true is set',
    ],
    ['label --local a=b', 'one or more files must be specified as -f pod.yaml or --filename=pod.json'],
    ['annotate --local a=b', 'one or more files must be specified as -f rsrc.yaml or --filename=rsrc.json'],
    [
      'label --local -f pod.yaml a=b --dry-run=server',
      'cannot specify --local and --dry-run=server - did you mean --dry-run=client?',
    ],
    ['label --local -f pod.yaml a=b pod web', 'all resources must be specified before label changes: pod'],
  ])('%s', (line, message) => {
    const k = makeKubectl({ files: { 'pod.yaml': POD } });
    expect(k.run(line)).toMatchObject({ stderr: `error: ${message}\n`, exitCode: 1 });
  });
});

describe('kubectl label/annotate --resource-version', () => {
  it('a matching version labels; a stale one is the API server’s Conflict', () => {
    const k = makeKubectl({ files: { 'pod.yaml': POD } });
    k.run('create -f pod.yaml');
    const rv = k.host.api.get('pods', 'default', 'web')!.metadata.resourceVersion;
    expect(k.run(`label pod web a=b --resource-version=${rv}`).stdout).toBe('pod/web labeled\n');
    expect(k.run(`annotate pod web x=y --resource-version=${rv}`)).toMatchObject({
      stdout: '',
      stderr:
        'Error from server (Conflict): Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again\n',
      exitCode: 1,
    });
    expect(k.host.api.get('pods', 'default', 'web')!.metadata.annotations).toBeUndefined();
  });
});

// Goldens: kubectl v1.33 offline (`--local -f`) on this pod.yaml; label.go parseLabels checks only the
// `k=v` split and the value, annotate's cmdutil.ParsePairs nothing; the keys are the API server's.
describe('kubectl label/annotate pairs (label.go parseLabels, cmdutil.ParsePairs)', () => {
  const POD2 = POD.replace('    app: web\n', '    app: web\n    tier: db\n  annotations:\n    x: "1"\n');
  const local = (k: ReturnType<typeof makeKubectl>, line: string) =>
    k.run(`${line} -o jsonpath={.metadata.labels}{.metadata.annotations}`);

  it('keys, __proto__ included, are plain data for the client', () => {
    const k = makeKubectl({ files: { 'pod.yaml': POD } });
    expect(local(k, "label -f pod.yaml --local __proto__=1 'a b=1' constructor=2")).toEqual({
      stdout: '{"__proto__":"1","a b":"1","app":"web","constructor":"2"}',
      stderr: '',
      exitCode: 0,
    });
    expect(local(k, "annotate -f pod.yaml --local __proto__=1 'a b=x y' a=b=c")).toEqual({
      stdout: '{"app":"web"}{"__proto__":"1","a":"b=c","a b":"x y"}',
      stderr: '',
      exitCode: 0,
    });
  });

  it.each([
    ['label -f pod.yaml --local a=b=c', 'error: invalid label spec: a=b=c'],
    [
      "label -f pod.yaml --local 'a b=1' q=-",
      `error: invalid label value: "q=-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ],
    ['label -f pod.yaml --local a=1 a-', 'error: can not both modify and remove a label in the same command'],
    [
      'annotate -f pod.yaml --local a=1 b=2 a- b-',
      'error: can not both modify and remove the following annotation(s) in the same command: a, b',
    ],
    [
      'annotate -f pod.yaml --local =x',
      'error: can only use local files by -f rsrc.yaml or --filename=rsrc.json when --local=true is set',
    ],
    [
      'label -f pod.yaml --local -',
      'error: can only use local files by -f pod.yaml or --filename=pod.json when --local=true is set',
    ],
    [
      'annotate -f pod.yaml --local x=2',
      "error: --overwrite is false but found the following declared annotation(s): 'x' already has a value (1)",
    ],
    [
      'label -f pod.yaml --local app=q tier=w',
      "'app' already has a value (web), and --overwrite is false\n'tier' already has a value (db), and --overwrite is false",
    ],
  ])('%s', (line, stderr) => {
    const k = makeKubectl({ files: { 'pod.yaml': POD2 } });
    expect(k.run(line)).toEqual({ stdout: '', stderr: `${stderr}\n`, exitCode: 1 });
  });

  it('annotate may always overwrite kubernetes.io/change-cause', () => {
    const k = makeKubectl({
      files: { 'pod.yaml': POD2.replace('    x: "1"\n', '    kubernetes.io/change-cause: old\n') },
    });
    expect(local(k, 'annotate -f pod.yaml --local kubernetes.io/change-cause=new').stdout).toBe(
      '{"app":"web","tier":"db"}{"kubernetes.io/change-cause":"new"}',
    );
  });

  // The server validates the patched metadata (ValidateObjectMeta): bad keys are its Invalid error.
  it.each([
    ["label pod web 'a b=1'", 'metadata.labels', '"a b"'],
    ['label pod web __proto__=1', 'metadata.labels', '"__proto__"'],
    ["annotate pod web 'a b=1'", 'metadata.annotations', '"a b"'],
  ])('%s', (line, field, key) => {
    const k = makeKubectl({ files: { 'pod.yaml': POD } });
    k.run('create -f pod.yaml');
    expect(k.run(line)).toEqual({
      stdout: '',
      stderr: `The Pod "web" is invalid: ${field}: Invalid value: ${key}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n`,
      exitCode: 1,
    });
    expect(k.host.api.get('pods', 'default', 'web')!.metadata.labels).toEqual({ app: 'web' });
  });
});
