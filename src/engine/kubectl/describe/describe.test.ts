/**
 * Describer goldens: the expected outputs of kubernetes/kubectl pkg/describe/describe_test.go
 * (TestDescribeService "test1", TestDescribeConfigMap, TestDescribeNetworkPolicies,
 * TestDescribeServiceAccount), run end to end
 * through `kubectl describe`. Objects are stored as the tests build them (no admission), since those
 * tests bypass the API server too. The NetworkPolicy's "Created on" is the simulated clock's origin in
 * UTC (the simulator has no local time zone), printed in metav1.Time's String() format.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from '../test-helpers.ts';

function withNamespace(k: ReturnType<typeof makeKubectl>, name: string) {
  k.host.store.create('namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
    status: { phase: 'Active' },
  });
}

describe('kubectl describe', () => {
  it('service (TestDescribeService test1)', () => {
    const k = makeKubectl();
    withNamespace(k, 'foo');
    k.put({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'bar', namespace: 'foo' },
      spec: {
        type: 'LoadBalancer',
        ports: [{ name: 'port-tcp', port: 8080, protocol: 'TCP', targetPort: 9527, nodePort: 31111 }],
        selector: { blah: 'heh' },
        clusterIP: '1.2.3.4',
        ipFamilies: ['IPv4'],
        loadBalancerIP: '5.6.7.8',
        sessionAffinity: 'None',
        externalTrafficPolicy: 'Local',
        internalTrafficPolicy: 'Cluster',
        healthCheckNodePort: 32222,
      },
      status: { loadBalancer: { ingress: [{ ip: '5.6.7.8', ipMode: 'VIP' }] } },
    });
    k.put({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'bar-abcde', namespace: 'foo', labels: { 'kubernetes.io/service-name': 'bar' } },
      addressType: 'IPv4',
      endpoints: ['10.244.0.1', '10.244.0.2', '10.244.0.3'].map((a) => ({
        addresses: [a],
        conditions: { ready: true },
      })),
      ports: [{ name: 'port-tcp', port: 9527, protocol: 'TCP' }],
    });
    expect(k.run('describe svc bar -n foo').stdout).toBe(`Name:                     bar
Namespace:                foo
Labels:                   <none>
Annotations:              <none>
Selector:                 blah=heh
Type:                     LoadBalancer
IP Families:              IPv4
IP:                       1.2.3.4
IPs:                      <none>
Desired LoadBalancer IP:  5.6.7.8
LoadBalancer Ingress:     5.6.7.8 (VIP)
Port:                     port-tcp  8080/TCP
TargetPort:               9527/TCP
NodePort:                 port-tcp  31111/TCP
Endpoints:                10.244.0.1:9527,10.244.0.2:9527,10.244.0.3:9527
Session Affinity:         None
External Traffic Policy:  Local
Internal Traffic Policy:  Cluster
HealthCheck NodePort:     32222
Events:                   <none>
`);
  });

  it('skips not-ready endpoints and counts the rest as "+ N more..." (kubernetes-facts §6.3)', () => {
    const k = makeKubectl();
    k.put({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'bar', namespace: 'default' },
      spec: { type: 'ClusterIP', ports: [{ name: 'p', port: 80, protocol: 'TCP', targetPort: 9527 }] },
    });
    k.put({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'bar-1', namespace: 'default', labels: { 'kubernetes.io/service-name': 'bar' } },
      addressType: 'IPv4',
      endpoints: [
        { addresses: ['10.244.0.1'], conditions: { ready: true } },
        { addresses: ['10.244.0.2'], conditions: { ready: true } },
        { addresses: ['10.244.0.3'], conditions: { ready: false } },
        { addresses: ['10.244.0.4'], conditions: { ready: true } },
        { addresses: ['10.244.0.5'] },
      ],
      ports: [{ name: 'p', port: 9527, protocol: 'TCP' }],
    });
    expect(k.run('describe service bar').stdout).toContain(
      'Endpoints:         10.244.0.1:9527,10.244.0.2:9527,10.244.0.4:9527 + 1 more...\n',
    );
  });

  it('configmap (TestDescribeConfigMap)', () => {
    const k = makeKubectl();
    withNamespace(k, 'foo');
    k.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'mycm', namespace: 'foo' },
      data: { key1: 'value1', key2: 'value2' },
      binaryData: { binarykey1: '//79/Ps=', binarykey2: '//79/Pv6' },
    });
    expect(k.run('describe configmap mycm -n foo').stdout).toBe(`Name:         mycm
Namespace:    foo
Labels:       <none>
Annotations:  <none>

Data
====
key1:
----
value1

key2:
----
value2


BinaryData
====
binarykey1: 5 bytes
binarykey2: 6 bytes

Events:  <none>
`);
  });

  it('serviceaccount (TestDescribeServiceAccount)', () => {
    const k = makeKubectl();
    withNamespace(k, 'foo');
    k.put({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'bar', namespace: 'foo' },
      secrets: [{ name: 'test-objectref' }],
      imagePullSecrets: [{ name: 'test-local-ref' }],
    });
    expect(k.run('describe serviceaccount bar -n foo').stdout).toBe(`Name:                bar
Namespace:           foo
Labels:              <none>
Annotations:         <none>
Image pull secrets:  test-local-ref (not found)
Mountable secrets:   test-objectref (not found)
Tokens:              <none>
Events:              <none>
`);
  });

  it('serviceaccount: its token Secrets (name and uid annotations), further names under an empty header', () => {
    const k = makeKubectl();
    withNamespace(k, 'foo');
    const sa = k.put({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'bar', namespace: 'foo' },
      imagePullSecrets: [{ name: 'reg' }, { name: 'gone' }],
    });
    const token = (name: string, uid: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name,
        namespace: 'foo',
        annotations: {
          'kubernetes.io/service-account.name': 'bar',
          'kubernetes.io/service-account.uid': uid,
        },
      },
      type: 'kubernetes.io/service-account-token',
    });
    k.put(token('bar-token', sa.metadata.uid));
    k.put(token('stale-token', 'another-uid'));
    k.put({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'reg', namespace: 'foo' }, type: 'Opaque' });
    expect(k.run('describe sa bar -n foo').stdout).toBe(`Name:                bar
Namespace:           foo
Labels:              <none>
Annotations:         <none>
Image pull secrets:  reg
                     gone (not found)
Mountable secrets:   <none>
Tokens:              bar-token
Events:              <none>
`);
  });

  it('networkpolicy (TestDescribeNetworkPolicies)', () => {
    const k = makeKubectl();
    const peers = [
      {
        podSelector: { matchLabels: { id: 'pod1', id2: 'pod2' } },
        namespaceSelector: { matchLabels: { id: 'ns1', id2: 'ns2' } },
      },
      { podSelector: { matchLabels: { id: 'app2', id2: 'app3' } } },
      { namespaceSelector: { matchLabels: { id: 'app2', id2: 'app3' } } },
      {
        namespaceSelector: {
          matchLabels: { id: 'app2', id2: 'app3' },
          matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar1', 'bar2'] }],
        },
      },
      { ipBlock: { cidr: '192.168.0.0/16', except: ['192.168.3.0/24', '192.168.4.0/24'] } },
    ];
    const ports = [{ port: 80 }, { port: 82, protocol: 'TCP' }];
    k.put({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'network-policy-1', namespace: 'default' },
      spec: {
        podSelector: {
          matchLabels: { id1: 'app1', id2: 'app2' },
          matchExpressions: [
            { key: 'foo', operator: 'In', values: ['bar1', 'bar2'] },
            { key: 'foo2', operator: 'NotIn', values: ['bar1', 'bar2'] },
          ],
        },
        ingress: [{ ports, from: peers }, {}],
        egress: [{ ports, to: peers }, {}],
        policyTypes: ['Ingress', 'Egress'],
      },
    });
    expect(k.run('describe netpol network-policy-1').stdout).toBe(`Name:         network-policy-1
Namespace:    default
Created on:   2026-01-01 00:00:00 +0000 UTC
Labels:       <none>
Annotations:  <none>
Spec:
  PodSelector:     foo in (bar1,bar2),foo2 notin (bar1,bar2),id1=app1,id2=app2
  Allowing ingress traffic:
    To Port: 80/TCP
    To Port: 82/TCP
    From:
      NamespaceSelector: id=ns1,id2=ns2
      PodSelector: id=pod1,id2=pod2
    From:
      PodSelector: id=app2,id2=app3
    From:
      NamespaceSelector: id=app2,id2=app3
    From:
      NamespaceSelector: foo in (bar1,bar2),id=app2,id2=app3
    From:
      IPBlock:
        CIDR: 192.168.0.0/16
        Except: 192.168.3.0/24, 192.168.4.0/24
    ----------
    To Port: <any> (traffic allowed to all ports)
    From: <any> (traffic not restricted by source)
  Allowing egress traffic:
    To Port: 80/TCP
    To Port: 82/TCP
    To:
      NamespaceSelector: id=ns1,id2=ns2
      PodSelector: id=pod1,id2=pod2
    To:
      PodSelector: id=app2,id2=app3
    To:
      NamespaceSelector: id=app2,id2=app3
    To:
      NamespaceSelector: foo in (bar1,bar2),id=app2,id2=app3
    To:
      IPBlock:
        CIDR: 192.168.0.0/16
        Except: 192.168.3.0/24, 192.168.4.0/24
    ----------
    To Port: <any> (traffic allowed to all ports)
    To: <any> (traffic not restricted by destination)
  Policy Types: Ingress, Egress
`);
  });

  it('a name prefix describes every match, each with its Events, each followed by a newline', () => {
    const k = makeKubectl();
    for (const n of ['web-1', 'web-2'])
      k.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, namespace: 'default' } });
    const out = k.run('describe cm web').stdout;
    expect(out.match(/^Name:/gm)?.length).toBe(2);
    // DescribeMatchingResources: `fmt.Fprintf(o.Out, "%s\n", s)` per match; ShowEvents defaults to true.
    expect(out.match(/^Events:  <none>\n\n/gm)?.length).toBe(2);
    expect(k.run('describe cm web --show-events=false').stdout).not.toContain('Events:');
    expect(k.run('describe cm nope').stderr).toBe(
      'Error from server (NotFound): configmaps "nope" not found\n',
    );
    expect(k.run('describe')).toEqual({
      stdout: '',
      stderr:
        'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n',
      exitCode: 1,
    });
  });

  it('pod: events table with the Type/Reason/Age/From/Message header', () => {
    const k = makeKubectl();
    const p = k.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] }],
        nodeName: 'kind-worker',
      },
      status: { phase: 'Pending', hostIP: '172.18.0.3' },
    });
    k.put({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: p.metadata.uid },
      reason: 'Scheduled',
      message: 'Successfully assigned default/web to kind-worker',
      type: 'Normal',
      source: { component: 'default-scheduler' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:00Z',
      count: 1,
    });
    k.advance(5000);
    const out = k.run('describe pod web').stdout;
    expect(out).toContain('Node:         kind-worker/172.18.0.3\n');
    expect(out).toContain('    Port:         80/TCP\n    Host Port:    0/TCP\n');
    expect(
      out.endsWith(
        'Events:\n  Type    Reason     Age   From               Message\n  ----    ------     ----  ----               -------\n  Normal  Scheduled  5s    default-scheduler  Successfully assigned default/web to kind-worker\n',
      ),
    ).toBe(true);
  });

  it('several objects by selector: each gets its Events table, separated by "\n\n" (describe.go)', () => {
    const k = makeKubectl();
    for (const name of ['web-a', 'web-b']) {
      const p = k.put({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default', labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx' }], nodeName: 'kind-worker' },
        status: { phase: 'Pending', hostIP: '172.18.0.3' },
      });
      k.put({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${name}.1`, namespace: 'default' },
        involvedObject: { kind: 'Pod', name, namespace: 'default', uid: p.metadata.uid },
        reason: 'Scheduled',
        message: `Successfully assigned default/${name} to kind-worker`,
        type: 'Normal',
        source: { component: 'default-scheduler' },
        firstTimestamp: '2026-01-01T00:00:00Z',
        lastTimestamp: '2026-01-01T00:00:00Z',
        count: 1,
      });
    }
    k.advance(5000);
    const out = k.run('describe pod -l app=web').stdout;
    const parts = out.split('\n\n\nName:');
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^Name: +web-a\n/);
    expect(parts[0]).toMatch(
      /Events:\n.*\n.*\n  Normal .*Successfully assigned default\/web-a to kind-worker$/,
    );
    expect(parts[1]).toMatch(/^ +web-b\n/);
    expect(parts[1]).toMatch(
      /Events:\n.*\n.*\n  Normal  Scheduled  5s    default-scheduler  Successfully assigned default\/web-b to kind-worker\n$/,
    );
  });
});
