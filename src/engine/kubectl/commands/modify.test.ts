/**
 * kubectl patch / set / edit against a running simulated cluster. Result lines are kubectl's
 * printer operations (`patched`, `patched (no change)`, `image updated`, `env updated`, `edited`,
 * pkg/cmd/patch, pkg/cmd/set, pkg/cmd/util/editor); error texts are the captured client goldens or
 * quoted from those packages (editor.go `unable to launch the editor %q`, editoptions.go
 * `Edit cancelled, no changes made.`).
 */
import { describe, expect, it } from 'vitest';
import { run, ok, webCluster } from './cluster-test-helpers.ts';

describe('kubectl patch', () => {
  it('patches, then reports no change for the same patch', () => {
    const c = webCluster();
    expect(run(c, `kubectl patch deploy web -p '{"spec":{"replicas":3}}'`)).toEqual(
      ok('deployment.apps/web patched\n'),
    );
    expect(run(c, `kubectl patch deployment/web -p 'spec: {replicas: 3}'`)).toEqual(
      ok('deployment.apps/web patched (no change)\n'),
    );
    expect(run(c, `kubectl get deploy web -o jsonpath='{.spec.replicas}'`).stdout).toBe('3');
  });

  it('strategic merge keeps the container ports; a merge patch replaces the list', () => {
    const c = webCluster();
    run(
      c,
      `kubectl patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}}'`,
    );
    expect(
      run(
        c,
        `kubectl get deploy web -o jsonpath='{.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].ports[0].containerPort}'`,
      ).stdout,
    ).toBe('nginx:1.27 80');
    run(
      c,
      `kubectl patch deploy web --type merge -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}'`,
    );
    expect(
      run(c, `kubectl get deploy web -o jsonpath='{.spec.template.spec.containers[0].ports}'`).stdout,
    ).toBe('');
  });

  it('JSON patch on a Service; a failing operation is the server 422', () => {
    const c = webCluster();
    expect(
      run(
        c,
        `kubectl patch svc web --type=json -p '[{"op":"replace","path":"/spec/ports/0/port","value":8080}]'`,
      ),
    ).toEqual(ok('service/web patched\n'));
    expect(run(c, `kubectl get svc web -o jsonpath='{.spec.ports[0].port}'`).stdout).toBe('8080');
    expect(run(c, `kubectl patch svc web --type=json -p '[{"op":"remove","path":"/spec/foo"}]'`)).toEqual({
      stdout: '',
      stderr: 'The request is invalid: the server rejected our request due to an error in our request\n',
      exitCode: 1,
    });
  });

  it('--dry-run, -o, --patch-file, the scale subresource, unknown fields warn', () => {
    const c = webCluster();
    expect(run(c, `kubectl patch deploy web -p '{"spec":{"replicas":5}}' --dry-run=client`)).toEqual(
      ok('deployment.apps/web patched (dry run)\n'),
    );
    expect(run(c, `kubectl patch deploy web -p '{"spec":{"replicas":5}}' --dry-run=server -o name`)).toEqual(
      ok('deployment.apps/web\n'),
    );
    expect(run(c, `kubectl get deploy web -o jsonpath='{.spec.replicas}'`).stdout).toBe('1');
    c.files.write('p.yaml', 'spec:\n  replicas: 2\n');
    expect(run(c, 'kubectl patch deploy web --patch-file p.yaml')).toEqual(
      ok('deployment.apps/web patched\n'),
    );
    expect(
      run(c, `kubectl patch deploy web --subresource=scale --type=merge -p '{"spec":{"replicas":4}}'`),
    ).toEqual(ok('scale.autoscaling/web patched\n'));
    expect(run(c, `kubectl get deploy web -o jsonpath='{.spec.replicas}'`).stdout).toBe('4');
    expect(run(c, `kubectl patch deploy web -p '{"spec":{"bogus":1}}'`)).toEqual({
      stdout: 'deployment.apps/web patched (no change)\n',
      stderr: 'Warning: unknown field "spec.bogus"\n',
      exitCode: 0,
    });
    expect(run(c, `kubectl patch deploy nope -p '{}'`).stderr).toBe(
      'Error from server (NotFound): deployments.apps "nope" not found\n',
    );
  });
});

// Captured from kubectl v1.33.1 (`kubectl patch -f d.yaml --local …`, no cluster): the file's
// Deployment web (replicas 1, one container nginx with containerPort 80).
const D_YAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx
        ports:
        - containerPort: 80
`;

describe('kubectl patch --local', () => {
  it.each([
    {
      p: '{"spec":{"replicas":1}}',
      type: 'strategic',
      out: 'deployment.apps/web patched (no change)\n',
      err: '',
    },
    {
      p: '[{"op":"replace","path":"/spec/foo","value":1}]',
      type: 'json',
      out: 'deployment.apps/web patched\n',
      err: '',
    },
    {
      p: '[{"op":"remove","path":"/spec/foo"}]',
      type: 'json',
      out: '',
      err: "error: error in remove for path: '/spec/foo': Unable to remove nonexistent key: foo: missing value\n",
    },
    {
      p: '[{"op":"add","path":"/spec/foo/bar","value":1}]',
      type: 'json',
      out: '',
      err: 'error: add operation does not apply: doc is missing path: "/spec/foo/bar": missing value\n',
    },
    {
      p: '[{"op":"test","path":"/spec/replicas","value":2}]',
      type: 'json',
      out: '',
      err: 'error: testing value /spec/replicas failed: test failed\n',
    },
    {
      p: '[{"op":"add","path":"/spec/template/spec/containers/5","value":{}}]',
      type: 'json',
      out: '',
      err: "error: error in add for path: '/spec/template/spec/containers/5': Unable to access invalid index: 5: invalid index referenced\n",
    },
    {
      p: '[{"op":"move","from":"/spec/x","path":"/spec/y"}]',
      type: 'json',
      out: '',
      err: "error: error in move for path: 'x': Unable to remove nonexistent key: x: missing value\n",
    },
    { p: '[{"op":"bogus","path":"/spec"}]', type: 'json', out: '', err: 'error: Unexpected kind: bogus\n' },
    { p: '[{"path":"/spec"}]', type: 'json', out: '', err: 'error: Unexpected kind: unknown\n' },
    {
      p: '[{"op":"add","value":1}]',
      type: 'json',
      out: '',
      err: 'error: add operation failed to decode path: missing value\n',
    },
    {
      p: '{"a":1}',
      type: 'json',
      out: '',
      err: 'error: json: cannot unmarshal object into Go value of type jsonpatch.Patch\n',
    },
  ])('$type $p', ({ p, type, out, err }) => {
    const c = webCluster();
    c.files.write('d.yaml', D_YAML);
    const r = run(c, `kubectl patch -f d.yaml --local --type=${type} -p '${p}'`);
    expect(r).toEqual({ stdout: out, stderr: err, exitCode: err === '' ? 0 : 1 });
  });

  it('prints the patched file object, and needs no server object', () => {
    const c = webCluster();
    c.files.write('d.yaml', D_YAML.replace('name: web', 'name: elsewhere'));
    expect(
      run(
        c,
        `kubectl patch -f d.yaml --local -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:2"}]}}}}' -o jsonpath='{.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].ports[0].containerPort}'`,
      ),
    ).toEqual(ok('nginx:2 80'));
  });
});

describe('kubectl set --local', () => {
  // Captured from kubectl v1.33.1 with no cluster.
  it.each([
    {
      line: 'set image -f d.yaml nginx=nginx:1.27 --local',
      out: 'deployment.apps/web image updated\n',
      err: '',
    },
    { line: 'set image -f d.yaml nginx=nginx --local', out: '', err: '' },
    {
      line: 'set image -f d.yaml foo=x --local',
      out: '',
      err: 'error: unable to find container named "foo"\n',
    },
    { line: 'set env -f d.yaml A=1 --local', out: 'deployment.apps/web env updated\n', err: '' },
    { line: 'set env -f d.yaml --list --local', out: '# Deployment web, container nginx\n', err: '' },
    {
      line: 'set resources -f d.yaml --limits=cpu=1 --local',
      out: 'deployment.apps/web resource requirements updated\n',
      err: '',
    },
    {
      line: 'set image deploy/web nginx=x --local',
      out: '',
      err: "error: you must specify resources by --filename when --local is set.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n",
    },
  ])('kubectl $line', ({ line, out, err }) => {
    const c = webCluster();
    c.files.write('d.yaml', D_YAML);
    expect(run(c, `kubectl ${line}`)).toEqual({ stdout: out, stderr: err, exitCode: err === '' ? 0 : 1 });
    // Nothing reached the server's object.
    expect(
      run(c, `kubectl get deploy web -o jsonpath='{.spec.template.spec.containers[0].image}'`).stdout,
    ).toBe('nginx');
  });
});

describe('kubectl patch on a custom resource', () => {
  it('strategic merge is refused (415, wrapped by kubectl with the GVK); a merge patch works', () => {
    const c = webCluster();
    c.files.write(
      'gc.yaml',
      'apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: demo\nspec:\n  controllerName: example.com/gw\n',
    );
    run(c, 'kubectl apply -f gc.yaml');
    expect(run(c, `kubectl patch gatewayclass demo -p '{"spec":{"description":"x"}}'`)).toEqual({
      stdout: '',
      stderr:
        'error: application/strategic-merge-patch+json is not supported by gateway.networking.k8s.io/v1, Kind=GatewayClass: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n',
      exitCode: 1,
    });
    expect(run(c, `kubectl patch gatewayclass demo --type=merge -p '{"spec":{"description":"x"}}'`)).toEqual(
      ok('gatewayclass.gateway.networking.k8s.io/demo patched\n'),
    );
  });
});

describe('kubectl set', () => {
  it('image: updated once, silent when nothing changes, errors for unknown containers', () => {
    const c = webCluster();
    expect(run(c, 'kubectl set image deploy/web nginx=nginx:1.27')).toEqual(
      ok('deployment.apps/web image updated\n'),
    );
    expect(run(c, 'kubectl set image deploy/web nginx=nginx:1.27')).toEqual(ok(''));
    expect(run(c, 'kubectl set image deploy/web foo=nginx')).toEqual({
      stdout: '',
      stderr: 'error: unable to find container named "foo"\n',
      exitCode: 1,
    });
    expect(
      run(c, `kubectl get deploy web -o jsonpath='{.spec.template.spec.containers[0].image}'`).stdout,
    ).toBe('nginx:1.27');
    expect(run(c, 'kubectl set image deploy/web nginx=nginx:1.28 extra').stderr).toBe(
      'error: all resources must be specified before image changes: extra\n',
    );
  });

  it('env: set, list, remove', () => {
    const c = webCluster();
    expect(run(c, 'kubectl set env deploy/web KEY=v OTHER=x')).toEqual(
      ok('deployment.apps/web env updated\n'),
    );
    expect(run(c, 'kubectl set env deploy/web --list')).toEqual(
      ok('# Deployment web, container nginx\nKEY=v\nOTHER=x\n'),
    );
    expect(run(c, 'kubectl set env deploy/web KEY-')).toEqual(ok('deployment.apps/web env updated\n'));
    expect(
      run(c, `kubectl get deploy web -o jsonpath='{.spec.template.spec.containers[0].env}'`).stdout,
    ).toBe('[{"name":"OTHER","value":"x"}]');
  });

  it('resources and selector', () => {
    const c = webCluster();
    expect(run(c, 'kubectl set resources deploy/web --limits=cpu=200m,memory=512Mi')).toEqual(
      ok('deployment.apps/web resource requirements updated\n'),
    );
    expect(
      run(c, `kubectl get deploy web -o jsonpath='{.spec.template.spec.containers[0].resources.limits.cpu}'`)
        .stdout,
    ).toBe('200m');
    expect(run(c, 'kubectl set resources deploy/web').stderr).toBe(
      'error: you must specify an update to requests or limits (in the form of --requests/--limits)\n',
    );
    expect(run(c, 'kubectl set selector svc web app=web,tier=fe')).toEqual(
      ok('service/web selector updated\n'),
    );
    expect(run(c, `kubectl get svc web -o jsonpath='{.spec.selector}'`).stdout).toBe(
      '{"app":"web","tier":"fe"}',
    );
  });
});

describe('kubectl set on a pod', () => {
  it('image changes in place; other pod spec changes fail wrapped as set wraps them', () => {
    const c = webCluster();
    run(c, 'kubectl run p --image=nginx');
    run(c, 'sleep 5');
    expect(run(c, 'kubectl set image po/p p=nginx:1.27')).toEqual(ok('pod/p image updated\n'));
    expect(run(c, 'kubectl set resources po/p --limits=cpu=200m').stderr).toMatch(
      /^error: failed to patch resources update to pod template Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than /,
    );
    expect(run(c, 'kubectl set env po/p A=1').stderr).toMatch(
      /^error: failed to patch env update to pod template: Pod "p" is invalid: spec: Forbidden: /,
    );
  });
});

describe('kubectl edit', () => {
  it('runs $KUBE_EDITOR on a temp file and applies what it changed', () => {
    const c = webCluster();
    expect(run(c, 'KUBE_EDITOR="sed -i s/80/8080/" kubectl edit svc web')).toEqual(
      ok('service/web edited\n'),
    );
    expect(run(c, `kubectl get svc web -o jsonpath='{.spec.ports[0].port}'`).stdout).toBe('8080');
    // The temp file is gone after a successful edit.
    expect(run(c, 'ls /tmp')).toEqual(ok(''));
  });

  it('EDITOR with quotes runs through the shell; an unchanged file cancels', () => {
    const c = webCluster();
    expect(run(c, `EDITOR="sed -i 's/replicas: 1/replicas: 2/'" kubectl edit deploy web`)).toEqual(
      ok('deployment.apps/web edited\n'),
    );
    expect(run(c, 'KUBE_EDITOR=true kubectl edit deploy web')).toEqual({
      stdout: '',
      stderr: 'Edit cancelled, no changes made.\n',
      exitCode: 0,
    });
    expect(run(c, 'KUBE_EDITOR="sed -i d" kubectl edit deploy web').stderr).toBe(
      'Edit cancelled, saved file was empty.\n',
    );
  });

  it('without a usable editor says it cannot launch vi', () => {
    const c = webCluster();
    expect(run(c, 'kubectl edit svc web')).toEqual({
      stdout: '',
      stderr: 'error: unable to launch the editor "vi"\n',
      exitCode: 1,
    });
    expect(run(c, 'KUBE_EDITOR=nano kubectl edit svc web').stderr).toBe(
      'error: unable to launch the editor "nano"\n',
    );
  });

  it('a change the server rejects keeps the file and cancels', () => {
    const c = webCluster();
    const r = run(c, `KUBE_EDITOR="sed -i s/ClusterIP$/Bogus/" kubectl edit svc web`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^error: services "web" is invalid\nA copy of your changes has been stored to "\/tmp\/kubectl-edit-\d+\.yaml"\nerror: Edit cancelled, no valid changes were saved\.\n$/,
    );
  });
});
