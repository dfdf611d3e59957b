/**
 * Whatever a learner types, kubectl answers like a program: never an exception, exit code 0 or 1
 * (exec may pass a command's own code through; no pod exists here), text on stdout or stderr.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { makeKubectl } from './test-helpers.ts';

const words = [
  'get',
  'describe',
  'apply',
  'create',
  'delete',
  'run',
  'exec',
  'logs',
  'scale',
  'label',
  'annotate',
  'expose',
  'rollout',
  'status',
  'restart',
  'undo',
  'history',
  'port-forward',
  'explain',
  'api-resources',
  'version',
  'cluster-info',
  'config',
  'wait',
  'top',
  'debug',
  'auth',
  'can-i',
  'deployment',
  'service',
  'clusterip',
  'nodeport',
  'configmap',
  'namespace',
  'pods',
  'po',
  'svc',
  'deploy/web',
  'pod/web',
  'node/kind-worker',
  'web',
  'all',
  'netpol',
  'ep',
  'endpointslices',
  'ing',
  'gateways',
  'httproutes',
  '-n',
  'kube-system',
  '-A',
  '-o',
  'yaml',
  'json',
  'wide',
  'name',
  'jsonpath={.items[*].metadata.name}',
  'custom-columns=N:.metadata.name',
  '-l',
  'app=web',
  '--image=nginx',
  '--replicas=3',
  '--port=80',
  '--tcp=80:8080',
  '-f',
  'web.yaml',
  '-',
  '--dry-run=client',
  '--',
  'sh',
  '-it',
  '--rm',
  '--for=condition=Ready',
  '--timeout=1s',
  '--overwrite',
  'app-',
  '--all',
  '--force',
  '--grace-period=0',
  '-w',
  '--show-labels',
  '--no-headers',
  '--help',
  '-h',
  '8080:80',
  '--to-revision=1',
  'patch',
  'set',
  'image',
  'env',
  'selector',
  'resources',
  'edit',
  '-p',
  '{"spec":{"replicas":2}}',
  '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}',
  '[{"op":"remove","path":"/spec/replicas"}]',
  '[{"op":"test","path":"/x","value":1}]',
  'spec: {replicas: x}',
  '--type=json',
  '--type=merge',
  '--subresource=scale',
  '--subresource=status',
  '--patch-file=web.yaml',
  '--local',
  'web=nginx:1.27',
  '*=busybox',
  'KEY=v',
  'KEY-',
  '--list',
  '--limits=cpu=200m,memory=64Mi',
  '--requests=cpu=x',
  '--field-selector',
  'status.phase=Running',
  'metadata.name!=web,spec.nodeName=',
  'foo=bar',
  '--profile=sysadmin',
  '--image=busybox',
  '--previous',
  '-c',
  '',
];

describe('random command lines', () => {
  it('never throw and always answer with an exit code and text', () => {
    const internal: unknown[] = [];
    const k = makeKubectl({
      hooks: { onInternalError: (e) => internal.push(e) },
      files: {
        'web.yaml':
          'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n',
      },
    });
    k.run('create deployment web --image=nginx');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 12 })), { maxLength: 8 }),
        fc.string({ maxLength: 40 }),
        (argv, stdin) => {
          const r = k.run(argv.map((a) => `'${a.replace(/'/g, '')}'`).join(' '), { stdin });
          expect([0, 1]).toContain(r.exitCode);
          expect(typeof r.stdout).toBe('string');
          expect(typeof r.stderr).toBe('string');
          // A parent command alone (`kubectl top`) prints its help on stdout and exits 1, like the real one.
          if (r.exitCode === 1) expect(r.stdout.length + r.stderr.length).toBeGreaterThan(0);
          expect(internal).toEqual([]);
        },
      ),
      { numRuns: 800, seed: 20260101 },
    );
  });
});
