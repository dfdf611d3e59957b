/**
 * `--field-selector` as kube-apiserver evaluates it. Supported fields per kind: pkg/apis/core/v1
 * conversion.go (`AddFieldLabelConversionFunc`); errors: apimachinery `field label not supported: %s`,
 * `runtime.DefaultMetaV1FieldSelectorConversion`, reworded by cli-runtime's selector visitor
 * (`Unable to find %q that match label selector %q, field selector %q: %v`).
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl, type TestKubectl } from './test-helpers.ts';
import { parseFieldSelector } from './field-selector.ts';

function pod(k: TestKubectl, name: string, node: string, phase: string, extra: Record<string, unknown> = {}) {
  k.put({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'nginx' }], nodeName: node, ...extra },
    status: { phase, podIP: `10.244.0.${name.length}` },
  });
}

function cluster(): TestKubectl {
  const k = makeKubectl();
  pod(k, 'a', 'kind-worker', 'Running');
  pod(k, 'bb', 'kind-worker2', 'Running', { hostNetwork: true });
  pod(k, 'ccc', 'kind-worker', 'Pending');
  pod(k, 'dddd', 'kind-worker2', 'Failed', { restartPolicy: 'Never' });
  return k;
}

describe('kubectl --field-selector', () => {
  it.each([
    { name: 'one field', sel: 'spec.nodeName=kind-worker', want: 'pod/a\npod/ccc\n' },
    { name: '== is =', sel: 'status.phase==Running', want: 'pod/a\npod/bb\n' },
    { name: '!=', sel: 'status.phase!=Running', want: 'pod/ccc\npod/dddd\n' },
    { name: 'comma is AND', sel: 'spec.nodeName=kind-worker,status.phase=Running', want: 'pod/a\n' },
    { name: 'metadata.name', sel: 'metadata.name=bb', want: 'pod/bb\n' },
    { name: 'defaulted restartPolicy', sel: 'spec.restartPolicy=Always', want: 'pod/a\npod/bb\npod/ccc\n' },
    { name: 'hostNetwork as text', sel: 'spec.hostNetwork=true', want: 'pod/bb\n' },
    { name: 'podIP', sel: 'status.podIP=10.244.0.4', want: 'pod/dddd\n' },
  ])('get pods: $name', ({ sel, want }) => {
    const { shows, ...r } = cluster().run(`get pods --field-selector ${sel} -o name`);
    expect(r).toEqual({ stdout: want, stderr: '', exitCode: 0 });
    // What the terminal is told it showed: the pods printed, no more.
    expect(shows?.sightings.flatMap((s) => s.names.map((n) => `pod/${n}\n`)).join('')).toBe(want);
  });

  it('prints "No resources found" when nothing matches', () => {
    const { shows, ...r } = cluster().run('get pods --field-selector status.phase=Succeeded');
    expect(r).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    expect(shows).toEqual({
      stream: 'stderr',
      sightings: [{ resource: 'pods', namespace: 'default', names: [] }],
    });
  });

  it('rejects a field the kind does not support with the server error', () => {
    expect(cluster().run('get pods --field-selector foo=bar')).toEqual({
      stdout: '',
      stderr:
        'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", field selector "foo=bar": field label not supported: foo\n',
      exitCode: 1,
    });
    expect(cluster().run('get deploy -l app=web --field-selector spec.replicas=1').stderr).toBe(
      'Error from server (BadRequest): Unable to find "apps/v1, Resource=deployments" that match label selector "app=web", field selector "spec.replicas=1": "spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"\n',
    );
    // Nodes have no namespace field.
    expect(cluster().run('get nodes --field-selector metadata.namespace=x').stderr).toContain(
      'field label not supported: metadata.namespace\n',
    );
  });

  it('rejects a term without an operator', () => {
    expect(cluster().run('get pods --field-selector foo').stderr).toBe(
      `Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", field selector "foo": invalid selector: 'foo'; can't understand 'foo'\n`,
    );
  });

  it('cannot be combined with names', () => {
    expect(cluster().run('get pods a --field-selector status.phase=Running').stderr).toBe(
      'error: name cannot be provided when a selector is specified\n',
    );
  });

  it('delete by field selector deletes only the matching pods', () => {
    const k = cluster();
    const r = k.run('delete pods --field-selector status.phase=Failed --wait=false');
    expect(r.stdout).toBe('pod "dddd" deleted from default namespace\n');
    // No kubelet runs here: the deleted pod stays, marked for deletion; the others are untouched.
    const marked = k.host.store.list('pods', 'default').filter((p) => p.metadata.deletionTimestamp);
    expect(marked.map((p) => p.metadata.name)).toEqual(['dddd']);
  });

  it('parses escapes and empty values like fields.ParseSelector', () => {
    expect(parseFieldSelector('a=b\\,c,d!=')).toEqual([
      { field: 'a', op: '=', value: 'b,c' },
      { field: 'd', op: '!=', value: '' },
    ]);
  });
});
