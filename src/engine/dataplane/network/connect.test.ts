import { describe, expect, it } from 'vitest';
import { Rng } from '../../util/rng.ts';
import { connect } from './connect.ts';
import type { ConnectRequest, Hop } from './types.ts';
import {
  apply,
  clusterIP,
  kindConfig,
  nodePort,
  pod,
  podIP,
  scenario,
  service,
  recreatePods,
  setFlannelPodMtu,
} from './test-helpers.ts';
import { createCluster } from '../../cluster/cluster.ts';
import { cniDeviceAddresses } from '../../node/cni/device-addresses.ts';
import { cniDataplane } from './cni-dataplane.ts';

const http = (host: string, path = '/') => ({
  http: { method: 'GET', path, host, headers: [['Host', host]] as [string, string][] },
});
const from = (name: string) => ({ kind: 'pod' as const, namespace: 'default', name });
const kinds = (hops: readonly Hop[]) => hops.map((h) => h.kind);

describe.each(['flannel', 'calico', 'cilium'] as const)('packet flow with %s', (cni) => {
  const cluster = scenario(cni, cni === 'cilium' ? 'none' : 'iptables');
  const rng = new Rng(99);
  const go = (req: Omit<ConnectRequest, 'protocol'> & { protocol?: ConnectRequest['protocol'] }) =>
    connect({ protocol: 'TCP', ...req }, cluster, rng);

  it.each([
    { name: 'same node', target: 'echo-a', crossNode: false },
    { name: 'cross node', target: 'echo-b', crossNode: true },
  ])('pod to pod IP, $name: no NAT, the server sees the client pod IP', ({ target, crossNode }) => {
    const r = go({
      from: from('client'),
      to: podIP(cluster, target),
      port: 8080,
      payload: http('x', '/clientip'),
    });
    expect(r.outcome).toBe('connected');
    expect(r.serverSawClientIP).toBe(podIP(cluster, 'client'));
    expect(r.response?.body).toMatch(new RegExp(`^${podIP(cluster, 'client').replace(/\./g, '\\.')}:\\d+$`));
    expect(kinds(r.hops)).not.toContain('snat');
    const routes = r.hops.filter((h) => h.kind === 'route');
    expect(routes.some((h) => h.kind === 'route' && h.toNode === 'kind-worker2')).toBe(crossNode);
  });

  it('cross node uses the CNI encapsulation between node IPs', () => {
    const r = go({ from: from('client'), to: podIP(cluster, 'server-b'), port: 80 });
    const tunnel = r.hops.find((h) => h.kind === 'route' && h.toNode === 'kind-worker2');
    const expected = {
      flannel: ['vxlan', 'UDP', 8472],
      calico: ['ipip', 'IPIP', undefined],
      cilium: ['vxlan', 'UDP', 8472],
    }[cni];
    expect(tunnel).toMatchObject({
      via: expected[0],
      outer: { src: '172.18.0.3', dst: '172.18.0.4', protocol: expected[1] },
    });
    if (expected[2]) expect(tunnel).toMatchObject({ outer: { port: expected[2] } });
  });

  it('through a Service: DNAT to a ready endpoint on the target port, no SNAT', () => {
    const r = go({ from: from('client'), to: 'echo', port: 80, payload: http('echo', '/hostname') });
    expect(r.outcome).toBe('connected');
    expect(['echo-a', 'echo-b']).toContain(r.backend?.pod?.name);
    expect(r.backend?.port).toBe(8080);
    expect(r.response?.body).toBe(r.backend?.pod?.name);
    expect(r.serverSawClientIP).toBe(podIP(cluster, 'client'));
    const svc = r.hops.find((h) => h.kind === 'service');
    expect(svc).toMatchObject({
      service: { namespace: 'default', name: 'echo' },
      mode: cni === 'cilium' ? 'cilium' : 'iptables',
    });
  });

  it('a closed port on a pod is refused (RST), not a timeout', () => {
    const r = go({ from: from('client'), to: podIP(cluster, 'server-b'), port: 8081 });
    expect(r.outcome).toBe('refused');
    expect(r.decidingHop).toMatchObject({ kind: 'no-listener', port: 8081 });
  });

  it('egress to the internet is SNATed to the node IP (httpbin.org /ip)', () => {
    const r = go({ from: from('client'), to: 'httpbin.org', port: 80, payload: http('httpbin.org', '/ip') });
    expect(r.outcome).toBe('connected');
    expect(JSON.parse(r.response?.body ?? '{}')).toEqual({ origin: '172.18.0.3' });
  });

  it('the learner machine cannot reach pod IPs or ClusterIPs (timeout) but reaches NodePorts', () => {
    expect(go({ from: { kind: 'external' }, to: podIP(cluster, 'echo-a'), port: 8080 }).outcome).toBe(
      'timeout',
    );
    expect(go({ from: { kind: 'external' }, to: clusterIP(cluster, 'echo'), port: 80 }).outcome).toBe(
      'timeout',
    );
    const r = go({
      from: { kind: 'external' },
      to: '172.18.0.2',
      port: nodePort(cluster, 'echo-np'),
      payload: http('x', '/clientip'),
    });
    expect(r.outcome).toBe('connected');
    // externalTrafficPolicy Cluster: the receiving node masquerades, to the address of the device the
    // packet leaves through: its flannel.1 or tunl0 towards the backend's node. Cilium's eBPF NodePort
    // SNATs to the node IP instead.
    const entry = cluster.store.get('nodes', '', 'kind-control-plane');
    const tunnel = cniDeviceAddresses(
      cniDataplane(cluster, 'kind-control-plane'),
      entry?.spec?.podCIDR ?? '',
    ).find((a) => a.device === 'flannel.1' || a.device === 'tunl0');
    expect(r.serverSawClientIP).toBe(tunnel?.address ?? '172.18.0.2');
  });
});

describe('kube-proxy behaviour seen from a pod', () => {
  const cluster = scenario('flannel', 'iptables');
  const rng = new Rng(5);

  it('a Service with no ready endpoint is refused by the REJECT rule', () => {
    apply(cluster, [service('nobody', { app: 'nobody' }, 80, 80)]);
    const r = connect({ from: from('client'), to: 'nobody', port: 80, protocol: 'TCP' }, cluster, rng);
    expect(r.outcome).toBe('refused');
    expect(kinds(r.hops)).toContain('no-endpoints');
    expect(r.decidingHop).toMatchObject({ kind: 'netfilter', verdict: 'REJECT' });
  });

  it('spreads new connections over the endpoints and keeps one socket on its backend', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const r = connect(
        { from: from('client'), to: clusterIP(cluster, 'echo'), port: 80, protocol: 'TCP' },
        cluster,
        rng,
      );
      seen.add(r.backend?.pod?.name ?? '');
    }
    expect([...seen].sort()).toEqual(['echo-a', 'echo-b']);
    const first = connect(
      { from: from('client'), to: clusterIP(cluster, 'echo'), port: 80, protocol: 'TCP', srcPort: 40000 },
      cluster,
      rng,
    );
    for (let i = 0; i < 10; i++) {
      const again = connect(
        { from: from('client'), to: clusterIP(cluster, 'echo'), port: 80, protocol: 'TCP', srcPort: 40000 },
        cluster,
        rng,
      );
      expect(again.backend?.pod?.name).toBe(first.backend?.pod?.name);
      expect(again.hops.find((h) => h.kind === 'service')).toMatchObject({ established: true });
    }
  });

  it('ping to a ClusterIP gets no reply in iptables mode (fact-check #64)', () => {
    const r = connect(
      { from: from('client'), to: clusterIP(cluster, 'echo'), protocol: 'ICMP' },
      cluster,
      rng,
    );
    expect(r.outcome).toBe('timeout');
  });

  it('ping to a ClusterIP in IPVS mode meets KUBE-IPVS-FILTER: port unreachable, not an echo reply', () => {
    // The address sits on kube-ipvs0, but since kubernetes#72236 was fixed kube-proxy's filter
    // REJECTs every NEW packet to KUBE-IPVS-IPS that no Service port set matches; ICMP has no port.
    const ipvs = scenario('flannel', 'ipvs');
    const r = connect({ from: from('client'), to: clusterIP(ipvs, 'echo'), protocol: 'ICMP' }, ipvs, rng);
    expect(r.outcome).toBe('refused');
    expect(r.decidingHop).toMatchObject({ kind: 'netfilter', chain: 'KUBE-IPVS-FILTER', verdict: 'REJECT' });
  });
});

describe('externalTrafficPolicy from outside the cluster', () => {
  const cluster = createCluster(kindConfig('calico'), { seed: 3 });
  apply(cluster, [
    pod(
      'only',
      'kind-worker',
      'registry.k8s.io/e2e-test-images/agnhost:2.53',
      { app: 'only' },
      { args: ['netexec', '--http-port=8080'] },
    ),
    service('cluster-np', { app: 'only' }, 80, 8080, { type: 'NodePort' }),
    service('local-np', { app: 'only' }, 80, 8080, { type: 'NodePort', externalTrafficPolicy: 'Local' }),
  ]);
  const rng = new Rng(1);
  const hit = (node: string, svc: string) =>
    connect(
      {
        from: { kind: 'external' },
        to: node,
        port: nodePort(cluster, svc),
        protocol: 'TCP',
        payload: http(node, '/clientip'),
      },
      cluster,
      rng,
    );

  /** The address of a node's tunl0: MASQUERADE's source on a Calico IP-in-IP node (see below). */
  const tunl0 = (name: string) => {
    const node = cluster.store.get('nodes', '', name);
    return cniDeviceAddresses(cniDataplane(cluster, name), node?.spec?.podCIDR ?? '').find(
      (a) => a.device === 'tunl0',
    )?.address;
  };

  // With ETP Cluster the entry node masquerades; the kernel picks the address of the interface the
  // packet leaves through (masquerade-address.ts): tunl0 towards the other node's pod, and also for
  // its own pod, whose cali veth has no address (tunl0 is the node's first device with one).
  it.each([
    { policy: 'Cluster', svc: 'cluster-np', node: '172.18.0.4', outcome: 'connected', seen: 'kind-worker2' },
    { policy: 'Cluster', svc: 'cluster-np', node: '172.18.0.3', outcome: 'connected', seen: 'kind-worker' },
    { policy: 'Local', svc: 'local-np', node: '172.18.0.3', outcome: 'connected', seen: '172.18.0.1' },
    { policy: 'Local', svc: 'local-np', node: '172.18.0.4', outcome: 'timeout', seen: undefined },
  ])('$policy via $node: $outcome, the server sees $seen', ({ svc, node, outcome, seen }) => {
    const r = hit(node, svc);
    expect(r.outcome).toBe(outcome);
    expect(r.serverSawClientIP).toBe(seen?.startsWith('kind-') ? tunl0(seen) : seen);
  });
});

describe('DNS as packets', () => {
  const cluster = scenario('calico');
  const rng = new Rng(11);
  it.each([
    { client: 'client', libc: 'glibc', name: 'api.exemplo.com', queries: 8 },
    { client: 'client', libc: 'glibc', name: 'api.exemplo.com.', queries: 2 },
    { client: 'alpine', libc: 'musl', name: 'api.exemplo.com', queries: 8 },
    { client: 'alpine', libc: 'musl', name: 'a.b.c.d.exemplo.com', queries: 2 },
  ])('$libc resolves $name with $queries queries (A and AAAA per candidate)', ({ client, name, queries }) => {
    const r = connect({ from: from(client), to: name, port: 443, protocol: 'TCP' }, cluster, rng);
    expect(r.dns?.queries).toBe(queries);
  });

  it('an egress policy that forgot port 53 breaks resolution (the resolver times out)', () => {
    const c = scenario('calico', 'iptables', 21);
    apply(c, [
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'egress-web-only', namespace: 'default' },
        spec: {
          podSelector: { matchLabels: { run: 'client' } },
          policyTypes: ['Egress'],
          egress: [{ ports: [{ port: 80 }] }],
        },
      },
    ]);
    const r = connect({ from: from('client'), to: 'server', port: 80, protocol: 'TCP' }, c, rng);
    expect(r.outcome).toBe('dns-failure');
    expect(r.dns).toMatchObject({ timedOut: true, error: { code: 'EAI_AGAIN' } });
    expect(r.hops.find((h) => h.kind === 'network-policy')).toMatchObject({
      direction: 'Egress',
      verdict: 'blocked',
      port: 53,
    });
  });
});

/**
 * A pod MTU above the tunnel's. flannel routes the pod's packets into flannel.1, so ip_forward answers
 * ICMP "fragmentation needed" and TCP's path MTU discovery recovers (net/ipv4/ip_forward.c); Cilium's
 * eBPF redirect to its VXLAN device gets no ICMP (skb_tunnel_check_pmtu replies only for bridge ports):
 * the black hole. See pmtud.ts.
 */
describe('MTU above the tunnel', () => {
  const big = 'x'.repeat(3000);
  const call = (cluster: ReturnType<typeof scenario>, target: string, msg: string) =>
    connect(
      {
        from: from('client'),
        to: podIP(cluster, target),
        port: 8080,
        protocol: 'TCP',
        payload: http('x', `/echo?msg=${msg}`),
      },
      cluster,
      new Rng(2),
    );

  describe('flannel: path MTU discovery', () => {
    const cluster = scenario('flannel', 'iptables', 31);
    setFlannelPodMtu(cluster, 1500, ['client', 'echo-b']);

    it.each([
      { name: 'small response across nodes', target: 'echo-b', msg: 'hi', icmp: false },
      { name: 'large response across nodes', target: 'echo-b', msg: big, icmp: true },
      { name: 'large response on the same node', target: 'echo-a', msg: big, icmp: false },
    ])('$name arrives (ICMP: $icmp)', ({ target, msg, icmp }) => {
      const r = call(cluster, target, msg);
      expect(r.outcome).toBe('connected');
      expect(r.stalled).toBeUndefined();
      expect(r.response?.body).toBe(msg);
      const hop = r.hops.find((h) => h.kind === 'mtu');
      expect(hop !== undefined && hop.kind === 'mtu' && hop.icmp !== undefined).toBe(icmp);
    });

    it("the ICMP comes from the sending side: kind-worker2 for echo-b's large answer, from its cni0", () => {
      const hop = call(cluster, 'echo-b', big).hops.find((h) => h.kind === 'mtu');
      const gw = cluster.store.get('nodes', undefined, 'kind-worker2')?.spec?.podCIDR?.replace(/0\/24$/, '1');
      expect(hop).toMatchObject({ device: 'flannel.1', icmp: { node: 'kind-worker2', from: gw, mtu: 1450 } });
    });
  });

  describe('cilium: no ICMP from the eBPF tunnel path', () => {
    const cluster = scenario('cilium', 'none', 31);
    const cm = cluster.store.get('configmaps', 'kube-system', 'cilium-config')!;
    cluster.api.update({ ...cm, data: { ...cm.data, mtu: '1500' } });
    cluster.execSync('kubectl -n kube-system rollout restart daemonset/cilium');
    cluster.settle();
    cluster.tick(120_000);
    recreatePods(cluster, ['client', 'echo-b']);

    it('small requests work, the large answer never arrives', () => {
      expect(call(cluster, 'echo-b', 'hi').response?.body).toBe('hi');
      const r = call(cluster, 'echo-b', big);
      expect(r.outcome).toBe('connected');
      expect(r.stalled).toBe(true);
      expect(r.hops.find((h) => h.kind === 'mtu')).toMatchObject({ stalled: true, device: 'cilium_vxlan' });
    });
  });
});

describe('k3s: flannel plus kube-router policies, CoreDNS with import globs', () => {
  const cluster = createCluster(
    'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
    { seed: 9 },
  );
  apply(cluster, [
    pod('srv', 'k3s-agent1', 'nginx', { app: 'srv' }),
    pod('cli', 'k3s-agent2', 'busybox', {}, { command: ['sleep', '3600'] }),
    service('srv', { app: 'srv' }, 80, 80),
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'deny-all', namespace: 'default' },
      spec: { podSelector: { matchLabels: { app: 'srv' } }, policyTypes: ['Ingress'] },
    },
  ]);

  it('resolves through CoreDNS and kube-router drops what no rule allows', () => {
    const r = connect({ from: from('cli'), to: 'srv', port: 80, protocol: 'TCP' }, cluster, new Rng(3));
    expect(r.dns?.addresses).toEqual([clusterIP(cluster, 'srv')]);
    expect(r.outcome).toBe('timeout');
    expect(r.decidingHop).toMatchObject({
      kind: 'network-policy',
      direction: 'Ingress',
      verdict: 'blocked',
      enforcement: 'enforced-by-k3s-kube-router',
    });
  });
});
