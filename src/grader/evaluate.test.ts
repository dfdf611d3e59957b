import { describe, expect, it } from 'vitest';
import { checkTitle } from './check-title.ts';
import { evaluateChecks } from './evaluate.ts';
import { formatMessage } from './messages/format.ts';
import { dataplaneProbes, hopMessage, type TrafficProbes } from './probes.ts';
import type { ConnectRequest } from './engine-api.ts';
import type { CheckResult } from './result.ts';
import { FakeCluster, fakeEngine, labWith, makePod, makeService, makeSlice } from './test-helpers.ts';

function run(
  checksYaml: string,
  setup: (c: FakeCluster) => void = () => {},
  ctx = {},
  probes?: TrafficProbes,
): CheckResult[] {
  const loaded = labWith(checksYaml);
  const cluster = fakeEngine.createCluster(undefined, { seed: 1, files: {} });
  setup(cluster);
  return evaluateChecks(
    loaded,
    cluster,
    { history: [], ...ctx },
    { engine: fakeEngine, revealHidden: true, ...(probes ? { probes } : {}) },
  );
}

function en(r: CheckResult): { status: string; expected: string; observed: string; hop?: string } {
  return {
    status: r.status,
    expected: formatMessage('en', r.expected),
    observed: formatMessage('en', r.observed),
    ...(r.hop ? { hop: formatMessage('en', r.hop) } : {}),
  };
}

const T = `title: { pt-BR: t, en: t }`;

describe('resource checks', () => {
  it('finds an object by name, in the default namespace when none is given', () => {
    const [a, b] = run(
      `  - { id: a, ${T}, type: resource, resource: svc, name: web }
  - { id: b, ${T}, type: resource, resource: deploy, namespace: shop, name: api, exists: false }`,
      (c) => c.add('services', makeService('default', 'web')),
    );
    expect(en(a!)).toEqual({
      status: 'pass',
      expected: 'Service default/web exists',
      observed: 'Service default/web exists',
    });
    expect(en(b!)).toEqual({
      status: 'pass',
      expected: 'Deployment shop/api does not exist',
      observed: 'Deployment shop/api does not exist',
    });
  });

  it('counts objects matching a selector', () => {
    const [r] = run(
      `  - { id: a, ${T}, type: resource, resource: pods, namespace: shop, selector: app=api, count: { min: 3 } }`,
      (c) => {
        c.add('pods', makePod('shop', 'api-1', { labels: { app: 'api' } }));
        c.add('pods', makePod('shop', 'api-2', { labels: { app: 'api' } }));
        c.add('pods', makePod('shop', 'web-1', { labels: { app: 'web' } }));
      },
    );
    expect(en(r!)).toEqual({
      status: 'fail',
      expected: 'pods: at least 3 in namespace shop matching app=api',
      observed: 'there are 2: shop/api-1, shop/api-2',
    });
  });

  it('treats cluster-scoped kinds without a namespace', () => {
    const [r] = run(
      `  - { id: a, ${T}, type: resource, resource: ns, name: shop, namespace: ignored }`,
      (c) => c.add('namespaces', { metadata: { name: 'shop' } }),
    );
    expect(en(r!)).toMatchObject({ status: 'pass', expected: 'Namespace shop exists' });
  });

  it('is an error, not a fail, for a resource type the simulator lacks', () => {
    const [r] = run(`  - { id: a, ${T}, type: resource, resource: widgets, name: x }`);
    expect(r!.status).toBe('error');
    expect(en(r!).observed).toBe("the lab's check is invalid: the simulator has no resource type widgets");
  });
});

describe('field checks', () => {
  const svc = (c: FakeCluster) => c.add('services', { ...makeService('shop', 'api', { app: 'api' }) });
  it.each([
    { name: 'number equals', yaml: `path: '.spec.ports[0].port', equals: 80`, status: 'pass' },
    {
      name: 'string equals a number as text',
      yaml: `path: '{.spec.ports[0].port}', equals: "80"`,
      status: 'pass',
    },
    { name: 'wrong value', yaml: `path: '.spec.ports[0].port', equals: 8080`, status: 'fail' },
    { name: 'object equals', yaml: 'path: .spec.selector, equals: { app: api }', status: 'pass' },
    { name: 'matches', yaml: `path: .spec.clusterIP, matches: '^10\\.96\\.'`, status: 'pass' },
    { name: 'missing field', yaml: 'path: .spec.type, equals: NodePort', status: 'fail' },
    { name: 'list of values', yaml: `path: '{.spec.ports[*].protocol}', equals: TCP`, status: 'pass' },
  ])('$name', ({ yaml, status }) => {
    const [r] = run(
      `  - { id: a, ${T}, type: field, resource: svc, namespace: shop, name: api, ${yaml} }`,
      svc,
    );
    expect(r!.status).toBe(status);
  });

  it('says what it found', () => {
    const [r] = run(
      `  - { id: a, ${T}, type: field, resource: svc, namespace: shop, name: api, path: .spec.type, equals: NodePort }`,
      svc,
    );
    expect(en(r!)).toEqual({
      status: 'fail',
      expected: '.spec.type of Service shop/api is NodePort',
      observed: 'the field is not set',
    });
    const [m] = run(
      `  - { id: a, ${T}, type: field, resource: svc, namespace: shop, name: gone, path: .spec.type, equals: X }`,
      svc,
    );
    expect(en(m!).observed).toBe('Service shop/gone does not exist');
  });

  it('reports a broken JSONPath as an error', () => {
    const [r] = run(
      `  - { id: a, ${T}, type: field, resource: svc, namespace: shop, name: api, path: '{.spec[', equals: 1 }`,
      svc,
    );
    expect(r!.status).toBe('error');
  });
});

describe('endpoints checks', () => {
  const check = `  - { id: a, ${T}, type: endpoints, namespace: shop, service: api, minReady: 2 }`;

  it('explains a selector that matches no pod', () => {
    const [r] = run(check, (c) => {
      c.add('services', makeService('shop', 'api', { app: 'api' }));
      c.add('pods', makePod('shop', 'web-1', { labels: { app: 'web' } }));
    });
    expect(en(r!)).toEqual({
      status: 'fail',
      expected: 'Service shop/api has at least 2 ready endpoints',
      observed: 'it has 0: the selector app=api matches no pod',
    });
  });

  it('points at pods in another namespace', () => {
    const [r] = run(check, (c) => {
      c.add('services', makeService('shop', 'api', { app: 'api' }));
      c.add('pods', makePod('default', 'api-1', { labels: { app: 'api' } }));
    });
    expect(en(r!).observed).toBe(
      'it has 0: the selector app=api matches no pod in shop (it matches pods in default)',
    );
  });

  it('explains pods that are not ready', () => {
    const [r] = run(check, (c) => {
      c.add('services', makeService('shop', 'api', { app: 'api' }));
      c.add('pods', makePod('shop', 'api-1', { labels: { app: 'api' }, ip: '10.244.1.5' }));
      c.add('pods', makePod('shop', 'api-2', { labels: { app: 'api' }, ip: '10.244.2.7', ready: false }));
      c.add(
        'endpointslices.discovery.k8s.io',
        makeSlice('shop', 'api', [{ ip: '10.244.1.5' }, { ip: '10.244.2.7', ready: false }]),
      );
    });
    expect(en(r!).observed).toBe('it has 1: 2 pods match app=api, 1 ready');
  });

  it('explains a Service without selector', () => {
    const [r] = run(check, (c) => c.add('services', makeService('shop', 'api')));
    expect(en(r!).observed).toBe(
      'it has 0: the Service has no selector, so no EndpointSlice is managed for it',
    );
  });

  it('passes with enough ready endpoints (unset ready counts as ready) and lists them', () => {
    const [r] = run(check, (c) => {
      c.add('services', makeService('shop', 'api', { app: 'api' }));
      c.add(
        'endpointslices.discovery.k8s.io',
        makeSlice('shop', 'api', [{ ip: '10.244.2.7' }, { ip: '10.244.1.5', ready: true }]),
      );
    });
    expect(en(r!)).toEqual({
      status: 'pass',
      expected: 'Service shop/api has at least 2 ready endpoints',
      observed: 'it has 2: 10.244.1.5, 10.244.2.7',
    });
  });

  it('fails when the Service is missing', () => {
    const [r] = run(check);
    expect(en(r!).observed).toBe('Service shop/api does not exist');
  });

  it('honours maxReady', () => {
    const [r] = run(
      `  - { id: a, ${T}, type: endpoints, namespace: shop, service: api, minReady: 0, maxReady: 0 }`,
      (c) => {
        c.add('services', makeService('shop', 'api', { app: 'api' }));
        c.add('endpointslices.discovery.k8s.io', makeSlice('shop', 'api', [{ ip: '10.244.2.7' }]));
      },
    );
    expect(en(r!)).toEqual({
      status: 'fail',
      expected: 'Service shop/api has at most 0 ready endpoints',
      observed: 'it has 1: 10.244.2.7',
    });
  });
});

describe('reachability and DNS checks', () => {
  const client = (c: FakeCluster) =>
    c.add('pods', makePod('shop', 'client', { labels: { app: 'client' }, ip: '10.244.1.9' }));
  const probes = (
    reach: ReturnType<TrafficProbes['reach']>,
    lookup: ReturnType<TrafficProbes['lookup']> = { addresses: [], queries: 0 },
  ): TrafficProbes => ({
    reach: () => reach,
    lookup: () => lookup,
  });

  it('is an error until the dataplane answers: never a pass', () => {
    const results = run(
      `  - { id: a, ${T}, type: reachability, from: { namespace: shop, pod: client }, to: 'api:80', expect: allowed }
  - { id: b, ${T}, type: dns, from: { namespace: shop, pod: client }, name: api, expect: { resolves: true } }`,
      client,
    );
    expect(results.map((r) => r.status)).toEqual(['error', 'error']);
    expect(en(results[0]!).observed).toMatch(
      /^this check cannot be evaluated yet: the simulator does not offer/,
    );
  });

  it('compares the verdict and names the deciding hop', () => {
    const [r] = run(
      `  - { id: a, ${T}, type: reachability, from: { namespace: shop, selector: app=client }, to: 'http://api.shop/', expect: allowed }`,
      client,
      {},
      probes({
        kind: 'timeout',
        hop: {
          kind: 'network-policy',
          direction: 'Ingress',
          pod: { namespace: 'shop', name: 'api-1' },
          verdict: 'blocked',
          enforcement: 'calico',
          policies: [{ namespace: 'shop', name: 'default-deny' }],
          peer: '10.244.1.9',
          port: 80,
        },
      }),
    );
    expect(en(r!)).toEqual({
      status: 'fail',
      expected: 'app=client (shop) can connect to http://api.shop:80/',
      observed: 'the connection times out: the traffic is dropped',
      hop: 'decided at: pod shop/api-1 is isolated for Ingress by shop/default-deny and no rule allows this traffic',
    });
  });

  it.each([
    { expect: 'blocked', outcome: 'timeout', status: 'pass' },
    { expect: 'refused', outcome: 'refused', status: 'pass' },
    { expect: 'refused', outcome: 'timeout', status: 'fail' },
    { expect: 'allowed', outcome: 'connected', status: 'pass' },
    { expect: 'blocked', outcome: 'connected', status: 'fail' },
  ] as const)('expect $expect, dataplane says $outcome: $status', ({ expect: e, outcome, status }) => {
    const [r] = run(
      `  - { id: a, ${T}, type: reachability, from: { namespace: shop, pod: client }, to: '10.96.0.20:80', expect: ${e} }`,
      client,
      {},
      probes({ kind: outcome }),
    );
    expect(r!.status).toBe(status);
  });

  it('fails when the client pod is missing or not running', () => {
    const [r] = run(
      `  - { id: a, ${T}, type: reachability, from: { namespace: shop, pod: ghost }, to: 'api:80', expect: allowed }`,
      client,
      {},
      probes({ kind: 'connected' }),
    );
    expect(en(r!).observed).toBe('Pod shop/ghost does not exist');
    const [s] = run(
      `  - { id: a, ${T}, type: reachability, from: { namespace: shop, pod: client }, to: 'api:80', expect: allowed }`,
      (c) => c.add('pods', makePod('shop', 'client', { phase: 'Pending' })),
      {},
      probes({ kind: 'connected' }),
    );
    expect(en(s!).observed).toBe('pod shop/client is not running (Pending)');
  });

  it('checks DNS answers and the number of queries', () => {
    const check = `  - { id: a, ${T}, type: dns, from: { namespace: shop, pod: client }, name: api.shop, expect: { answers: [10.96.0.20], maxQueries: 2 } }`;
    const [slow] = run(
      check,
      client,
      {},
      probes({ kind: 'connected' }, { addresses: ['10.96.0.20'], queries: 4 }),
    );
    expect(en(slow!)).toEqual({
      status: 'fail',
      expected: 'api.shop resolves from shop/client with 10.96.0.20 in the answer, in at most 2 queries',
      observed: 'it resolves to 10.96.0.20 in 4 queries',
    });
    const [fast] = run(
      check,
      client,
      {},
      probes({ kind: 'connected' }, { addresses: ['10.96.0.20'], queries: 2 }),
    );
    expect(fast!.status).toBe('pass');
    const [nx] = run(
      `  - { id: a, ${T}, type: dns, from: { namespace: shop, pod: client }, name: nope, expect: { resolves: false } }`,
      client,
      {},
      probes({ kind: 'connected' }, { addresses: [], queries: 6, error: 'Name or service not known' }),
    );
    expect(en(nx!)).toEqual({
      status: 'pass',
      expected: 'nope does not resolve from shop/client',
      observed: 'it does not resolve (Name or service not known) after 6 queries',
    });
  });
});

describe('output, history and quiz checks', () => {
  it('runs output commands in a scratch copy that leaves the cluster untouched', () => {
    const loaded =
      labWith(`  - { id: a, ${T}, type: output, command: 'mk cm default/probe', contains: created, exitCode: 0 }
  - { id: b, ${T}, type: output, command: 'cat notes.txt', matches: '^hello$' }
  - { id: c, ${T}, type: resource, resource: cm, name: probe, exists: false }`);
    const cluster = fakeEngine.createCluster(undefined, {
      seed: 1,
      files: { 'notes.txt': 'hello\nworld\n' },
    });
    const before = JSON.stringify(cluster.snapshot());
    const results = evaluateChecks(
      loaded,
      cluster,
      { history: [] },
      { engine: fakeEngine, revealHidden: true },
    );
    expect(results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass']);
    expect(JSON.stringify(cluster.snapshot())).toBe(before);
    expect(en(results[0]!).expected).toBe(
      'the output of mk cm default/probe contains created; mk cm default/probe exits with code 0',
    );
  });

  it('shows what a failing command printed', () => {
    const [r] = run(`  - { id: a, ${T}, type: output, command: 'cat missing.txt', exitCode: 0 }`);
    expect(en(r!)).toEqual({
      status: 'fail',
      expected: 'cat missing.txt exits with code 0',
      observed: 'exit code 1; no output',
    });
  });

  it('finds a command in the history', () => {
    const check = `  - { id: a, ${T}, type: history, matches: 'kubectl (get|describe) endpointslices?' }`;
    const [yes] = run(check, undefined, { history: ['ls', 'kubectl get endpointslices -n shop'] });
    expect(en(yes!)).toMatchObject({
      status: 'pass',
      observed: 'you ran: kubectl get endpointslices -n shop',
    });
    const [no] = run(check, undefined, { history: ['ls'] });
    expect(en(no!).observed).toBe('none of your commands matches (1 command so far)');
  });

  const quiz = `  - id: q
    ${T}
    type: quiz
    multiple: true
    question: { pt-BR: Quais?, en: Which? }
    choices:
      - { id: a, text: { pt-BR: A, en: A } }
      - { id: b, text: { pt-BR: B, en: B } }
      - { id: c, text: { pt-BR: C, en: C } }
    answer: [a, c]`;
  it.each([
    { name: 'exact set', answers: { q: ['c', 'a'] }, status: 'pass', observed: 'your answer is right' },
    {
      name: 'a subset',
      answers: { q: ['a'] },
      status: 'fail',
      observed: 'the choices you ticked are not exactly the right ones',
    },
    {
      name: 'a superset',
      answers: { q: ['a', 'b', 'c'] },
      status: 'fail',
      observed: 'the choices you ticked are not exactly the right ones',
    },
    { name: 'no answer', answers: {}, status: 'fail', observed: 'not answered yet' },
  ])('quiz: $name', ({ answers, status, observed }) => {
    const [r] = run(quiz, undefined, { quizAnswers: answers });
    expect(en(r!)).toMatchObject({ status, observed, expected: 'the right answer to: Which?' });
  });
});

describe('predicates, hidden checks and failures', () => {
  it('runs a registered predicate', () => {
    const check = `  - { id: a, ${T}, type: predicate, predicate: pods-spread-across-nodes, params: { namespace: shop, selector: app=api, min: 2 } }`;
    const [r] = run(check, (c) => {
      c.add('pods', makePod('shop', 'api-1', { labels: { app: 'api' }, node: 'worker' }));
      c.add('pods', makePod('shop', 'api-2', { labels: { app: 'api' }, node: 'worker' }));
    });
    expect(en(r!)).toEqual({
      status: 'fail',
      expected: 'the pods matching app=api in namespace shop run on at least 2 nodes',
      observed: 'they run on 1 node: worker',
    });
  });

  it('makes an unknown predicate or bad params an error', () => {
    const [a] = run(`  - { id: a, ${T}, type: predicate, predicate: no-such-rule }`);
    const [b] = run(
      `  - { id: a, ${T}, type: predicate, predicate: pods-spread-across-nodes, params: { min: 0 } }`,
    );
    expect([a!.status, b!.status]).toEqual(['error', 'error']);
  });

  it('redacts hidden checks for the learner but keeps their status', () => {
    const loaded = labWith(`  - { id: a, ${T}, type: resource, resource: svc, name: web, hidden: true }
  - { id: b, ${T}, type: resource, resource: svc, name: gone, exists: false, hidden: true }`);
    const cluster = fakeEngine.createCluster(undefined, { seed: 1, files: {} });
    const results = evaluateChecks(loaded, cluster, { history: [] }, { engine: fakeEngine });
    expect(results.map((r) => [r.status, r.redacted, formatMessage('en', r.observed)])).toEqual([
      ['fail', true, 'a hidden traffic probe failed'],
      ['pass', true, 'the hidden traffic probe passed'],
    ]);
    expect(formatMessage('pt-BR', results[0]!.observed)).toBe('uma sonda de tráfego oculta falhou');
    expect(JSON.stringify(results)).not.toContain('web');
    expect(checkTitle(loaded.lab.checks[0]!, 'en')).toBe('Hidden traffic probe');
  });

  it('turns a crashing check into an error result and grades the rest', () => {
    const loaded = labWith(`  - { id: a, ${T}, type: output, command: 'echo x', contains: x }
  - { id: b, ${T}, type: history, matches: x }`);
    const cluster = fakeEngine.createCluster(undefined, { seed: 1, files: {} });
    const broken = {
      ...fakeEngine,
      restoreCluster: () => {
        throw new Error('boom');
      },
    };
    const results = evaluateChecks(loaded, cluster, { history: ['x'] }, { engine: broken });
    expect(results.map((r) => r.status)).toEqual(['error', 'pass']);
    expect(formatMessage('en', results[0]!.observed)).toBe('the check could not run: Error: boom');
  });
});

describe('dataplaneProbes', () => {
  const target = { host: 'api.shop', port: 80, protocol: 'TCP' as const };
  const client = { namespace: 'shop', pod: 'client', ip: '10.244.1.9' };
  const base = { hops: [], local: { ip: '10.244.1.9', port: 40000 }, elapsedMs: 0 };
  const cluster = fakeEngine.createCluster(undefined, { seed: 1, files: {} });

  it.each([
    { outcome: 'connected', kind: 'connected' },
    { outcome: 'timeout', kind: 'timeout' },
    { outcome: 'refused', kind: 'refused' },
    { outcome: 'unreachable', kind: 'refused' },
    { outcome: 'dns-failure', kind: 'unresolved' },
  ] as const)('maps $outcome to $kind', ({ outcome, kind }) => {
    const probes = dataplaneProbes(() => ({ ...base, outcome }));
    expect(probes.reach(cluster, client, target)).toMatchObject({ kind });
  });

  it('asks for the URL path and keeps the deciding hop', () => {
    let asked: ConnectRequest | undefined;
    const hop = {
      kind: 'no-endpoints' as const,
      service: { namespace: 'shop', name: 'api' },
      node: 'worker',
    };
    const probes = dataplaneProbes((_c, req) => {
      asked = req;
      return { ...base, outcome: 'refused', decidingHop: hop };
    });
    const out = probes.reach(cluster, client, { ...target, url: { scheme: 'http', path: '/healthz' } });
    expect(asked).toMatchObject({
      from: { kind: 'pod', namespace: 'shop', name: 'client' },
      to: 'api.shop',
      port: 80,
    });
    expect(asked?.payload?.http?.path).toBe('/healthz');
    expect(out).toEqual({ kind: 'refused', hop });
    expect(formatMessage('en', hopMessage(hop))).toBe(
      'Service shop/api has no endpoints, so kube-proxy rejects',
    );
  });

  it('reads a lookup from the connection’s DNS summary', () => {
    const probes = dataplaneProbes(() => ({
      ...base,
      outcome: 'dns-failure',
      dns: {
        name: 'nope',
        addresses: [],
        queries: 6,
        error: { code: 'EAI_NONAME', message: 'Name or service not known' },
        timedOut: false,
        elapsedMs: 0,
      },
    }));
    expect(probes.lookup(cluster, client, 'nope')).toEqual({
      addresses: [],
      queries: 6,
      error: 'Name or service not known',
    });
  });
});
