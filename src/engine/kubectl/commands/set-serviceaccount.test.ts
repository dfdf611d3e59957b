/**
 * `kubectl set serviceaccount` (alias `sa`) and `kubectl set subject`, missing until now. Help texts and
 * goldens from kubectl v1.33 (`--local` runs offline on the same files); the messages of the server
 * path from set_serviceaccount.go / set_subject.go.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeKubectl } from '../test-helpers.ts';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`;
const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: c
    image: nginx
`;
const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{port: 80}]
`;
/** A help text as testdata/capture.mjs wrote it from the real binary. */
function realHelp(name: string): string {
  return readFileSync(new URL(`../testdata/help/${name}.txt`, import.meta.url), 'utf8');
}

const FILES = { 'dep.yaml': DEPLOYMENT, 'pod.yaml': POD, 'svc.yaml': SERVICE };

describe('kubectl set serviceaccount', () => {
  it('--help is the real one, and its flags are the command’s', () => {
    const k = makeKubectl();
    expect(k.run('set serviceaccount --help').stdout).toBe(realHelp('set-serviceaccount'));
    expect(k.run('help set serviceaccount').stdout).toBe(realHelp('set-serviceaccount'));
    expect(k.run('set sa -h').stdout).toContain(
      'Usage:\n  kubectl set serviceaccount (-f FILENAME | TYPE NAME) SERVICE_ACCOUNT [options]',
    );
    expect(k.run('set serviceaccount --bogus').stderr).toBe(
      "error: unknown flag: --bogus\nSee 'kubectl set serviceaccount --help' for usage.\n",
    );
  });

  it('--local sets the pod template’s serviceAccountName and prints', () => {
    const k = makeKubectl({ files: FILES });
    expect(k.run('set sa --local -f dep.yaml mysa').stdout).toBe(
      'deployment.apps/web serviceaccount updated\n',
    );
    expect(
      k.run('set sa --local -f dep.yaml mysa -o jsonpath={.spec.template.spec.serviceAccountName}').stdout,
    ).toBe('mysa');
    expect(k.run('set sa --local -f pod.yaml mysa -o name').stdout).toBe('pod/web\n');
    expect(k.run('set sa --local -f svc.yaml -f pod.yaml mysa')).toMatchObject({
      stdout: 'pod/web serviceaccount updated\n',
      stderr: 'error: service/web the object is not a pod or does not have a pod template: *v1.Service\n',
      exitCode: 1,
    });
  });

  it.each([
    ['set sa --local -f dep.yaml', 'error: serviceaccount is required'],
    [
      'set sa --local -f dep.yaml mysa --dry-run=server',
      'error: cannot specify --local and --dry-run=server - did you mean --dry-run=client?',
    ],
    [
      'set sa --local dep web mysa',
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
    ],
  ])('%s', (line, stderr) => {
    expect(makeKubectl({ files: FILES }).run(line)).toMatchObject({ stderr: `${stderr}\n`, exitCode: 1 });
  });

  it('patches the object on the server, printed even when it already had that account', () => {
    const k = makeKubectl({ files: FILES });
    k.run('create -f dep.yaml');
    expect(k.run('set serviceaccount deployment web robot').stdout).toBe(
      'deployment.apps/web serviceaccount updated\n',
    );
    const dep = k.host.api.get('deployments.apps', 'default', 'web');
    expect(dep?.spec?.template.spec?.serviceAccountName).toBe('robot');
    expect(k.run('set sa deploy/web robot').stdout).toBe('deployment.apps/web serviceaccount updated\n');
    expect(
      k.run('set sa deploy web robot --dry-run=client -o jsonpath={.spec.template.spec.serviceAccountName}')
        .stdout,
    ).toBe('robot');
  });
});

describe('kubectl set subject', () => {
  it('--help is the real one', () => {
    const k = makeKubectl();
    expect(k.run('set subject -h').stdout).toBe(realHelp('set-subject'));
    expect(k.run('help set subject').stdout).toBe(realHelp('set-subject'));
  });

  it.each([
    [
      'set subject --local -f pod.yaml',
      'error: you must specify at least one value of user, group or serviceaccount',
    ],
    [
      'set subject --local -f pod.yaml --serviceaccount=sa',
      'error: serviceaccount must be <namespace>:<name>',
    ],
    [
      'set subject --local -f pod.yaml --serviceaccount=a:b:c',
      'error: serviceaccount must be <namespace>:<name>',
    ],
    [
      'set subject --local -f pod.yaml --all -l a=b --user=x',
      'error: cannot set --all and --selector at the same time',
    ],
    [
      'set subject --local -f pod.yaml --user=x',
      'error: pod/web setting subjects is only supported for RoleBinding/ClusterRoleBinding',
    ],
    [
      'set subject --local rolebinding rb --user=x',
      "error: you must specify resources by --filename when --local is set.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'",
    ],
  ])('%s', (line, stderr) => {
    expect(makeKubectl({ files: FILES }).run(line)).toMatchObject({ stderr: `${stderr}\n`, exitCode: 1 });
  });

  it('this cluster serves no RBAC API, and says so', () => {
    expect(makeKubectl().run('set subject rolebinding rb --user=x').stderr).toBe(
      'error: resource type "rolebinding": RoleBinding (rbac.authorization.k8s.io/v1) is a built-in Kubernetes kind that this simulated cluster does not implement\n',
    );
  });
});
