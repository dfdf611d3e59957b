/**
 * The ServiceAccount admission plugin's lookup (plugin/pkg/admission/serviceaccount/admission.go
 * `Admit`: `admission.NewForbidden(a, fmt.Errorf("error looking up service account %s/%s: %w", …))`
 * around `serviceaccount "<name>" not found`), enforced once the namespace has its `default`
 * ServiceAccount; and the ReplicaSet controller's `FailedCreate` event for the refused pods
 * (controller_utils `CreatePodsWithGenerateName`: `Error creating: %v`).
 */
import { describe, expect, it } from 'vitest';
import type { Manifest, Pod } from '../api/objects.ts';
import { createCluster } from '../cluster/cluster.ts';
import { makeServer, thrown } from './test-helpers.ts';

const sa = (namespace: string, name: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace },
});

const serviceAccountOf = (o: unknown) => (o as Pod).spec?.serviceAccountName;

const pod = (name: string, namespace: string, serviceAccountName?: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: {
    containers: [{ name: 'c', image: 'nginx' }],
    ...(serviceAccountName ? { serviceAccountName } : {}),
  },
});

describe('ServiceAccount admission', () => {
  it('refuses a pod whose ServiceAccount does not exist, once the namespace has its default one', () => {
    const { api } = makeServer();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } });
    api.create(sa('app', 'default'));
    const e = thrown(() => api.create(pod('sa-test', 'app', 'nope')));
    expect(e.message).toBe(
      'pods "sa-test" is forbidden: error looking up service account app/nope: serviceaccount "nope" not found',
    );
    expect(api.get('pods', 'app', 'sa-test')).toBeUndefined();
    api.create(sa('app', 'nope'));
    expect(serviceAccountOf(api.create(pod('sa-test', 'app', 'nope')))).toBe('nope');
    expect(serviceAccountOf(api.create(pod('plain', 'app')))).toBe('default');
  });

  it('a generateName pod is named by its prefix', () => {
    const { api } = makeServer();
    api.create(sa('default', 'default'));
    const p = pod('', 'default', 'mysa');
    const e = thrown(() =>
      api.create({ ...p, metadata: { generateName: 'w3-6d4f5c-', namespace: 'default' } }),
    );
    expect(e.message).toBe(
      'pods "w3-6d4f5c-" is forbidden: error looking up service account default/mysa: serviceaccount "mysa" not found',
    );
  });

  it('is not enforced in a namespace without its default ServiceAccount yet', () => {
    const { api } = makeServer();
    expect(serviceAccountOf(api.create(pod('p', 'default', 'nope')))).toBe('nope');
  });
});

describe('kubectl against a cluster (the serviceaccount controller makes the default ones)', () => {
  it('kubectl run with a missing ServiceAccount is Forbidden', () => {
    const c = createCluster(undefined, { seed: 1 });
    expect(
      c.execSync(`kubectl run sa-test --image=nginx --overrides='{"spec":{"serviceAccountName":"nope"}}'`),
    ).toEqual({
      stdout: '',
      stderr:
        'Error from server (Forbidden): pods "sa-test" is forbidden: error looking up service account default/nope: serviceaccount "nope" not found\n',
      exitCode: 1,
    });
  });

  it('set serviceaccount to a missing account: the new ReplicaSet stays at 0 with FailedCreate', () => {
    const c = createCluster(undefined, { seed: 1 });
    c.execSync('kubectl create deployment w3 --image=nginx');
    for (let i = 0; i < 10; i++) c.tick(1000);
    c.execSync('kubectl set sa deploy w3 mysa');
    for (let i = 0; i < 10; i++) c.tick(1000);
    const rs = c.execSync(
      `kubectl get rs -o jsonpath='{range .items[*]}{.metadata.name}={.status.replicas}{"\\n"}{end}'`,
    ).stdout;
    const lines = rs.trim().split('\n');
    expect(lines).toHaveLength(2);
    const events = c.execSync(
      'kubectl get events --field-selector reason=FailedCreate -o jsonpath={.items[*].message}',
    );
    expect(events.stdout).toMatch(
      /^Error creating: pods "w3-[a-z0-9]+-" is forbidden: error looking up service account default\/mysa: serviceaccount "mysa" not found/,
    );
    const stuck = events.stdout.match(/pods "(w3-[a-z0-9]+)-"/)![1]!;
    expect(lines).toContain(`${stuck}=0`);
    expect(c.execSync('kubectl get pods -o jsonpath={.items[*].spec.serviceAccountName}').stdout).toBe(
      'default',
    );
  });
});
