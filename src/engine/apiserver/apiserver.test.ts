import { describe, it, expect } from 'vitest';
import { StatusError } from '../api/errors.ts';
import type { AnyObject } from '../api/objects.ts';
import { makeServer, thrown } from './test-helpers.ts';

const cm = (name: string, namespace?: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(namespace ? { namespace } : {}) },
  ...extra,
});
const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

describe('ApiServer', () => {
  // Reading spec fields without a cast is the type test (`npm run check` fails if a write gives back
  // AnyObject, whose spec is unknown); the expectations check the fields are the stored object's.
  it("types a write by the manifest's kind", () => {
    const { api } = makeServer();
    const created = api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
    });
    expect(created.spec?.containers[0]?.name).toBe('nginx');
    expect(created.spec?.restartPolicy).toBe('Always');
    const relabelled = api.update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(relabelled.metadata.labels).toEqual({ a: 'b' });
    expect(relabelled.spec?.containers.map((c) => c.image)).toEqual(['nginx']);
    const svc = api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { ports: [{ port: 80 }] },
    });
    expect(svc.spec?.ports?.[0]?.protocol).toBe('TCP');
    // A kind known only at run time (a manifest a learner typed) is any stored object.
    const typed: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    const any: AnyObject = api.create(typed);
    expect(any.kind).toBe('ConfigMap');
  });

  // Golden: NamespaceLifecycle admission + apimachinery NewNotFound; kubectl prints
  // `Error from server (NotFound): namespaces "x" not found`.
  it('refuses objects in a missing namespace', () => {
    const { api } = makeServer();
    const e = thrown(() => api.create(cm('a', 'shop'))) as StatusError;
    expect(e.reason).toBe('NotFound');
    expect(e.message).toBe('namespaces "shop" not found');
  });

  it('puts namespaced objects in default and drops the namespace of cluster-scoped ones', () => {
    const { api } = makeServer();
    expect(api.create(cm('a')).metadata.namespace).toBe('default');
    const ns = api.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', namespace: 'default' },
    });
    expect(ns.metadata.namespace).toBeUndefined();
  });

  // Golden: NamespaceLifecycle `immortalNamespaces`; kubectl prints
  // `Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted`.
  it.each(['default', 'kube-system', 'kube-public', 'kube-node-lease'])(
    'cannot delete namespace %s',
    (name) => {
      const { api } = makeServer();
      const e = thrown(() => api.delete('namespaces', undefined, name)) as StatusError;
      expect(e.reason).toBe('Forbidden');
      expect(e.code).toBe(403);
      expect(e.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    },
  );

  // Golden: namespace REST Delete (deletionTimestamp + phase Terminating while the `kubernetes`
  // finalizer is present) and NamespaceLifecycle's refusal of new content.
  it('turns other namespaces Terminating and refuses new content in them', () => {
    const { api } = makeServer();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    const marked = api.delete('namespaces', undefined, 'shop');
    expect(marked.metadata.deletionTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(marked.status).toEqual({ phase: 'Terminating' });
    const e = thrown(() => api.create(cm('a', 'shop'))) as StatusError;
    expect(e.reason).toBe('Forbidden');
    expect(e.message).toBe(
      'configmaps "a" is forbidden: unable to create new content in namespace shop because it is being terminated',
    );
  });

  // Golden: apiserver rest.BeforeCreate ("resourceVersion should not be set on objects to be created"),
  // what `kubectl create -f` of a `kubectl get -o yaml` dump answers.
  it('refuses a resourceVersion on create', () => {
    const { api } = makeServer();
    const e = thrown(() =>
      api.create(cm('a', undefined, { metadata: { name: 'a', resourceVersion: '42' } })),
    ) as StatusError;
    expect(e.reason).toBe('BadRequest');
    expect(e.message).toBe('resourceVersion should not be set on objects to be created');
  });

  it('runs every step but storage under dryRun', () => {
    const { api } = makeServer();
    const svc = api.create(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { ports: [{ port: 80 }], selector: { app: 'web' } },
      },
      { dryRun: true },
    );
    expect(svc.spec).toMatchObject({ type: 'ClusterIP' });
    expect(api.get('services', 'default', 'web')).toBeUndefined();
    expect(() => thrown(() => api.create(cm('Bad'), { dryRun: true }))).not.toThrow();
  });

  it('passes warnings for unknown fields under Warn', () => {
    const { api } = makeServer();
    const warnings: string[] = [];
    api.create(cm('a', undefined, { datta: { k: 'v' } }), { fieldValidation: 'Warn', warnings });
    expect(warnings).toEqual(['unknown field "datta"']);
  });

  it('keeps the stored status on update and answers NotFound for a missing object', () => {
    const { api } = makeServer();
    const created = api.create(pod('p'));
    const next = structuredClone(created) as typeof created & { status: unknown };
    next.status = { phase: 'Running' };
    expect(api.update(next).status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect((thrown(() => api.update(cm('nope'))) as StatusError).message).toBe('configmaps "nope" not found');
  });

  it('names generated objects from generateName', () => {
    const { api } = makeServer();
    const made = api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'web-' } });
    expect(made.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('marks a scheduled pod Terminating instead of removing it', () => {
    const { api } = makeServer();
    const created = api.create(pod('p'));
    const bound = structuredClone(created) as typeof created & { spec: { nodeName?: string } };
    bound.spec.nodeName = 'kind-worker';
    api.update(bound);
    const marked = api.delete('pods', 'default', 'p');
    expect(marked.metadata.deletionTimestamp).toBe('2026-01-01T00:00:30Z');
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(api.get('pods', 'default', 'p')).toBeDefined();
    api.delete('pods', 'default', 'p', { gracePeriodSeconds: 0 });
    expect(api.get('pods', 'default', 'p')).toBeUndefined();
  });

  it('gives new Deployments and Services their initial status', () => {
    const { api } = makeServer();
    const svc = api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 80 }] },
      status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
    });
    expect(svc.status).toEqual({ loadBalancer: {} });
    const gw = api.create({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name: 'gw' },
      spec: { gatewayClassName: 'eg', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
    });
    // Golden: Gateway API standard CRD gateways.yaml status default.
    expect(gw.status).toEqual({
      conditions: [
        {
          lastTransitionTime: '1970-01-01T00:00:00Z',
          message: 'Waiting for controller',
          reason: 'Pending',
          status: 'Unknown',
          type: 'Accepted',
        },
        {
          lastTransitionTime: '1970-01-01T00:00:00Z',
          message: 'Waiting for controller',
          reason: 'Pending',
          status: 'Unknown',
          type: 'Programmed',
        },
      ],
    });
  });

  it('refuses an unknown PriorityClass as the Priority admission plugin does', () => {
    const { api } = makeServer();
    const p = { ...pod('p'), spec: { priorityClassName: 'gold', containers: [{ name: 'c', image: 'i' }] } };
    expect(thrown(() => api.create(p)).message).toBe(
      'pods "p" is forbidden: no PriorityClass with name gold was found',
    );
  });
});
