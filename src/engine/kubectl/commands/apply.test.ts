/**
 * `kubectl apply`. The three-way merge case is the kubernetes.io "Declarative Management of
 * Kubernetes Objects Using Configuration Files" walkthrough (simple_deployment.yaml, a `kubectl
 * scale`, then update_deployment.yaml): replicas set by scale survive, the dropped minReadySeconds is
 * removed, the image changes; the last-applied annotation text is the one that page shows.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../api/objects.ts';
import { makeKubectl } from '../test-helpers.ts';

const SIMPLE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  selector:
    matchLabels:
      app: nginx
  minReadySeconds: 5
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`;

const UPDATE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.16.1 # update the image
        ports:
        - containerPort: 80
`;

function deployment(k: ReturnType<typeof makeKubectl>): Deployment {
  return k.host.store.get('deployments.apps', 'default', 'nginx-deployment')!;
}

describe('kubectl apply', () => {
  it('creates, then reports unchanged, then configured', () => {
    const k = makeKubectl({ files: { 'simple_deployment.yaml': SIMPLE, 'update_deployment.yaml': UPDATE } });
    expect(k.run('apply -f simple_deployment.yaml')).toEqual({
      stdout: 'deployment.apps/nginx-deployment created\n',
      stderr: '',
      exitCode: 0,
    });
    expect(deployment(k).metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"nginx-deployment","namespace":"default"},"spec":{"minReadySeconds":5,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"image":"nginx:1.14.2","name":"nginx","ports":[{"containerPort":80}]}]}}}}\n',
    );
    expect(k.run('apply -f simple_deployment.yaml').stdout).toBe(
      'deployment.apps/nginx-deployment unchanged\n',
    );
    expect(k.run('scale deployment/nginx-deployment --replicas=2').stdout).toBe(
      'deployment.apps/nginx-deployment scaled\n',
    );
    expect(k.run('apply -f update_deployment.yaml').stdout).toBe(
      'deployment.apps/nginx-deployment configured\n',
    );
    const d = deployment(k);
    expect(d.spec?.replicas).toBe(2);
    expect(d.spec?.minReadySeconds).toBeUndefined();
    expect(d.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.16.1');
    // Server-side defaults on merged list items survive the merge.
    expect(d.spec?.template.spec?.containers[0]?.ports?.[0]?.protocol).toBe('TCP');
  });

  it('keeps list items others added and removes the ones it applied before and dropped now', () => {
    const two = SIMPLE.replace(
      '        - containerPort: 80\n',
      '        - containerPort: 80\n        - containerPort: 443\n',
    );
    const k = makeKubectl({ files: { 'a.yaml': two, 'b.yaml': SIMPLE } });
    k.run('apply -f a.yaml');
    expect(deployment(k).spec?.template.spec?.containers[0]?.ports?.map((p) => p.containerPort)).toEqual([
      80, 443,
    ]);
    k.run('apply -f b.yaml');
    expect(deployment(k).spec?.template.spec?.containers[0]?.ports?.map((p) => p.containerPort)).toEqual([
      80,
    ]);
  });

  it('warns when the live object lacks the last-applied annotation', () => {
    const k = makeKubectl({
      files: { 'd.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: "1"\n' },
    });
    k.run('create configmap cfg --from-literal=a=1');
    const r = k.run('apply -f d.yaml');
    expect(r.stderr).toBe(
      'Warning: resource configmaps/cfg is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n',
    );
    expect(r.stdout).toBe('configmap/cfg configured\n');
  });

  it('applies multi-document files, directories and stdin, in order', () => {
    const ns = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n';
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  namespace: team-a\n';
    const k = makeKubectl({
      files: {
        'dir/1-ns.yaml': ns,
        'dir/2-cm.yaml': cm,
        'dir/notes.txt': 'x',
        'all.yaml': `${ns}---\n${cm}`,
      },
    });
    expect(k.run('apply -f dir').stdout).toBe('namespace/team-a created\nconfigmap/cfg created\n');
    expect(k.run('apply -f all.yaml').stdout).toBe('namespace/team-a unchanged\nconfigmap/cfg unchanged\n');
    expect(
      k.run('apply -f -', { stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-stdin\n' })
        .stdout,
    ).toBe('configmap/from-stdin created\n');
  });

  it('--dry-run=client and --dry-run=server change nothing', () => {
    const k = makeKubectl({ files: { 'd.yaml': SIMPLE } });
    expect(k.run('apply -f d.yaml --dry-run=client').stdout).toBe(
      'deployment.apps/nginx-deployment created (dry run)\n',
    );
    expect(k.run('apply -f d.yaml --dry-run=server').stdout).toBe(
      'deployment.apps/nginx-deployment created (server dry run)\n',
    );
    expect(k.host.store.get('deployments.apps', 'default', 'nginx-deployment')).toBeUndefined();
  });

  it('words YAML syntax errors like go-yaml through sigs.k8s.io/yaml', () => {
    const bad =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web image: nginx\n';
    const k = makeKubectl({ files: { 'web.yaml': bad } });
    expect(k.run('apply -f web.yaml')).toEqual({
      stdout: '',
      stderr:
        'error: error parsing web.yaml: error converting YAML to JSON: yaml: line 7: mapping values are not allowed in this context\n',
      exitCode: 1,
    });
  });

  it('reports server errors per object with the source, and keeps going', () => {
    const k = makeKubectl({
      files: {
        'x.yaml':
          'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  foo: 1\n  containers:\n  - name: web\n    image: nginx\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n',
      },
    });
    const r = k.run('apply -f x.yaml');
    expect(r.stdout).toBe('configmap/ok created\n');
    expect(r.stderr).toBe(
      'Error from server (BadRequest): error when creating "x.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"\n',
    );
    expect(r.exitCode).toBe(1);
  });

  it('kinds the server does not serve', () => {
    const k = makeKubectl({
      files: { 'f.yaml': 'apiVersion: example.com/v1\nkind: Foo\nmetadata:\n  name: x\n' },
    });
    expect(k.run('apply -f f.yaml').stderr).toBe(
      'error: resource mapping not found for name: "x" namespace: "" from "f.yaml": no matches for kind "Foo" in version "example.com/v1"\nensure CRDs are installed first\n',
    );
  });

  it('missing files and empty input', () => {
    const k = makeKubectl({ files: { 'empty.yaml': '# nothing\n' } });
    expect(k.run('apply -f nope.yaml').stderr).toBe('error: the path "nope.yaml" does not exist\n');
    expect(k.run('apply -f empty.yaml').stderr).toBe('error: no objects passed to apply\n');
  });
});

describe('kubectl apply -f with a bad document among good ones', () => {
  // cli-runtime's StreamVisitor decodes one document at a time: a decode (or, when validating, a
  // missing kind) error ends that file, a kind without a mapping is recorded and the file goes on.
  // apply.go collects what it could read (Result.Infos keeps it beside the error), applies it, then
  // prints the read errors before its own, one line each (MultipleErrors). The real v1.33 binary,
  // which cannot map anything without a cluster, prints the same shape for a ConfigMap then `kind: [`:
  // `unable to recognize "…": …` then `error parsing …: … yaml: line 1: did not find expected node content`.
  const CM = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

  it('applies the documents before a syntax error and those after an unknown kind', () => {
    const k = makeKubectl({
      files: {
        'multi.yaml': [
          CM('a'),
          'apiVersion: v1\nkind: Foo\nmetadata:\n  name: f\n',
          CM('b'),
          'kind: [\n',
          CM('d'),
        ].join('---\n'),
      },
    });
    expect(k.run('apply -f multi.yaml')).toEqual({
      stdout: 'configmap/a created\nconfigmap/b created\n',
      stderr:
        'resource mapping not found for name: "f" namespace: "" from "multi.yaml": no matches for kind "Foo" in version "v1"\nensure CRDs are installed first\nerror parsing multi.yaml: error converting YAML to JSON: yaml: line 1: did not find expected node content\n',
      exitCode: 1,
    });
    expect(k.host.store.get('configmaps', 'default', 'd')).toBeUndefined();
  });

  it('one bad document alone prints as a single error; other files still apply', () => {
    const k = makeKubectl({ files: { 'a.yaml': `${CM('a')}---\nkind: [\n`, 'b.yaml': CM('b') } });
    expect(k.run('apply -f a.yaml -f b.yaml')).toEqual({
      stdout: 'configmap/a created\nconfigmap/b created\n',
      stderr:
        'error: error parsing a.yaml: error converting YAML to JSON: yaml: line 1: did not find expected node content\n',
      exitCode: 1,
    });
  });

  it('a document without kind stops its file when validating, not with --validate=false', () => {
    const files = { 'k.yaml': [CM('a'), 'apiVersion: v1\nmetadata:\n  name: x\n', CM('b')].join('---\n') };
    const k = makeKubectl({ files });
    expect(k.run('apply -f k.yaml')).toEqual({
      stdout: 'configmap/a created\n',
      stderr:
        'error: error validating "k.yaml": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false\n',
      exitCode: 1,
    });
    const k2 = makeKubectl({ files });
    const r = k2.run('apply -f k.yaml --validate=false');
    expect(r.stdout).toBe('configmap/a created\nconfigmap/b created\n');
    expect(r.stderr).toMatch(/^error: unable to decode "k\.yaml": Object 'Kind' is missing in /);
  });

  it('read errors come before the errors of applying', () => {
    const k = makeKubectl({
      files: { 'm.yaml': `${CM('a')}---\n${CM('Bad_Name')}---\nkind: [\n` },
    });
    const r = k.run('apply -f m.yaml');
    expect(r.stdout).toBe('configmap/a created\n');
    expect(r.stderr.split('\n')[0]).toBe(
      'error parsing m.yaml: error converting YAML to JSON: yaml: line 1: did not find expected node content',
    );
    expect(r.stderr.split('\n')[1]).toMatch(
      /^Error from server \(Invalid\): error when creating "m\.yaml": ConfigMap "Bad_Name" is invalid: /,
    );
  });
});

describe('kubectl create -f', () => {
  it('creates, then fails with AlreadyExists wrapped with the source', () => {
    const k = makeKubectl({ files: { 'd.yaml': SIMPLE } });
    expect(k.run('create -f d.yaml').stdout).toBe('deployment.apps/nginx-deployment created\n');
    expect(k.run('create -f d.yaml')).toEqual({
      stdout: '',
      stderr:
        'Error from server (AlreadyExists): error when creating "d.yaml": deployments.apps "nginx-deployment" already exists\n',
      exitCode: 1,
    });
  });
});
