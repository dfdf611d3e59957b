// The check kinds that grade the effect rather than the spelling (issue 22): observation checks that
// read a kubectl line the way kubectl does, weights compared as ratios, endpoints compared as the set of
// pods a selector picks, the whole allowed set of NetworkPolicy connections, history checks that say
// what would count.
import { describe, expect, it } from 'vitest';
import { commandsOf, kubectlShow } from './checks/kubectl-line.ts';
import { evaluateChecks as evaluateWith } from './evaluate.ts';
import { engine, evaluateChecks } from './index.ts';
import type { MatrixCell } from './engine-api.ts';
import { formatMessage } from './messages/format.ts';
import { unavailableProbes } from './probes.ts';
import type { CheckResult } from './result.ts';
import { FakeCluster, fakeEngine, labWith, makePod, makeService, makeSlice } from './test-helpers.ts';

const T = `title: { pt-BR: t, en: t }`;

function run(
  checksYaml: string,
  setup: (c: FakeCluster) => void = () => {},
  history: string[] = [],
  cells?: MatrixCell[],
): CheckResult {
  const cluster = fakeEngine.createCluster(undefined, { seed: 1, files: {} });
  setup(cluster);
  const probes = cells ? { ...unavailableProbes, connections: () => cells } : unavailableProbes;
  return evaluateWith(
    labWith(checksYaml),
    cluster,
    { history },
    { engine: fakeEngine, revealHidden: true, probes },
  )[0]!;
}

const text = (r: CheckResult, locale: 'en' | 'pt-BR' = 'en'): string =>
  `${formatMessage(locale, r.expected)} — ${formatMessage(locale, r.observed)}`;

describe('reading a kubectl line', () => {
  it('splits pipelines and lists, keeps quoted words whole', () => {
    expect(commandsOf(`kubectl get ep -n shop | grep 'a b' && k get svc; echo "x|y"`)).toEqual([
      ['kubectl', 'get', 'ep', '-n', 'shop'],
      ['grep', 'a b'],
      ['k', 'get', 'svc'],
      ['echo', 'x|y'],
    ]);
  });

  it('finds verb, resources and namespace in any flag order', () => {
    const show = (l: string) => kubectlShow(commandsOf(l)[0]!);
    expect(show('kubectl get -n shop endpointslices')).toEqual({
      verb: 'get',
      resources: ['endpointslices.discovery.k8s.io'],
      namespace: 'shop',
    });
    expect(show('kubectl -n shop get svc,endpointslices -o yaml')?.resources).toEqual([
      'services',
      'endpointslices.discovery.k8s.io',
    ]);
    expect(show('kubectl describe endpointslice/api-x svc/api --namespace=shop')).toEqual({
      verb: 'describe',
      resources: ['endpointslices.discovery.k8s.io', 'services'],
      namespace: 'shop',
    });
    expect(show('kubectl get endpointslices.discovery.k8s.io -A')?.namespace).toBe('*');
    expect(show('kubectl -o wide -l app=api get pods')?.resources).toEqual(['pods']);
    expect(show('trace deploy/web -- curl -s http://api')).toBeUndefined();
  });
});

describe('looked checks', () => {
  const check = `  - { id: a, ${T}, type: looked, resources: [endpointslices, endpoints], namespace: shop }`;
  /** A real cluster with a Service in shop; the lines typed at the prompt, then the check's verdict. */
  function looked(lines: string[]): CheckResult {
    const cluster = engine.createCluster(undefined, { seed: 1, files: {} });
    for (const setup of [
      'kubectl create namespace shop',
      'kubectl -n shop create deployment api --image=nginx',
      'kubectl -n shop expose deployment api --port=80',
    ])
      cluster.execSync(setup, { interactive: false });
    for (const line of lines) cluster.execSync(line, { interactive: true });
    return evaluateChecks(labWith(check), cluster, { history: lines }, { revealHidden: true })[0]!;
  }

  it.each([
    'kubectl get -n shop endpointslices',
    'kubectl -n shop get svc,endpointslices',
    'kubectl describe endpointslices -n shop | grep -i endpoints',
    'k get ep -n shop -o yaml',
    'kubectl get endpointslices.discovery.k8s.io -A -o json',
    'kubectl get --namespace=shop endpointslice -o wide | grep api | head -1',
  ])('counts %s, which printed them', (line) => {
    expect(looked(['kubectl get pods', line]).status).toBe('pass');
  });

  it.each([
    ['a NotFound', 'kubectl -n shop get endpointslices no-such-slice'],
    ['a typo in the kind', 'kubectl -n shop get endpointslices-x'],
    ['output into a file', 'kubectl -n shop get endpointslices > slices.txt'],
    ['a grep that matched nothing', 'kubectl -n shop get endpointslices | grep nothing-like-this'],
    ['a command substitution', 'echo $(kubectl -n shop get endpointslices) > /dev/null'],
  ])('does not count %s: nothing reached the terminal', (_, line) => {
    const r = looked([line]);
    expect(r.status).toBe('fail');
    expect(formatMessage('en', r.observed)).toContain('`kubectl -n shop get endpointslices`');
  });

  it('says why the closest attempt did not count, in both languages', () => {
    const r = looked(['kubectl -n shop get endpointslices no-such-slice']);
    expect(formatMessage('en', r.observed)).toBe(
      '`kubectl -n shop get endpointslices no-such-slice` asked for them but did not show them on your terminal (the command failed, or its output went to a file or a pipe that printed nothing); `kubectl -n shop get endpointslices` would count',
    );
    expect(formatMessage('pt-BR', r.observed)).toContain('não os mostrou no terminal');
  });

  it('says what would count when nothing asked for them', () => {
    const r = looked(['kubectl -n shop get svc api -o wide']);
    expect(r.status).toBe('fail');
    expect(formatMessage('en', r.observed)).toContain('`kubectl -n shop get endpointslices`');
    expect(formatMessage('pt-BR', r.observed)).toContain('`kubectl -n shop get endpointslices`');
  });

  it('names the namespace when the learner looked in another one', () => {
    const r = looked(['kubectl get endpointslices -n kube-system']);
    expect(r.status).toBe('fail');
    expect(formatMessage('en', r.observed)).toBe(
      '`kubectl get endpointslices -n kube-system` listed another namespace, not shop; `kubectl -n shop get endpointslices` (or `-A`) would count',
    );
  });

  it('reads what the engine recorded, not the command lines the report claims', () => {
    // The history says the learner listed the slices; the cluster never showed them.
    const cluster = fakeEngine.createCluster(undefined, { seed: 1, files: {} });
    const claimed = ['kubectl get -n shop endpointslices'];
    const r = evaluateWith(
      labWith(check),
      cluster,
      { history: claimed },
      { engine: fakeEngine, revealHidden: true, probes: unavailableProbes },
    )[0]!;
    expect(r.status).toBe('fail');
    cluster.execSync('show endpointslices shop/api-x');
    const seen = evaluateWith(
      labWith(check),
      cluster,
      { history: claimed },
      { engine: fakeEngine, revealHidden: true, probes: unavailableProbes },
    )[0]!;
    expect(seen.status).toBe('pass');
  });
});

describe('weights checks', () => {
  const check = `  - { id: a, ${T}, type: weights, name: api, shares: { api-v1: 90, api-v2: 10 } }`;
  const route = (refs: { name: string; weight?: number }[]) => (c: FakeCluster) =>
    c.add('httproutes.gateway.networking.k8s.io', {
      metadata: { name: 'api', namespace: 'default' },
      spec: { rules: [{ backendRefs: refs.map((r) => ({ port: 80, ...r })) }] },
    });

  it('compares the split as ratios: 9/1 and 900/100 are 90/10', () => {
    expect(run(check, route([{ name: 'api-v1', weight: 9 }, { name: 'api-v2' }])).status).toBe('pass');
    expect(
      run(
        check,
        route([
          { name: 'api-v2', weight: 100 },
          { name: 'api-v1', weight: 900 },
        ]),
      ).status,
    ).toBe('pass');
  });

  it('names the split the weights give when it is another', () => {
    const r = run(check, route([{ name: 'api-v1' }, { name: 'api-v2' }]));
    expect(text(r)).toBe(
      'route default/api splits traffic: api-v1 90%, api-v2 10% — its weights (api-v1=1, api-v2=1) give api-v1 50%, api-v2 50%',
    );
    expect(
      run(
        check,
        route([
          { name: 'api-v1', weight: 90 },
          { name: 'api-v3', weight: 10 },
        ]),
      ).status,
    ).toBe('fail');
  });
});

describe('endpoints checks with exactly', () => {
  const check = `  - { id: a, ${T}, type: endpoints, namespace: shop, service: api, exactly: app=api }`;
  const pods = (c: FakeCluster) => {
    c.add('pods', makePod('shop', 'api-1', { labels: { app: 'api', tier: 'backend' }, ip: '10.244.1.5' }));
    c.add(
      'pods',
      makePod('shop', 'worker-1', { labels: { app: 'worker', tier: 'backend' }, ip: '10.244.2.9' }),
    );
  };

  it('passes when the endpoints are the selected pods, whatever the selector says', () => {
    const r = run(check, (c) => {
      pods(c);
      c.add('services', makeService('shop', 'api', { app: 'api', tier: 'backend' }));
      c.add('endpointslices.discovery.k8s.io', makeSlice('shop', 'api', [{ ip: '10.244.1.5' }]));
    });
    expect(r.status).toBe('pass');
  });

  it('names the extra pod and the selector that picked it', () => {
    const r = run(check, (c) => {
      pods(c);
      c.add('services', makeService('shop', 'api', { tier: 'backend' }));
      c.add(
        'endpointslices.discovery.k8s.io',
        makeSlice('shop', 'api', [{ ip: '10.244.1.5' }, { ip: '10.244.2.9' }]),
      );
    });
    expect(formatMessage('en', r.observed)).toBe(
      'it also sends to shop/worker-1 (10.244.2.9): its selector tier=backend picks too many pods',
    );
  });

  it('names a hand-written EndpointSlice', () => {
    const r = run(check, (c) => {
      pods(c);
      c.add('services', makeService('shop', 'api'));
      c.add(
        'endpointslices.discovery.k8s.io',
        makeSlice('shop', 'api', [{ ip: '10.244.1.5' }], { handWritten: true }),
      );
    });
    expect(r.status).toBe('fail');
    expect(formatMessage('en', r.observed)).toContain('EndpointSlice shop/api-manual is hand-written');
  });
});

describe('connections checks', () => {
  const check = `  - id: a
    ${T}
    type: connections
    direction: ingress
    pods: { namespace: shop, selector: app=api }
    allowed: [{ namespace: shop, selector: app=web, ports: [8080], protocol: TCP }]`;
  const labelled = (c: FakeCluster) => {
    c.add('pods', makePod('shop', 'api-1', { labels: { app: 'api' } }));
    c.add('pods', makePod('shop', 'web-1', { labels: { app: 'web' } }));
    c.add('pods', makePod('shop', 'batch-1', { labels: { app: 'batch' } }));
  };
  const cell = (from: string, port: number, ingress: boolean, egress = true): MatrixCell => ({
    from: { namespace: 'shop', name: from },
    to: { namespace: 'shop', name: 'api-1' },
    port,
    protocol: 'TCP',
    verdict: ingress && egress ? 'allowed' : 'blocked',
    reason: ingress && egress ? 'allowed-by-rule' : 'no-rule-allowed',
    sides: {
      egress: { allowed: egress, isolated: !egress },
      ingress: ingress
        ? { allowed: true, isolated: true, allowedBy: { namespace: 'shop', name: 'api-in', rule: 0 } }
        : { allowed: false, isolated: true },
    },
  });

  it('passes when exactly the intended connections are admitted', () => {
    const r = run(check, labelled, [], [cell('web-1', 8080, true), cell('batch-1', 8080, false)]);
    expect(r.status).toBe('pass');
  });

  it('judges the ingress end even when the source cannot send (its egress closed)', () => {
    const r = run(check, labelled, [], [cell('web-1', 8080, true), cell('batch-1', 8080, true, false)]);
    expect(r.status).toBe('fail');
    expect(formatMessage('en', r.observed)).toBe(
      '1 connection too many is allowed: shop/batch-1 → shop/api-1:8080/TCP (by rule 1 of NetworkPolicy shop/api-in)',
    );
    expect(formatMessage('pt-BR', r.observed)).toContain('pela regra 1 da NetworkPolicy shop/api-in');
  });

  it('names intended connections that are denied', () => {
    const r = run(check, labelled, [], [cell('web-1', 8080, false)]);
    expect(formatMessage('en', r.observed)).toBe(
      '1 intended connection is denied: shop/web-1 → shop/api-1:8080/TCP',
    );
  });

  it('is an error, never a pass, without the policy matrix', () => {
    expect(run(check, labelled).status).toBe('error');
  });
});

describe('history checks with an example', () => {
  const check = `  - { id: a, ${T}, type: history, matches: '^iptables-save', example: 'iptables-save -t nat' }`;

  it('shows the example, not the pattern', () => {
    const r = run(check, () => {}, ['kubectl get pods']);
    expect(text(r)).toBe(
      'you ran a command like `iptables-save -t nat` — none of your commands (1 so far) does it; `iptables-save -t nat`, for one, would count',
    );
  });

  it('refuses an example its own pattern does not match', () => {
    expect(() =>
      labWith(`  - { id: a, ${T}, type: history, matches: '^nft', example: 'iptables-save' }`),
    ).toThrow(/example: the pattern does not match it/);
  });
});

describe('looked checks on node tables and fields', () => {
  /** The default kind cluster; the lines typed at the prompt, then the check's verdict. */
  function looked(check: string, lines: string[]): CheckResult {
    const cluster = engine.createCluster(undefined, { seed: 1, files: {} });
    for (const line of lines) cluster.execSync(line, { interactive: true });
    return evaluateChecks(labWith(check), cluster, { history: lines }, { revealHidden: true })[0]!;
  }
  const nat = `  - { id: a, ${T}, type: looked, tables: [iptables, nftables], table: nat }`;

  it.each([
    ['docker exec', ['docker exec kind-worker iptables-save -t nat']],
    ['a whole iptables-save through grep', ['docker exec kind-worker iptables-save | grep KUBE-SERVICES']],
    [
      'a node shell with chroot',
      ['kubectl debug node/kind-worker -it --image=busybox', 'chroot /host', 'iptables -t nat -S'],
    ],
    [
      'a netshoot node shell',
      ['kubectl debug node/kind-worker -it --image=nicolaka/netshoot', 'iptables -t nat -L -n'],
    ],
    ['nft list ruleset', ['docker exec kind-worker nft list ruleset']],
  ])('counts %s, which printed the nat table', (_, lines) => {
    expect(looked(nat, lines).status).toBe('pass');
  });

  it('does not count iptables-save in BusyBox without chroot: sh said not found', () => {
    const r = looked(nat, ['kubectl debug node/kind-worker -it --image=busybox', 'iptables-save -t nat']);
    expect(r.status).toBe('fail');
    expect(formatMessage('en', r.observed)).toContain('`iptables-save -t nat` in a node shell would');
    expect(formatMessage('pt-BR', r.observed)).toContain('num shell do node');
  });

  it('names the table when another one was printed', () => {
    const r = looked(nat, ['docker exec kind-worker iptables -L -n']);
    expect(r.status).toBe('fail');
    expect(formatMessage('en', r.observed)).toBe(
      '`docker exec kind-worker iptables -L -n` printed another table, not nat; `iptables-save -t nat` would count',
    );
  });

  const podCidr = `  - { id: a, ${T}, type: looked, resources: [nodes], fields: [spec.podCIDR] }`;
  it.each([
    'kubectl describe nodes',
    'kubectl get nodes -o yaml | grep -i cidr',
    "kubectl get node kind-worker -o jsonpath='{.spec.podCIDR}'",
    'kubectl get no -o custom-columns=NAME:.metadata.name,CIDR:.spec.podCIDR',
  ])('counts %s, which printed a podCIDR', (line) => {
    expect(looked(podCidr, [line]).status).toBe('pass');
  });

  it('does not count -o wide, which has no podCIDR column', () => {
    const r = looked(podCidr, ['kubectl get nodes -o wide']);
    expect(r.status).toBe('fail');
    expect(formatMessage('en', r.observed)).toContain('listed them but not spec.podCIDR');
  });
});
