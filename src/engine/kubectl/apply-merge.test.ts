/**
 * The patches `kubectl edit` sends and the last-applied annotation `--save-config` writes. Goldens are
 * the upstream kubectl edit testdata (kubernetes/kubectl v0.33.0, pkg/cmd/edit/testdata):
 * testcase-edit-error-reedit (2.request, 4.request: the strategic merge patches computed from
 * 0.response to the edited files) and testcase-edit-output-patch (the `Patch: …` line of
 * `kubectl edit --save-config --output-patch`).
 */
import { describe, expect, it } from 'vitest';
import { goJSON, twoWayMergePatch, withLastApplied } from './apply-merge.ts';

const SVC1_SPEC = {
  ports: [{ name: '80', protocol: 'TCP', port: 81, targetPort: 80 }],
  selector: { app: 'svc1' },
  clusterIP: '10.0.0.146',
  type: 'ClusterIP',
  sessionAffinity: 'None',
};

describe('twoWayMergePatch (strategicpatch CreateTwoWayMergePatch)', () => {
  it('sends only a changed scalar (testcase-edit-error-reedit 2.request)', () => {
    const edited = { ...SVC1_SPEC, clusterIP: '10.0.0.146.1' };
    expect(goJSON(twoWayMergePatch({ spec: SVC1_SPEC }, { spec: edited }, true))).toBe(
      '{"spec":{"clusterIP":"10.0.0.146.1"}}',
    );
  });

  it('a keyed list gets $setElementOrder, the new item and a delete directive (4.request)', () => {
    const edited = { ...SVC1_SPEC, ports: [{ name: '80', port: 82, protocol: 'TCP', targetPort: 80 }] };
    expect(goJSON(twoWayMergePatch({ spec: SVC1_SPEC }, { spec: edited }, true))).toBe(
      '{"spec":{"$setElementOrder/ports":[{"port":82}],"ports":[{"name":"80","port":82,"protocol":"TCP","targetPort":80},{"$patch":"delete","port":81}]}}',
    );
  });

  it('a changed item of a keyed list is sent with its key; a removed field is null', () => {
    const original = { spec: { containers: [{ name: 'nginx', image: 'nginx:1' }], paused: true } };
    const edited = { spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] } };
    expect(goJSON(twoWayMergePatch(original, edited, true))).toBe(
      '{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],"containers":[{"image":"nginx:2","name":"nginx"}],"paused":null}}',
    );
  });

  it('a JSON merge patch (custom resources) sends lists whole', () => {
    const original = { spec: { list: [{ name: 'a', v: 1 }] } };
    const edited = { spec: { list: [{ name: 'a', v: 2 }] } };
    expect(goJSON(twoWayMergePatch(original, edited, false))).toBe('{"spec":{"list":[{"name":"a","v":2}]}}');
  });

  it('nothing changed is an empty patch', () => {
    expect(twoWayMergePatch({ spec: SVC1_SPEC }, { spec: { ...SVC1_SPEC } }, true)).toEqual({});
  });
});

describe('withLastApplied (GetModifiedConfiguration of an unstructured object)', () => {
  it('records the object without the annotation itself, keys sorted, "annotations":{} kept (testcase-edit-output-patch)', () => {
    const OLD =
      '{"kind":"Service","apiVersion":"v1","metadata":{"name":"svc1","creationTimestamp":null,"labels":{"app":"svc1"}},"spec":{"ports":[{"name":"80","protocol":"TCP","port":80,"targetPort":80}],"selector":{"app":"svc1"},"type":"ClusterIP"},"status":{"loadBalancer":{}}}\n';
    const meta = {
      creationTimestamp: '2017-02-27T19:40:53Z',
      name: 'svc1',
      namespace: 'edit-test',
      resourceVersion: '670',
      selfLink: '/api/v1/namespaces/edit-test/services/svc1',
      uid: 'a6c11186-fd24-11e6-b53c-480fcf4a5275',
    };
    const spec = {
      clusterIP: '10.0.0.204',
      ports: [{ name: '80', port: 80, protocol: 'TCP', targetPort: 80 }],
      selector: { app: 'svc1' },
      sessionAffinity: 'None',
      type: 'ClusterIP',
    };
    const live = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': OLD },
        ...meta,
        labels: { app: 'svc1' },
      },
      spec,
      status: { loadBalancer: {} },
    };
    const edited = {
      ...live,
      metadata: { ...live.metadata, labels: { app: 'svc1', 'new-label': 'new-value' } },
    };
    const patch = twoWayMergePatch(live, withLastApplied(edited), true);
    expect(`Patch: ${goJSON(patch)}`).toBe(
      'Patch: {"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Service\\",\\"metadata\\":{\\"annotations\\":{},\\"creationTimestamp\\":\\"2017-02-27T19:40:53Z\\",\\"labels\\":{\\"app\\":\\"svc1\\",\\"new-label\\":\\"new-value\\"},\\"name\\":\\"svc1\\",\\"namespace\\":\\"edit-test\\",\\"resourceVersion\\":\\"670\\",\\"selfLink\\":\\"/api/v1/namespaces/edit-test/services/svc1\\",\\"uid\\":\\"a6c11186-fd24-11e6-b53c-480fcf4a5275\\"},\\"spec\\":{\\"clusterIP\\":\\"10.0.0.204\\",\\"ports\\":[{\\"name\\":\\"80\\",\\"port\\":80,\\"protocol\\":\\"TCP\\",\\"targetPort\\":80}],\\"selector\\":{\\"app\\":\\"svc1\\"},\\"sessionAffinity\\":\\"None\\",\\"type\\":\\"ClusterIP\\"},\\"status\\":{\\"loadBalancer\\":{}}}\\n"},"labels":{"new-label":"new-value"}}}',
    );
  });
});
