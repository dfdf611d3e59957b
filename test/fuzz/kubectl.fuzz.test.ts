/**
 * Fuzz: kubectl invocations built from its grammar — verb × resource type × name × flags × values —
 * against a kubectl with objects of every common kind. Internal errors are caught by the hook (a
 * failure the command did not mean), and every rejection must read like kubectl's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeKubectl } from '../../src/engine/kubectl/test-helpers.ts';
import { params } from './harness.ts';
import { expectToolLike } from './oracle.ts';

const VERBS = [
  'get',
  'describe',
  'delete',
  'create',
  'apply',
  'run',
  'expose',
  'scale',
  'label',
  'annotate',
  'patch',
  'edit',
  'logs',
  'exec',
  'rollout status',
  'rollout restart',
  'rollout undo',
  'rollout history',
  'wait',
  'explain',
  'port-forward',
  'set image',
  'autoscale',
  'top pod',
  'create deployment',
  'create service clusterip',
  'create service nodeport',
  'create configmap',
  'create secret generic',
  'create namespace',
  'create ingress',
  'debug',
  'cp',
  'auth can-i',
  'config view',
  'api-resources',
  'version',
];
const TYPES = [
  'pods',
  'po',
  'pod',
  'deployments',
  'deploy',
  'services',
  'svc',
  'endpoints',
  'endpointslices',
  'networkpolicies',
  'netpol',
  'configmaps',
  'cm',
  'nodes',
  'namespaces',
  'ingress',
  'ingressclasses',
  'gateways',
  'httproutes',
  'daemonsets',
  'replicasets',
  'all',
  'events',
  'pod/web',
  'deploy/web',
  'svc/web',
  'pods,svc',
  'Pod.v1',
  'deployments.apps',
  'nosuchtype',
];
const NAMES = ['web', 'web-abc', 'missing', 'kube-system', 'WEB', 'a.b', '-', "''", '""', 'x'.repeat(300)];
const FLAGS = [
  '-n',
  '--namespace',
  '-A',
  '-o',
  '--output',
  '-l',
  '--selector',
  '--field-selector',
  '-f',
  '--image',
  '--port',
  '--target-port',
  '--type',
  '--replicas',
  '--timeout',
  '--for',
  '--dry-run',
  '--overwrite',
  '--all',
  '--force',
  '--grace-period',
  '--show-labels',
  '-L',
  '--sort-by',
  '-w',
  '--watch',
  '--no-headers',
  '--tail',
  '--previous',
  '-c',
  '--container',
  '-p',
  '--type=merge',
  '--from-literal',
  '--tcp',
  '--rule',
  '--class',
  '--to-revision',
  '--recursive',
  '--raw',
  '-h',
  '--help',
  '--',
  '--unknown-flag',
  '-Z',
];
const VALUES = [
  'yaml',
  'json',
  'wide',
  'name',
  'jsonpath={.items[*].metadata.name}',
  'jsonpath={.metadata.labels.app\\.kubernetes\\.io/name}',
  'jsonpath={',
  'jsonpath={range .items[*]}{.metadata.name}{"\\n"}{end}',
  'go-template={{.metadata.name}}',
  'custom-columns=N:.metadata.name,IP:.status.podIP',
  'custom-columns=',
  'app=web',
  'app in (web,api)',
  'app!=',
  '!app',
  'status.phase=Running',
  'metadata.name=web',
  '80',
  '0',
  '-1',
  '65536',
  '8080:80',
  'abc',
  '1s',
  '0s',
  '-5s',
  '1000h',
  'condition=Ready',
  'condition=Available',
  'delete',
  'jsonpath={.status.phase}=Running',
  'client',
  'server',
  'none',
  '{"spec":{"replicas":2}}',
  '{"spec":',
  '[{"op":"replace","path":"/spec/replicas","value":3}]',
  'nginx',
  'nginx:1.27',
  'NodePort',
  'LoadBalancer',
  'ExternalName',
  'web.yaml',
  'missing.yaml',
  '-',
  'web=nginx:1.28',
  'k=v',
  '.metadata.name',
  '{.metadata.name}',
  '99999999999999999999',
  '1e309',
  '',
];

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]}
`;

const flagArg = fc.oneof(
  fc.tuple(fc.constantFrom(...FLAGS), fc.constantFrom(...VALUES)).map(([f, v]) => [f, v]),
  fc.tuple(fc.constantFrom(...FLAGS), fc.constantFrom(...VALUES)).map(([f, v]) => [`${f}=${v}`]),
  fc.constantFrom(...FLAGS).map((f) => [f]),
);

const argv = fc
  .tuple(
    fc.constantFrom(...VERBS),
    fc.option(fc.constantFrom(...TYPES), { nil: undefined }),
    fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
    fc.array(flagArg, { maxLength: 5 }),
    fc.option(
      fc.array(fc.constantFrom('sh', '-c', 'echo hi', 'cat', '/etc/hostname', 'curl', '-m', '1'), {
        maxLength: 3,
      }),
      { nil: undefined },
    ),
  )
  .chain(([verb, type, name, flags, cmd]) => {
    const words = [...verb.split(' '), ...(type ? [type] : []), ...(name ? [name] : []), ...flags.flat()];
    // Flags may come anywhere before `--`, as cobra allows.
    return fc
      .shuffledSubarray(words, { minLength: words.length, maxLength: words.length })
      .map((w) => [...w, ...(cmd ? ['--', ...cmd] : [])]);
  });

describe('fuzz: kubectl argv', { timeout: 600_000 }, () => {
  it('grammar-aware invocations: no internal error, kubectl-worded rejections', () => {
    const internal: unknown[] = [];
    const k = makeKubectl({
      hooks: { onInternalError: (e) => internal.push(e) },
      files: { 'web.yaml': WEB },
    });
    k.run('apply -f web.yaml');
    k.run('expose deploy web --port=80');
    k.run('create configmap cm --from-literal=a=b');
    fc.assert(
      fc.property(argv, (words) => {
        const line = words.map((w) => `'${w.replace(/'/g, '')}'`).join(' ');
        const r = k.run(line, { stdin: WEB });
        expectToolLike(r, line);
        expect(internal).toEqual([]);
      }),
      params('kubectl-argv', 1000),
    );
  });
});
