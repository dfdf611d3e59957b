/**
 * `kubectl replace`. Flag errors are the real kubectl v1.33 binary's output (run without a cluster);
 * the rest follows pkg/cmd/replace/replace.go: `replaced` from NewPrintFlags("replaced"), API errors
 * wrapped by `AddSourceToErr("replacing", …)`, `--force` deleting through delete's
 * `DeleteOptions.DeleteResult` (so its lines are delete's: since v1.34 `<kind> "<name>" deleted from
 * <ns> namespace`, `-o` handed over from the printer flags) then `<kind>/<name> replaced`, and the
 * resource.Helper `Replace` that reads the live resourceVersion only when the file has none.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { LAST_APPLIED } from '../apply-merge.ts';
import { makeKubectl } from '../test-helpers.ts';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx
`;

const SVC = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
`;

function setup() {
  return makeKubectl({
    files: {
      'd.yaml': DEPLOY,
      'd3.yaml': DEPLOY.replace('replicas: 1', 'replicas: 3'),
      'sel.yaml': DEPLOY.replace(/app: web/g, 'app: other'),
      'svc.yaml': SVC,
    },
  });
}

const fail = (stderr: string) => ({ stdout: '', stderr, exitCode: 1 });

describe('kubectl replace', () => {
  it('checks its flags as v1.33 does', () => {
    const k = setup();
    expect(k.run('replace')).toEqual(fail('error: must specify one of -f and -k\n'));
    expect(k.run('replace --grace-period=3 -f d.yaml')).toEqual(
      fail('error: --grace-period must have --force specified\n'),
    );
    expect(k.run('replace --timeout=3s -f d.yaml')).toEqual(
      fail('error: --timeout must have --force specified\n'),
    );
    expect(k.run('replace --force --dry-run=client -f d.yaml')).toEqual(
      fail('error: --dry-run can not be used when --force is set\n'),
    );
    expect(k.run('replace --cascade=bogus -f d.yaml')).toEqual(
      fail('error: invalid cascade value (bogus). Must be "background", "foreground", or "orphan"\n'),
    );
    expect(k.run('replace --dry-run=bogus')).toEqual(
      fail('error: Invalid dry-run value (bogus). Must be "none", "server", or "client".\n'),
    );
    expect(k.run('replace -f nothere.yaml')).toEqual(fail('error: the path "nothere.yaml" does not exist\n'));
    expect(k.run('replace --raw /api -f a -f b')).toEqual(
      fail('error: --raw can only use a single local file or stdin\n'),
    );
    expect(k.run('replace --raw /x -f a -R')).toEqual(
      fail('error: --raw and --recursive are mutually exclusive\n'),
    );
    expect(k.run("replace --raw 'not a url' -f a")).toEqual(
      fail('error: --raw must be a valid URL path: parse "not a url": invalid URI for request\n'),
    );
    expect(k.run('replace --raw /x -f a -o yaml')).toEqual(
      fail('error: --raw and --output are mutually exclusive\n'),
    );
    expect(k.run('replace -f d.yaml -k dir')).toEqual(fail('error: only one of -f or -k can be specified\n'));
  });

  it('never creates: a missing object is NotFound, named after the file', () => {
    const k = setup();
    expect(k.run('replace -f d.yaml')).toEqual(
      fail('Error from server (NotFound): error when replacing "d.yaml": deployments.apps "web" not found\n'),
    );
  });

  it('replaces the whole object, in every dry-run mode and output', () => {
    const k = setup();
    k.run('create -f d.yaml');
    expect(k.run('replace -f d3.yaml --dry-run=client')).toEqual({
      stdout: 'deployment.apps/web replaced (dry run)\n',
      stderr: '',
      exitCode: 0,
    });
    expect(k.run('replace -f d3.yaml --dry-run=server')).toEqual({
      stdout: 'deployment.apps/web replaced (server dry run)\n',
      stderr: '',
      exitCode: 0,
    });
    expect(k.host.store.get('deployments.apps', 'default', 'web')!.spec!.replicas).toBe(1);
    expect(k.run('replace -f d3.yaml -o name')).toEqual({
      stdout: 'deployment.apps/web\n',
      stderr: '',
      exitCode: 0,
    });
    expect(k.host.store.get('deployments.apps', 'default', 'web')!.spec!.replicas).toBe(3);
    expect(k.run('replace -f -', { stdin: DEPLOY }).stdout).toBe('deployment.apps/web replaced\n');
  });

  it('a stale resourceVersion in the file is a Conflict', () => {
    const k = setup();
    k.run('create -f d.yaml');
    const stale = k.run('get deploy web -o yaml').stdout;
    k.run('replace -f d3.yaml');
    k.host.files.write('stale.yaml', stale);
    expect(k.run('replace -f stale.yaml')).toEqual(
      fail(
        'Error from server (Conflict): error when replacing "stale.yaml": Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again\n',
      ),
    );
    // The live object as just read carries the current resourceVersion, so it goes through.
    k.host.files.write('fresh.yaml', k.run('get deploy web -o yaml').stdout);
    expect(k.run('replace -f fresh.yaml').stdout).toBe('deployment.apps/web replaced\n');
  });

  it('immutable fields are the API server Invalid errors', () => {
    const k = setup();
    k.run('create -f d.yaml');
    expect(k.run('replace -f sel.yaml')).toEqual(
      fail(
        'The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"other"}}: field is immutable\n',
      ),
    );
    k.run('create -f svc.yaml');
    const ip = k.host.store.get('services', 'default', 'web')!.spec!.clusterIP!;
    // A Service sent without its clusterIP keeps the allocated one (the registry patches it in).
    expect(k.run('replace -f svc.yaml').stdout).toBe('service/web replaced\n');
    expect(k.host.store.get('services', 'default', 'web')!.spec!.clusterIP).toBe(ip);
    k.host.files.write('svc2.yaml', SVC.replace('spec:\n', 'spec:\n  clusterIP: 10.96.0.99\n'));
    expect(k.run('replace -f svc2.yaml').stderr).toMatch(
      /^The Service "web" is invalid: spec\.clusterIPs\[0\]: Invalid value: \["10\.96\.0\.99"\]: may not change once set\n$/,
    );
  });

  it('--force deletes, waits, and creates again', () => {
    const k = setup();
    k.run('create -f d.yaml');
    const uid = k.host.store.get('deployments.apps', 'default', 'web')!.metadata.uid;
    expect(k.run('replace --force -f d3.yaml')).toEqual({
      stdout: 'deployment.apps "web" deleted from default namespace\ndeployment.apps/web replaced\n',
      stderr: '',
      exitCode: 0,
    });
    const now = k.host.store.get('deployments.apps', 'default', 'web')!;
    expect(now.metadata.uid).not.toBe(uid);
    expect(now.spec!.replicas).toBe(3);
    // Objects that are not there are skipped by the delete and created.
    expect(k.run('replace --force --grace-period=0 -f svc.yaml')).toEqual({
      stdout: 'service/web replaced\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it('--force recreates a manifest exported with get -o yaml (Helper.Create clears resourceVersion)', () => {
    const k = setup();
    k.run('create -f d.yaml');
    const exported = k.run('get deploy web -o yaml').stdout;
    expect(exported).toMatch(/resourceVersion: /);
    expect(k.run('replace --force -f -', { stdin: exported.replace('replicas: 1', 'replicas: 2') })).toEqual({
      stdout: 'deployment.apps "web" deleted from default namespace\ndeployment.apps/web replaced\n',
      stderr: '',
      exitCode: 0,
    });
    expect(k.host.store.get('deployments.apps', 'default', 'web')!.spec!.replicas).toBe(2);
  });

  it('--force prints each deletion as kubectl delete does', () => {
    const k = setup();
    k.host.files.write(
      'ic.yaml',
      'apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\nspec:\n  controller: k8s.io/ingress-nginx\n',
    );
    k.run('create -f d.yaml');
    k.run('create -f ic.yaml');
    const deleted = k.run('delete -f d.yaml -f ic.yaml').stdout;
    expect(deleted).toBe(
      'deployment.apps "web" deleted from default namespace\ningressclass.networking.k8s.io "nginx" deleted\n',
    );
    k.run('create -f d.yaml');
    k.run('create -f ic.yaml');
    expect(k.run('replace --force -f d.yaml -f ic.yaml').stdout).toBe(
      `${deleted}deployment.apps/web replaced\ningressclass.networking.k8s.io/nginx replaced\n`,
    );
    // replace.go hands `-o` to the DeleteOptions, so `-o name` shortens the deletions too.
    expect(k.run('replace --force -f d.yaml -o name').stdout).toBe(
      'deployment.apps/web\ndeployment.apps/web\n',
    );
    expect(k.run('replace --force -f d.yaml -n default --grace-period=0').stdout).toBe(
      'deployment.apps "web" deleted from default namespace\ndeployment.apps/web replaced\n',
    );
  });

  it('--force deletes with the --cascade policy, as delete does', () => {
    const c = createCluster(undefined, { seed: 1, files: { 'd.yaml': DEPLOY } });
    c.execSync('kubectl create deployment web --image=nginx');
    for (let i = 0; i < 10; i++) c.tick(1000);
    const rs = c.execSync('kubectl get rs -o jsonpath={.items[*].metadata.uid}').stdout;
    expect(c.execSync('kubectl replace --force --cascade=orphan -f d.yaml')).toMatchObject({
      stdout: 'deployment.apps "web" deleted from default namespace\ndeployment.apps/web replaced\n',
      stderr: '',
      exitCode: 0,
    });
    for (let i = 0; i < 10; i++) c.tick(1000);
    // The orphaned ReplicaSet outlives its Deployment (background would have collected it).
    expect(c.execSync('kubectl get rs -o jsonpath={.items[*].metadata.uid}').stdout).toContain(rs);
    expect(c.execSync('kubectl replace --force --cascade=1 -f d.yaml').stderr).toBe(
      'warning: --cascade=1 is deprecated (boolean value) and can be replaced with --cascade=background.\n',
    );
  });

  it('--save-config records the annotation; one already in the file is recomputed', () => {
    const k = setup();
    k.run('create -f d.yaml');
    k.run('replace -f d3.yaml --save-config');
    const recorded = k.host.store.get('deployments.apps', 'default', 'web')!.metadata.annotations![
      LAST_APPLIED
    ];
    expect(recorded).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx","name":"nginx"}]}}}}\n',
    );
    // `kubectl get -o yaml | kubectl replace -f -`: CreateOrUpdateAnnotation rewrites an existing one.
    const live = k.run('get deploy web -o yaml').stdout.replace('replicas: 3', 'replicas: 2');
    expect(k.run('replace -f -', { stdin: live }).stdout).toBe('deployment.apps/web replaced\n');
    const again = k.host.store.get('deployments.apps', 'default', 'web')!.metadata.annotations![
      LAST_APPLIED
    ]!;
    expect(JSON.parse(again)).toMatchObject({ spec: { replicas: 2 } });
    expect(JSON.parse(again).metadata.annotations).toEqual({});
  });

  // The real v1.33 binary on `kind: [` after a ConfigMap (no cluster: the mapping fails instead of the
  // kind) prints the same two lines, mapping first: `unable to recognize "…": …` then
  // `error parsing …: error converting YAML to JSON: yaml: line 1: did not find expected node content`.
  it('replaces the documents before a syntax error; an unknown kind does not stop the file', () => {
    const k = setup();
    k.run('create -f d.yaml');
    k.run('create -f svc.yaml');
    k.host.files.write(
      'multi.yaml',
      `${DEPLOY}---\napiVersion: v1\nkind: Foo\nmetadata:\n  name: f\n---\n${SVC}---\nkind: [\n---\n${DEPLOY}`,
    );
    expect(k.run('replace -f multi.yaml')).toEqual({
      stdout: 'deployment.apps/web replaced\nservice/web replaced\n',
      stderr:
        'resource mapping not found for name: "f" namespace: "" from "multi.yaml": no matches for kind "Foo" in version "v1"\nensure CRDs are installed first\nerror parsing multi.yaml: error converting YAML to JSON: yaml: line 1: did not find expected node content\n',
      exitCode: 1,
    });
  });

  // apimachinery's unstructured decoder requires kind but not apiVersion (its "TODO(109023)"), so the
  // builders without a schema (replace --force's delete, delete -f) map a bare kind in the core group.
  it('maps a manifest without apiVersion in the core group when no schema validates it', () => {
    const k = setup();
    k.run('create -f svc.yaml');
    k.host.files.write('nv.yaml', 'kind: Deployment\nmetadata:\n  name: web\n');
    k.host.files.write('sv.yaml', 'kind: Service\nmetadata:\n  name: web\n');
    k.host.files.write('nk.yaml', 'metadata:\n  name: web\n');
    expect(k.run('replace --force -f nv.yaml')).toEqual(
      fail(
        'error: resource mapping not found for name: "web" namespace: "" from "nv.yaml": no matches for kind "Deployment" in group ""\nensure CRDs are installed first\n',
      ),
    );
    expect(k.run('delete -f nk.yaml')).toEqual(
      fail(
        'error: unable to decode "nk.yaml": Object \'Kind\' is missing in \'{"metadata":{"name":"web"}}\'\n',
      ),
    );
    expect(k.run('delete -f sv.yaml')).toMatchObject({
      stdout: expect.stringMatching(/^service "web" deleted/),
      exitCode: 0,
    });
  });
});
