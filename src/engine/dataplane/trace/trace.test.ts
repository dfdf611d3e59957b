import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apply, exec, podIP, scenario, setFlannelPodMtu } from '../network/test-helpers.ts';
import type { Hop } from '../network/types.ts';
import { traceConnection, type TraceResult } from './trace-connection.ts';

const kinds = (hops: readonly Hop[]) => hops.map((h) => h.kind);

function traced(r: ReturnType<typeof traceConnection>): TraceResult {
  if ('error' in r) throw new Error(r.error);
  return r;
}

describe.each([
  { cni: 'flannel', mode: 'iptables', route: 'vxlan', policy: 'not-enforced' },
  { cni: 'calico', mode: 'iptables', route: 'ipip', policy: 'not-isolated' },
  { cni: 'cilium', mode: 'none', route: 'vxlan', policy: 'not-isolated' },
] as const)('trace of a cross-node call through a Service under $cni', ({ cni, mode, route, policy }) => {
  const cluster = scenario(cni, mode, 51);
  // Only echo-b (kind-worker2) backs this Service, so the call from kind-worker always crosses nodes.
  apply(cluster, [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'far', namespace: 'default' },
      spec: { selector: { run: 'echo-b' }, ports: [{ port: 80, targetPort: 8080 }] },
    },
  ]);
  const t = traced(
    traceConnection(cluster, {
      from: { kind: 'pod', namespace: 'default', name: 'client' },
      argv: ['curl', 'http://far/hostname'],
    }),
  );

  it('has the hop sequence DNS → socket → Service → DNAT → policy → route ×2 → policy → delivery', () => {
    expect(kinds(t.hops)).toEqual([
      'resolv-conf',
      'dns-query',
      'dns-query',
      'dns-result',
      'socket',
      'service',
      'dnat',
      'network-policy',
      'route',
      'route',
      'network-policy',
      'delivered',
    ]);
    expect(t.outcome).toBe('connected');
  });

  it('names the Service handling, the encapsulation and the policy verdicts', () => {
    const svc = t.hops.find((h) => h.kind === 'service');
    expect(svc).toMatchObject({
      service: { name: 'far' },
      mode: cni === 'cilium' ? 'cilium' : 'iptables',
      endpointPod: { name: 'echo-b' },
    });
    if (cni !== 'cilium' && svc?.kind === 'service')
      expect(svc.rules.map((r) => r.chain)).toContain('KUBE-SERVICES');
    expect(t.hops.find((h) => h.kind === 'route' && h.toNode === 'kind-worker2')).toMatchObject({
      via: route,
    });
    expect(
      t.hops.filter((h) => h.kind === 'network-policy').map((h) => h.kind === 'network-policy' && h.verdict),
    ).toEqual([policy, policy]);
    expect(t.summary).toBe('connected: HTTP/1.1 200 OK, 6 bytes');
  });
});

describe('trace verdicts', () => {
  const cluster = scenario('calico', 'iptables', 52);
  apply(cluster, [
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'only-client', namespace: 'default' },
      spec: {
        podSelector: { matchLabels: { app: 'echo' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { run: 'client' } } }], ports: [{ port: 8080 }] }],
      },
    },
  ]);
  const run = (from: string, argv: string[]) =>
    traced(traceConnection(cluster, { from: { kind: 'pod', namespace: 'default', name: from }, argv }));

  it('names the policy and rule that allowed the connection', () => {
    const t = run('client', ['curl', 'echo']);
    expect(t.hops.find((h) => h.kind === 'network-policy' && h.direction === 'Ingress')).toMatchObject({
      verdict: 'allowed',
      allowedBy: { namespace: 'default', name: 'only-client', rule: 0 },
    });
  });

  it('says no rule allowed it, and the blocked hop decides', () => {
    const t = run('alpine', ['wget', '-qO-', 'echo']);
    expect(t.outcome).toBe('timeout');
    expect(t.decidingHop).toMatchObject({
      kind: 'network-policy',
      direction: 'Ingress',
      verdict: 'blocked',
      policies: [{ namespace: 'default', name: 'only-client' }],
    });
  });

  it('traces a lookup query by query (glibc: A and AAAA per candidate until one answers)', () => {
    const t = run('client', ['nslookup', 'echo.default']);
    expect(t.outcome).toBe('resolved');
    expect(
      t.hops
        .filter((h) => h.kind === 'dns-query')
        .map((h) => (h.kind === 'dns-query' ? `${h.type} ${h.name} ${h.rcode}` : '')),
    ).toEqual([
      'A echo.default.default.svc.cluster.local. NXDOMAIN',
      'AAAA echo.default.default.svc.cluster.local. NXDOMAIN',
      'A echo.default.svc.cluster.local. NOERROR',
      'AAAA echo.default.svc.cluster.local. NOERROR',
    ]);
  });
});

describe('the trace command', () => {
  const cluster = scenario('flannel', 'iptables', 53);

  it.each([
    { line: 'trace', err: 'trace: missing SOURCE and COMMAND' },
    {
      line: 'trace client curl echo',
      err: 'trace: separate SOURCE from the command with "--" (trace web -- curl http://api)',
    },
    { line: 'trace client --', err: 'trace: missing COMMAND after "--"' },
    { line: 'trace -x client -- curl echo', err: 'trace: unknown flag: -x' },
  ])('$line → a usage error', ({ line, err }) => {
    const r = cluster.execSync(line);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`${err}\nSee 'trace --help' for usage.\n`);
  });

  it('explains itself with --help and refuses unknown sources and programs clearly', () => {
    expect(cluster.execSync('trace --help').stdout).toContain(
      'trace [-n NAMESPACE] [-o json] SOURCE -- COMMAND [ARGS...]',
    );
    expect(cluster.execSync('trace nobody -- curl echo').stderr).toBe('trace: pods "nobody" not found\n');
    expect(cluster.execSync('trace client -- ls /').stderr).toMatch(
      /^trace: cannot trace "ls": trace follows curl, wget/,
    );
  });

  it('prints numbered hops and the result; -o json gives the structured form', () => {
    const text = cluster.execSync('trace client -- curl -s echo').stdout;
    expect(text).toMatch(
      /^trace: curl -s echo from pod default\/client\n 1  dns {7}resolv\.conf: nameserver 10\.96\.0\.10/,
    );
    expect(text).toMatch(/\nresult: connected: HTTP\/1\.1 200 OK/);
    const json = JSON.parse(cluster.execSync('trace -o json client -- curl -s echo').stdout) as {
      hops: { kind: string }[];
    };
    expect(json.hops.map((h) => h.kind)).toContain('delivered');
  });

  it('never throws on random argument vectors', () => {
    const word = fc.oneof(
      fc.constantFrom(
        '--',
        '-n',
        '-o',
        'json',
        'client',
        'outside',
        'node/kind-worker',
        'curl',
        'ping',
        'nc',
        'dig',
        'echo',
        '-zv',
        '80',
        'http://echo',
        '-m',
        '1',
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (words) => {
        const r = traceConnection(cluster, {
          from: { kind: 'pod', namespace: 'default', name: 'client' },
          argv: words,
        });
        expect(r).toBeTypeOf('object');
      }),
      { numRuns: 150 },
    );
  });
});

describe('route hops state their device MTU, as `ip link` shows it (lab 03-vxlan-mtu)', () => {
  it('pods given 1500 inside VXLAN: the flannel.1 hop says 1450, the delivering veth its own MTU', () => {
    const cluster = scenario('flannel', 'iptables', 41);
    setFlannelPodMtu(cluster, 1500, ['client']);
    const echoB = podIP(cluster, 'echo-b');
    const t = traced(
      traceConnection(cluster, {
        from: { kind: 'pod', namespace: 'default', name: 'client' },
        argv: ['wget', '-q', '-O-', `http://${echoB}:8080/hostname`],
      }),
    );
    const routes = t.hops.filter((h) => h.kind === 'route');
    cluster.execSync('kubectl debug node/kind-worker -it --image=nicolaka/netshoot', { interactive: true });
    const flannel = cluster.execSync('ip link show flannel.1', { interactive: true }).stdout;
    cluster.execSync('exit', { interactive: true });
    expect(flannel).toMatch(/ mtu 1450 /);
    expect(routes.map((h) => [h.device, h.mtu])).toEqual([
      ['flannel.1', 1450],
      // echo-b was not recreated: its veth keeps the 1450 of its CNI ADD.
      ['cni0', 1450],
    ]);
    // The sender's own eth0 is the one with 1500.
    expect(exec(cluster, 'client', 'ip link show eth0').stdout).toMatch(/ mtu 1500 /);
  });
});
