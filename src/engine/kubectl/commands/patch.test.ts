/**
 * kubectl patch on kinds without a status (ConfigMap, Secret, ServiceAccount, Endpoints,
 * EndpointSlice): the patched object gets no `status` field, so the server has no unknown field
 * to warn about and kubectl prints only its `patched` line (pkg/cmd/patch, printer operation).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { run, ok } from './cluster-test-helpers.ts';

describe('kubectl patch on kinds without a status', () => {
  const c = createCluster(undefined, { seed: 3 });
  run(c, 'kubectl create configmap x --from-literal=a=c');
  run(c, 'kubectl create secret generic s --from-literal=a=c');
  run(c, 'kubectl create service clusterip web --tcp=80');
  run(c, 'sleep 2');
  const slice = run(c, 'kubectl get endpointslices -l kubernetes.io/service-name=web -o name').stdout.trim();

  it.each([
    { line: `kubectl patch configmap x -p '{"data":{"a":"b"}}'`, out: 'configmap/x patched\n' },
    { line: `kubectl patch configmap x --type=merge -p '{"data":{"a":"d"}}'`, out: 'configmap/x patched\n' },
    {
      line: `kubectl patch configmap x --type=json -p '[{"op":"add","path":"/data/z","value":"1"}]'`,
      out: 'configmap/x patched\n',
    },
    { line: `kubectl patch secret s -p '{"stringData":{"a":"b"}}'`, out: 'secret/s patched\n' },
    {
      line: `kubectl patch -n kube-system serviceaccount coredns -p '{"automountServiceAccountToken":false}'`,
      out: 'serviceaccount/coredns patched\n',
    },
    {
      line: `kubectl patch endpoints kubernetes -p '{"metadata":{"labels":{"a":"b"}}}'`,
      out: 'endpoints/kubernetes patched\n',
    },
    {
      line: `kubectl patch ${slice} -p '{"metadata":{"labels":{"a":"b"}}}'`,
      out: `${slice} patched\n`,
    },
    {
      line: `kubectl patch namespace default -p '{"metadata":{"labels":{"a":"b"}}}'`,
      out: 'namespace/default patched\n',
    },
  ])('$line', ({ line, out }) => {
    expect(run(c, line)).toEqual(ok(out));
  });

  it('the stored ConfigMap has no status', () => {
    expect(JSON.parse(run(c, 'kubectl get configmap x -o json').stdout)).not.toHaveProperty('status');
  });
});
