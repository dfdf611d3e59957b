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
