/**
 * How kubectl prints API errors (kubectl `pkg/cmd/util/helpers.go` `checkErr`): one Invalid error is
 * printed from its Status details, `The <Kind> "<name>" is invalid: ` + the causes (one inline, several
 * as a `* field: message` list), so the `error when creating "<file>"` that `AddSourceToErr` writes into
 * the *message* never shows for it; every other reason goes through `StandardErrorMessage`
 * (`Error from server (<Reason>): <message>`, source included), and an aggregate of several errors prints
 * each one that way. Generators wrap with `fmt.Errorf("failed to create …: %v")`, which flattens the
 * Status to its message under `error: `.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from './test-helpers.ts';

const POD_NO_IMAGE = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p3\nspec:\n  containers:\n  - name: c\n';
const POD_TWO_CAUSES =
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p4\nspec:\n  containers:\n  - name: c\n  - name: c\n    image: nginx\n';
const SVC_PORT_80 =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: x\nspec:\n  type: NodePort\n  selector: {app: x}\n  ports:\n  - port: 80\n    nodePort: 80\n';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n';

function files(): Record<string, string> {
  return {
    'miss.yaml': POD_NO_IMAGE,
    'two.yaml': POD_TWO_CAUSES,
    'svc.yaml': SVC_PORT_80,
    'cm.yaml': CM,
    'both.yaml': `${POD_NO_IMAGE}---\n${POD_NO_IMAGE.replace('p3', 'p5')}`,
    'ns.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: nope\n',
    'noname.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {a: b}\n',
    'gen.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: web-\n',
  };
}

describe('checkErr: Invalid errors from -f print from their details, without the source', () => {
  it.each(['apply', 'create'])('kubectl %s -f: one cause inline', (verb) => {
    const k = makeKubectl({ files: files() });
    expect(k.run(`${verb} -f miss.yaml`)).toEqual({
      stdout: '',
      stderr: 'The Pod "p3" is invalid: spec.containers[0].image: Required value\n',
      exitCode: 1,
    });
  });

  it.each(['apply', 'create'])('kubectl %s -f: several causes as a list under the header', (verb) => {
    const k = makeKubectl({ files: files() });
    expect(k.run(`${verb} -f two.yaml`).stderr).toBe(
      'The Pod "p4" is invalid: \n' +
        '* spec.containers[0].image: Required value\n' +
        '* spec.containers[1].name: Duplicate value: "c"\n',
    );
  });

  it.each(['apply', 'create'])('kubectl %s -f: a nodePort outside the range', (verb) => {
    const k = makeKubectl({ files: files() });
    expect(k.run(`${verb} -f svc.yaml`).stderr).toBe(
      'The Service "x" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767\n',
    );
  });

  it('several failed objects are an aggregate: each printed by StandardErrorMessage, source kept', () => {
    const k = makeKubectl({ files: files() });
    expect(k.run('apply -f both.yaml')).toEqual({
      stdout: '',
      stderr:
        'Error from server (Invalid): error when creating "both.yaml": Pod "p3" is invalid: spec.containers[0].image: Required value\n' +
        'Error from server (Invalid): error when creating "both.yaml": Pod "p5" is invalid: spec.containers[0].image: Required value\n',
      exitCode: 1,
    });
  });
});

describe('checkErr: other reasons keep the source in the message', () => {
  it('AlreadyExists from create -f', () => {
    const k = makeKubectl({ files: files() });
    expect(k.run('create -f cm.yaml').stdout).toBe('configmap/c created\n');
    expect(k.run('create -f cm.yaml').stderr).toBe(
      'Error from server (AlreadyExists): error when creating "cm.yaml": configmaps "c" already exists\n',
    );
  });

  it.each(['apply', 'create'])('NotFound namespace from %s -f', (verb) => {
    const k = makeKubectl({ files: files() });
    expect(k.run(`${verb} -f ns.yaml`).stderr).toBe(
      'Error from server (NotFound): error when creating "ns.yaml": namespaces "nope" not found\n',
    );
  });
});

describe('kubectl apply -f without a name (apply.go applyOneObject)', () => {
  it('no name: client-go refuses the GET before any request, wrapped with the object info', () => {
    const k = makeKubectl({ files: files() });
    expect(k.run('apply -f noname.yaml')).toEqual({
      stdout: '',
      stderr:
        'error: error when retrieving current configuration of:\n' +
        'Resource: "/v1, Resource=configmaps", GroupVersionKind: "/v1, Kind=ConfigMap"\n' +
        'Name: "", Namespace: "default"\n' +
        'from server for: "noname.yaml": resource name may not be empty\n',
      exitCode: 1,
    });
  });

  it('generateName cannot be applied; create takes it to the server, which needs a name here', () => {
    const k = makeKubectl({ files: files() });
    expect(k.run('apply -f gen.yaml').stderr).toBe('error: from web-: cannot use generate name with apply\n');
    expect(k.run('create -f noname.yaml').stderr).toBe(
      'The ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required\n',
    );
  });
});

describe('generators wrap the API error with fmt.Errorf("failed to create …: %v")', () => {
  it('create deployment: Invalid and AlreadyExists', () => {
    const k = makeKubectl();
    expect(k.run('create deployment Web --image=nginx').stderr).toMatch(
      /^error: failed to create deployment: Deployment\.apps "Web" is invalid: metadata\.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of /,
    );
    expect(k.run('create deployment web --image=nginx').stdout).toBe('deployment.apps/web created\n');
    expect(k.run('create deployment web --image=nginx')).toEqual({
      stdout: '',
      stderr: 'error: failed to create deployment: deployments.apps "web" already exists\n',
      exitCode: 1,
    });
  });

  it('create service <type>: the Go ServiceType in the wrapper', () => {
    const k = makeKubectl();
    expect(k.run('create service clusterip web --tcp=80').exitCode).toBe(0);
    expect(k.run('create service nodeport web --tcp=80').stderr).toBe(
      'error: failed to create NodePort service: services "web" already exists\n',
    );
    expect(k.run('create service clusterip web --tcp=80').stderr).toBe(
      'error: failed to create ClusterIP service: services "web" already exists\n',
    );
  });

  it('create configmap wraps; create namespace returns the error as is', () => {
    const k = makeKubectl();
    expect(k.run('create configmap c').exitCode).toBe(0);
    expect(k.run('create configmap c').stderr).toBe(
      'error: failed to create configmap: configmaps "c" already exists\n',
    );
    expect(k.run('create namespace default').stderr).toBe(
      'Error from server (AlreadyExists): namespaces "default" already exists\n',
    );
  });

  it('create configmap checks keys as validateNewConfigMap does (kubectl v1.32 texts)', () => {
    const k = makeKubectl();
    expect(k.run('create configmap x --from-literal=a=1 --from-literal=a=2').stderr).toBe(
      'error: cannot add key "a", another key by that name already exists in Data for ConfigMap "x"\n',
    );
    expect(k.run("create configmap x --from-literal='a b=1' --dry-run=client -o yaml").stderr).toBe(
      `error: "a b" is not a valid key name for a ConfigMap: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')\n`,
    );
  });
});
