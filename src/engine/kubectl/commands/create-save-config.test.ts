/**
 * `kubectl create <generator> --save-config`: the last-applied annotation of a generated (typed) object.
 * The goldens are the real kubectl v1.33 binary's `--dry-run=client -o yaml` output (no cluster needed),
 * with the one change of the target version applied to them: since v1.34 a zero creationTimestamp is
 * omitted from JSON and YAML alike (kubernetes#130989), the annotation's JSON included.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from '../test-helpers.ts';

function toV135(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/^\s*creationTimestamp: null$/.test(l))
    .join('\n')
    .replace(/,"creationTimestamp":null/g, '')
    .replace(/"creationTimestamp":null,/g, '');
}

const V133: ReadonlyArray<readonly [string, string]> = [
  [
    'create deployment web --image=nginx',
    `apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","creationTimestamp":null,"labels":{"app":"web"}},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx","resources":{}}]}},"strategy":{}},"status":{}}
  creationTimestamp: null
  labels:
    app: web
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  strategy: {}
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx
        name: nginx
        resources: {}
status: {}
`,
  ],
  [
    'create deployment web --image=nginx --replicas=3 --port=80 -n team-a',
    `apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"team-a","creationTimestamp":null,"labels":{"app":"web"}},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx","ports":[{"containerPort":80}],"resources":{}}]}},"strategy":{}},"status":{}}
  creationTimestamp: null
  labels:
    app: web
  name: web
  namespace: team-a
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  strategy: {}
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx
        name: nginx
        ports:
        - containerPort: 80
        resources: {}
status: {}
`,
  ],
  [
    'create namespace team',
    `apiVersion: v1
kind: Namespace
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team","creationTimestamp":null},"spec":{},"status":{}}
  creationTimestamp: null
  name: team
spec: {}
status: {}
`,
  ],
  [
    'create configmap cfg --from-literal=b=2 --from-literal=a=1',
    `apiVersion: v1
data:
  a: "1"
  b: "2"
kind: ConfigMap
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cfg","creationTimestamp":null},"data":{"a":"1","b":"2"}}
  creationTimestamp: null
  name: cfg
`,
  ],
  [
    "create configmap c '--from-literal=x=<a&b>'",
    `apiVersion: v1
data:
  x: <a&b>
kind: ConfigMap
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","creationTimestamp":null},"data":{"x":"\\u003ca\\u0026b\\u003e"}}
  creationTimestamp: null
  name: c
`,
  ],
  [
    'create configmap empty',
    `apiVersion: v1
kind: ConfigMap
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"empty","creationTimestamp":null}}
  creationTimestamp: null
  name: empty
`,
  ],
  [
    'create secret generic s --from-literal=k=v --type=Opaque',
    `apiVersion: v1
data:
  k: dg==
kind: Secret
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","creationTimestamp":null},"data":{"k":"dg=="},"type":"Opaque"}
  creationTimestamp: null
  name: s
type: Opaque
`,
  ],
];

describe('kubectl create <generator> --save-config', () => {
  it.each(V133)('%s', (line, golden) => {
    const r = makeKubectl().run(`${line} --save-config --dry-run=client -o yaml`);
    expect(r).toEqual({ stdout: toV135(golden), stderr: '', exitCode: 0 });
  });

  it('records the same annotation on the object it creates', () => {
    const k = makeKubectl();
    expect(k.run('create deployment web --image=nginx --save-config').stdout).toBe(
      'deployment.apps/web created\n',
    );
    const ann = k.run(
      `get deploy web -o jsonpath='{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}'`,
    ).stdout;
    expect(ann).toBe(
      '{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx","resources":{}}]}},"strategy":{}},"status":{}}\n',
    );
  });

  it('create -f keeps the unstructured form: sorted keys and "annotations":{}', () => {
    const k = makeKubectl({
      files: {
        'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  b: "2"\n  a: "1"\n',
      },
    });
    const out = k.run('create -f cm.yaml --save-config --dry-run=client -o yaml').stdout;
    expect(out).toContain(
      '{"apiVersion":"v1","data":{"a":"1","b":"2"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"cfg"',
    );
  });
});
