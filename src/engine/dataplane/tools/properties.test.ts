import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scenario } from '../network/test-helpers.ts';
import { HOST_TOOLS, NODE_TOOLS, POD_TOOLS } from './register.ts';
import { hostToolContext, nodeToolContext, podToolContext } from './tool-context.ts';
import { resolveImage } from '../../node/images.ts';

const cluster = scenario('calico', 'iptables', 61);

const word = fc.oneof(
  fc.constantFrom(
    '-v',
    '-s',
    '-S',
    '-m',
    '0',
    '1',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-I',
    '-X',
    'POST',
    '-d',
    'a=b',
    '-k',
    '-L',
    '-qO-',
    '-T',
    '--spider',
    '-z',
    '-u',
    '-l',
    '-c',
    '-W',
    '-type=SRV',
    '-debug',
    '+short',
    '+search',
    '@10.96.0.10',
    '-x',
    'addr',
    'route',
    'link',
    'show',
    '-tlnp',
    '-t',
    'nat',
    '-S',
    '-L',
    '-Ln',
    'list',
    'table',
    'ip',
    'kube-proxy',
    'pods',
    'ps',
    'inspectp',
    'fdb',
    'net.ipv4.ip_forward',
    'server',
    'echo',
    'echo.default',
    'http://server/x',
    'https://kubernetes.default',
    '10.96.0.10',
    '80',
    '8080',
    '53',
    'httpbin.org',
    'nope',
    '',
    '--',
    ':',
    '%',
  ),
  fc.string({ maxLength: 8 }),
);

describe('no tool invocation throws', () => {
  const pod = cluster.store.get('pods', 'default', 'netshoot')!;
  const image = resolveImage(pod.spec!.containers[0]!.image!);
  if (image.kind !== 'ok') throw new Error('netshoot image');
  const contexts = [
    ...[...POD_TOOLS].map(
      ([name, f]) => [name, f(podToolContext(cluster, pod, 'main', image.profile))] as const,
    ),
    ...[...NODE_TOOLS].map(([name, f]) => [name, f(nodeToolContext(cluster, 'kind-worker'))] as const),
    ...[...HOST_TOOLS].map(([name, f]) => [name, f(hostToolContext(cluster))] as const),
  ];

  it('for random argument vectors in pods, on nodes and on the host', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: contexts.length - 1 }),
        fc.array(word, { maxLength: 6 }),
        (i, args) => {
          const [name, handler] = contexts[i]!;
          const r = handler([name, ...args], {
            stdin: '',
            env: {},
            context: { kind: 'host' },
            interactive: false,
          });
          expect(typeof r.stdout).toBe('string');
          expect(typeof r.stderr).toBe('string');
          expect(Number.isInteger(r.exitCode)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
