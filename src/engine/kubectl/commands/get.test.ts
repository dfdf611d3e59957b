/**
 * `kubectl get` end to end. Expected tables are the real captures and derived rules quoted in
 * shared/reference/kubernetes-facts.md §6.1–6.2 (flannel cluster capture, kubernetes.io examples).
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl, type TestKubectl } from '../test-helpers.ts';

const DAY = 86_400_000;

function pod(
  k: TestKubectl,
  name: string,
  node: string,
  ip: string,
  restarts: number,
  lastRestartAgoMs: number,
  labels: Record<string, string> = {},
) {
  k.put({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }], nodeName: node },
    status: {
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        {
          name: 'c',
          ready: true,
          restartCount: restarts,
          image: 'nginx',
          imageID: '',
          state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
          lastState: {
            terminated: {
              exitCode: 137,
              finishedAt: new Date(Date.UTC(2026, 0, 22) - lastRestartAgoMs)
                .toISOString()
                .replace('.000', ''),
            },
          },
        },
      ],
    },
  });
}

function service(
  k: TestKubectl,
  name: string,
  spec: Record<string, unknown>,
  status: Record<string, unknown> = {},
) {
  k.put({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec, status });
}

describe('kubectl get: tables', () => {
  it('reproduces the flannel capture (get pod,svc -o wide)', () => {
    const k = makeKubectl();
    pod(k, 'curl-pod', 'flannel-ctr', '10.244.0.5', 9, 29 * 60_000);
    pod(k, 'webpod-697b545f57-7rsn9', 'flannel-w2', '10.244.2.10', 2, 46 * 3_600_000, { app: 'webpod' });
    service(k, 'kubernetes', {
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      ports: [{ port: 443, protocol: 'TCP' }],
    });
    service(k, 'webpod', {
      type: 'ClusterIP',
      clusterIP: '10.96.65.151',
      clusterIPs: ['10.96.65.151'],
      selector: { app: 'webpod' },
      ports: [{ port: 80, protocol: 'TCP' }],
    });
    k.advance(21 * DAY);
    const r = k.run('get pod,svc -o wide');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'NAME                          READY   STATUS    RESTARTS      AGE   IP            NODE          NOMINATED NODE   READINESS GATES',
        'pod/curl-pod                  1/1     Running   9 (29m ago)   21d   10.244.0.5    flannel-ctr   <none>           <none>',
        'pod/webpod-697b545f57-7rsn9   1/1     Running   2 (46h ago)   21d   10.244.2.10   flannel-w2    <none>           <none>',
        '',
        'NAME                 TYPE        CLUSTER-IP     EXTERNAL-IP   PORT(S)   AGE   SELECTOR',
        'service/kubernetes   ClusterIP   10.96.0.1      <none>        443/TCP   21d   <none>',
        'service/webpod       ClusterIP   10.96.65.151   <none>        80/TCP    21d   app=webpod',
        '',
      ].join('\n'),
    );
  });

  it('prints one kind without kind/ prefixes, and NAMESPACE first with -A', () => {
    const k = makeKubectl();
    service(k, 'kube-dns', {
      type: 'ClusterIP',
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      ],
    });
    const r = k.run('get svc');
    expect(r.stdout).toBe(
      'NAME       TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)         AGE\nkube-dns   ClusterIP   10.96.0.10   <none>        53/UDP,53/TCP   0s\n',
    );
    expect(k.run('get svc -A').stdout.split('\n')[0]).toBe(
      'NAMESPACE   NAME       TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)         AGE',
    );
  });

  it.each([
    {
      name: 'NodePort',
      spec: {
        type: 'NodePort',
        clusterIP: '10.96.1.2',
        clusterIPs: ['10.96.1.2'],
        ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }],
      },
      status: {},
      ext: '<none>',
      ports: '80:30080/TCP',
    },
    {
      name: 'LoadBalancer without address',
      spec: {
        type: 'LoadBalancer',
        clusterIP: '10.96.1.3',
        clusterIPs: ['10.96.1.3'],
        ports: [{ port: 80, nodePort: 31000, protocol: 'TCP' }],
      },
      status: {},
      ext: '<pending>',
      ports: '80:31000/TCP',
    },
    {
      name: 'LoadBalancer with an address',
      spec: {
        type: 'LoadBalancer',
        clusterIP: '10.96.1.4',
        clusterIPs: ['10.96.1.4'],
        ports: [{ port: 80, nodePort: 31001, protocol: 'TCP' }],
      },
      status: { loadBalancer: { ingress: [{ ip: '172.18.255.200' }] } },
      ext: '172.18.255.200',
      ports: '80:31001/TCP',
    },
    {
      name: 'headless',
      spec: {
        type: 'ClusterIP',
        clusterIP: 'None',
        clusterIPs: ['None'],
        ports: [{ port: 80, protocol: 'TCP' }],
      },
      status: {},
      ext: '<none>',
      ports: '80/TCP',
    },
    {
      name: 'ExternalName',
      spec: { type: 'ExternalName', externalName: 'example.com' },
      status: {},
      ext: 'example.com',
      ports: '<none>',
    },
  ])('service $name: EXTERNAL-IP $ext, PORT(S) $ports', ({ spec, status, ext, ports }) => {
    const k = makeKubectl();
    service(k, 's', spec, status);
    const cells = k
      .run('get svc s --no-headers')
      .stdout.trim()
      .split(/\s{2,}/);
    expect(cells[3]).toBe(ext);
    expect(cells[4]).toBe(ports);
  });

  it('EndpointSlices: port numbers only, three addresses then "+ N more...", <unset> when empty', () => {
    const k = makeKubectl();
    k.put({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'my-nginx-7vzhx',
        namespace: 'default',
        labels: { 'kubernetes.io/service-name': 'my-nginx' },
      },
      addressType: 'IPv4',
      ports: [{ name: '', port: 80, protocol: 'TCP' }],
      endpoints: [{ addresses: ['10.244.2.5'] }, { addresses: ['10.244.3.4'] }],
    });
    k.put({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'many-abcde', namespace: 'default' },
      addressType: 'IPv4',
      ports: [],
      endpoints: ['1', '2', '3', '4', '5'].map((n) => ({ addresses: [`10.0.0.${n}`] })),
    });
    k.put({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'empty-xyz12', namespace: 'default' },
      addressType: 'IPv4',
      endpoints: [],
    });
    k.advance(21_000);
    expect(k.run('get endpointslices').stdout).toBe(
      [
        'NAME             ADDRESSTYPE   PORTS     ENDPOINTS                                AGE',
        'empty-xyz12      IPv4          <unset>   <unset>                                  21s',
        'many-abcde       IPv4          <unset>   10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...   21s',
        'my-nginx-7vzhx   IPv4          80        10.244.2.5,10.244.3.4                    21s',
        '',
      ].join('\n'),
    );
    expect(k.run('get endpointslices -l kubernetes.io/service-name=my-nginx -o name').stdout).toBe(
      'endpointslice.discovery.k8s.io/my-nginx-7vzhx\n',
    );
  });

  it('v1 Endpoints come with the v1.33+ deprecation warning on stderr', () => {
    const k = makeKubectl();
    k.put({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web', namespace: 'default' },
      subsets: [{ addresses: [{ ip: '10.244.1.2' }], ports: [{ port: 8080 }] }],
    });
    const r = k.run('get endpoints');
    expect(r.stderr).toBe(
      'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n',
    );
    expect(r.stdout).toBe('NAME   ENDPOINTS         AGE\nweb    10.244.1.2:8080   0s\n');
  });

  it('NetworkPolicy POD-SELECTOR is <none> for the empty selector', () => {
    const k = makeKubectl();
    k.run('apply -f np.yaml', {});
    k.put({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'default-deny', namespace: 'default' },
      spec: { podSelector: {}, policyTypes: ['Ingress'] },
    });
    k.put({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'web', namespace: 'default' },
      spec: { podSelector: { matchLabels: { app: 'web' } } },
    });
    k.advance(5000);
    expect(k.run('get netpol').stdout).toBe(
      'NAME           POD-SELECTOR   AGE\ndefault-deny   <none>         5s\nweb            app=web        5s\n',
    );
  });

  it('Ingress: CLASS <none>, HOSTS *, ADDRESS empty until published, PORTS 80, 443 with TLS', () => {
    const k = makeKubectl();
    k.put({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'a', namespace: 'default' },
      spec: { rules: [{ http: { paths: [] } }] },
    });
    k.put({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'b', namespace: 'default' },
      spec: { ingressClassName: 'nginx', tls: [{ hosts: ['x.io'] }], rules: [{ host: 'x.io' }] },
      status: { loadBalancer: { ingress: [{ ip: '172.18.0.5' }] } },
    });
    expect(k.run('get ing').stdout).toBe(
      'NAME   CLASS    HOSTS   ADDRESS      PORTS     AGE\na      <none>   *                    80        0s\nb      nginx    x.io    172.18.0.5   80, 443   0s\n',
    );
  });

  it('--show-labels, -L and --no-headers', () => {
    const k = makeKubectl();
    pod(k, 'web', 'n1', '10.0.0.1', 0, 0, { app: 'web', tier: 'fe' });
    expect(k.run('get po --show-labels').stdout.split('\n')[1]).toMatch(/\s{3}app=web,tier=fe$/);
    expect(k.run('get po -L tier').stdout.split('\n')[0]).toBe(
      'NAME   READY   STATUS    RESTARTS   AGE   TIER',
    );
    expect(k.run('get po --no-headers').stdout).toBe('web   1/1   Running   0     0s\n');
  });
});

describe('kubectl get: lookups and errors', () => {
  it('No resources found goes to stderr, naming the namespace', () => {
    const k = makeKubectl();
    expect(k.run('get pods')).toEqual({
      stdout: '',
      stderr: 'No resources found in default namespace.\n',
      exitCode: 0,
      // The learner saw that there are none: a listing that shows nothing still shows that.
      shows: { stream: 'stderr', sightings: [{ resource: 'pods', namespace: 'default', names: [] }] },
    });
    expect(k.run('get pods -n kube-system').stderr).toBe('No resources found in kube-system namespace.\n');
    expect(k.run('get pods -A').stderr).toBe('No resources found\n');
  });

  it('prints what it found, then NotFound errors, and exits 1', () => {
    const k = makeKubectl();
    pod(k, 'web', 'n1', '10.0.0.1', 0, 0);
    const r = k.run('get pods web nope');
    expect(r.stdout).toBe(
      'NAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   0          0s\n',
    );
    expect(r.stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
    expect(r.exitCode).toBe(1);
    expect(k.run('get deploy web').stderr).toBe(
      'Error from server (NotFound): deployments.apps "web" not found\n',
    );
    expect(k.run('get networkpolicy x').stderr).toBe(
      'Error from server (NotFound): networkpolicies.networking.k8s.io "x" not found\n',
    );
  });

  it('unknown types', () => {
    const k = makeKubectl();
    expect(k.run('get foo')).toEqual({
      stdout: '',
      stderr: 'error: the server doesn\'t have a resource type "foo"\n',
      exitCode: 1,
    });
  });

  it('-o yaml prints one object for one name and a List otherwise', () => {
    const k = makeKubectl();
    pod(k, 'web', 'n1', '10.0.0.1', 0, 0);
    expect(k.run('get pod web -o yaml').stdout.startsWith('apiVersion: v1\nkind: Pod\nmetadata:\n')).toBe(
      true,
    );
    const list = k.run('get pods -o yaml').stdout;
    expect(list.startsWith('apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n')).toBe(true);
    expect(list.endsWith('kind: List\nmetadata:\n  resourceVersion: ""\n')).toBe(true);
    expect(k.run('get svc -o yaml').stdout).toBe(
      'apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: ""\n',
    );
  });

  it('-o json sorts keys like Go marshals maps, four-space indent', () => {
    const k = makeKubectl();
    pod(k, 'web', 'n1', '10.0.0.1', 0, 0);
    const out = k.run('get pod web -o json').stdout;
    expect(
      out.startsWith(
        '{\n    "apiVersion": "v1",\n    "kind": "Pod",\n    "metadata": {\n        "creationTimestamp"',
      ),
    ).toBe(true);
  });

  it('-o jsonpath and custom-columns', () => {
    const k = makeKubectl();
    pod(k, 'a', 'n1', '10.0.0.1', 0, 0);
    pod(k, 'b', 'n2', '10.0.0.2', 0, 0);
    expect(k.run("get pods -o jsonpath='{.items[*].metadata.name}'").stdout).toBe('a b');
    expect(
      k.run(`get pods -o jsonpath='{range .items[*]}{.metadata.name}{"\\t"}{.status.podIP}{"\\n"}{end}'`)
        .stdout,
    ).toBe('a\t10.0.0.1\nb\t10.0.0.2\n');
    expect(
      k.run('get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,X:.spec.missing').stdout,
    ).toBe('NAME   NODE   X\na      n1     <none>\nb      n2     <none>\n');
    expect(k.run('get pods -o foo').stderr).toBe(
      'error: unable to match a printer suitable for the output format "foo", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml\n',
    );
  });

  it('-w prints the current state and returns', () => {
    const k = makeKubectl();
    pod(k, 'a', 'n1', '10.0.0.1', 0, 0);
    const r = k.run('get pods -w');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^a\s+1\/1/);
  });
});
