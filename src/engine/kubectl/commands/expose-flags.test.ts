/**
 * `kubectl expose` flags that used to be accepted and ignored. Expected texts are kubectl v1.33's
 * client-side dry runs (`kubectl expose -f deploy.yaml … --dry-run=client -o yaml` against a
 * discovery-only server), with v1.35's omitted zero creationTimestamp: --overrides/--override-type
 * (OverrideOptions.Apply, shared with `kubectl run`), the generator's ParseLabels for --selector and
 * --labels, its session affinity check, --load-balancer-ip only for type LoadBalancer, a headless
 * Service without ports, and --save-config only for objects that are sent.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl, type TestKubectl } from '../test-helpers.ts';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
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

function withDeployment(): TestKubectl {
  const k = makeKubectl({
    files: { 'web.yaml': DEPLOY, 'w0.yaml': DEPLOY.replace(/web/g, 'w0').replace(/\s+ports:[\s\S]*$/, '\n') },
  });
  expect(k.run('apply -f web.yaml').exitCode).toBe(0);
  expect(k.run('apply -f w0.yaml').exitCode).toBe(0);
  return k;
}

const svcYaml = (spec: string, labels = '    app: web\n', name = 'web'): string =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n${labels}  name: ${name}\nspec:\n${spec}status:\n  loadBalancer: {}\n`;
const PORT80 = '  ports:\n  - port: 80\n    protocol: TCP\n    targetPort: 80\n';
const SELECT_WEB = '  selector:\n    app: web\n';

describe('kubectl expose --overrides', () => {
  it('a merge override changes the generated Service', () => {
    const k = withDeployment();
    expect(
      k.run(`expose deploy web --port=80 --overrides='{"spec":{"type":"NodePort"}}' --dry-run=client -o yaml`)
        .stdout,
    ).toBe(svcYaml(`${PORT80}${SELECT_WEB}  type: NodePort\n`));
  });

  it('json and strategic override types', () => {
    const k = withDeployment();
    expect(
      k.run(
        `expose deploy web --port=80 --override-type=json --overrides='[{"op":"add","path":"/spec/type","value":"NodePort"}]' --dry-run=client -o yaml`,
      ).stdout,
    ).toBe(svcYaml(`${PORT80}${SELECT_WEB}  type: NodePort\n`));
    expect(
      k.run(
        `expose deploy web --port=80 --override-type=strategic --overrides='{"metadata":{"annotations":{"x":"y"}}}' --dry-run=client -o yaml`,
      ).stdout,
    ).toBe(
      'apiVersion: v1\nkind: Service\nmetadata:\n  annotations:\n    x: "y"\n  labels:\n    app: web\n  name: web\n' +
        `spec:\n${PORT80}${SELECT_WEB}status:\n  loadBalancer: {}\n`,
    );
  });

  it('the override reaches the API server', () => {
    const k = withDeployment();
    expect(k.run(`expose deploy web --port=80 --overrides='{"spec":{"type":"NodePort"}}'`).stdout).toBe(
      'service/web exposed\n',
    );
    expect(k.run('get svc web -o jsonpath={.spec.type}').stdout).toBe('NodePort');
  });

  it.each([
    [`--overrides='{"spec":'`, 'error: Invalid JSON Patch\n'],
    [`--overrides=null`, 'error: Invalid JSON Patch\n'],
    [
      `--overrides='[]'`,
      'error: couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }\n',
    ],
    [
      `--overrides='{"kind":null}'`,
      `error: Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"web","labels":{"app":"web"}},"spec":{"ports":[{"protocol":"TCP","port":80,"targetPort":80}],"selector":{"app":"web"}},"status":{"loadBalancer":{}}}'\n`,
    ],
    [
      `--overrides='{"apiVersion":"v2"}'`,
      'error: no kind "Service" is registered for version "v2" in scheme "pkg/scheme/scheme.go:28"\n',
    ],
    [`--override-type=foo --overrides='{}'`, 'error: invalid override type: foo\n'],
  ])('%s is refused and nothing is created', (flags, stderr) => {
    const k = withDeployment();
    expect(k.run(`expose deploy web --port=80 ${flags}`)).toEqual({ stdout: '', stderr, exitCode: 1 });
    expect(k.run('get svc web').exitCode).toBe(1);
  });
});

describe('kubectl expose: the generator flags', () => {
  it('--selector and --labels as ParseLabels reads them', () => {
    const k = withDeployment();
    expect(
      k.run('expose deploy web --port=80 --selector=app=x,tier=fe --dry-run=client -o yaml').stdout,
    ).toBe(svcYaml(`${PORT80}  selector:\n    app: x\n    tier: fe\n`));
    expect(k.run('expose deploy web --port=80 --labels=a=b,c=d --dry-run=client -o yaml').stdout).toBe(
      svcYaml(`${PORT80}${SELECT_WEB}`, '    a: b\n    c: d\n'),
    );
    expect(k.run('expose deploy web --port=80 --selector=a --dry-run=client').stderr).toBe(
      'error: unexpected label spec: a\n',
    );
    expect(k.run('expose deploy web --port=80 --labels=a=b,c --dry-run=client').stderr).toBe(
      'error: unexpected label spec: c\n',
    );
    expect(k.run('expose deploy web --port=80 --selector==x --dry-run=client').stderr).toBe(
      'error: unexpected empty label key\n',
    );
  });

  it('--external-ip, --session-affinity, --load-balancer-ip, --cluster-ip=None', () => {
    const k = withDeployment();
    expect(k.run('expose deploy web --port=80 --external-ip=1.2.3.4 --dry-run=client -o yaml').stdout).toBe(
      svcYaml(`  externalIPs:\n  - 1.2.3.4\n${PORT80}${SELECT_WEB}`),
    );
    expect(
      k.run('expose deploy web --port=80 --session-affinity=ClientIP --dry-run=client -o yaml').stdout,
    ).toBe(svcYaml(`${PORT80}${SELECT_WEB}  sessionAffinity: ClientIP\n`));
    expect(k.run('expose deploy web --port=80 --session-affinity=clientip --dry-run=client').stderr).toBe(
      'error: unknown session affinity: clientip\n',
    );
    expect(
      k.run('expose deploy web --port=80 --load-balancer-ip=1.2.3.4 --dry-run=client -o yaml').stdout,
    ).toBe(svcYaml(`${PORT80}${SELECT_WEB}`));
    expect(
      k.run(
        'expose deploy web --port=80 --type=LoadBalancer --load-balancer-ip=1.2.3.4 --dry-run=client -o yaml',
      ).stdout,
    ).toBe(svcYaml(`  loadBalancerIP: 1.2.3.4\n${PORT80}${SELECT_WEB}  type: LoadBalancer\n`));
    expect(k.run('expose deploy w0 --dry-run=client').stderr).toBe(
      "error: couldn't find port via --port flag or introspection\nSee 'kubectl expose -h' for help and examples\n",
    );
    expect(k.run('expose deploy w0 --cluster-ip=None --dry-run=client -o yaml').stdout).toBe(
      svcYaml('  clusterIP: None\n  selector:\n    app: w0\n', '    app: w0\n', 'w0'),
    );
  });

  it('--save-config: no annotation on a client dry run, recorded on the object sent', () => {
    const k = withDeployment();
    expect(k.run('expose deploy web --port=80 --save-config --dry-run=client -o yaml').stdout).toBe(
      svcYaml(`${PORT80}${SELECT_WEB}`),
    );
    expect(k.run('expose deploy web --port=80 --save-config').exitCode).toBe(0);
    const ann = k.run(
      `get svc web -o jsonpath='{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}'`,
    ).stdout;
    expect(JSON.parse(ann)).toMatchObject({ kind: 'Service', spec: { selector: { app: 'web' } } });
  });
});
