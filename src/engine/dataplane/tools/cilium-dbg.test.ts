/**
 * cilium-dbg in the agent pod. Headers and layouts from cilium/cilium: service_list.go
 * ("Frontend\tService Type\tBackend\t", backends "%d => %s (%s)", frontends sorted), bpf_lb_list.go
 * ("SERVICE ADDRESS" / "BACKEND ADDRESS (REVNAT_ID) (SLOT)", slot 0 "%s:%d (%d) (%d) [%s]"),
 * endpoint_list.go (two header lines, ENFORCEMENT under the policy columns), all on
 * tabwriter.NewWriter(os.Stdout, 5, 0, 3, ' ', 0); cobra's unknown-command error.
 */
import { describe, expect, it } from 'vitest';
import { apply, clusterIP, exec, scenario } from '../network/test-helpers.ts';

const cluster = scenario('cilium', 'none', 17);
// The agent on echo-a's node: its endpoint list holds only that node's pods, and its NodePort
// frontends carry that node's address (`ds/cilium` would pick whichever agent sorts first).
const echoNode = cluster.store.get('pods', 'default', 'echo-a')?.spec?.nodeName;
const agentPod = cluster.store
  .list('pods', 'kube-system')
  .find((p) => p.metadata.labels?.['k8s-app'] === 'cilium' && p.spec?.nodeName === echoNode)?.metadata.name;
const nodeIP = cluster.store
  .get('nodes', undefined, echoNode ?? '')
  ?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
const agent = (line: string) =>
  cluster.execSync(`kubectl exec -n kube-system ${agentPod} -- cilium-dbg ${line}`);

describe('cilium-config', () => {
  it('has the chart keys a lab reads, kube-proxy replacement on when the cluster has no kube-proxy', () => {
    const data = cluster.store.get('configmaps', 'kube-system', 'cilium-config')?.data ?? {};
    expect(data).toMatchObject({
      'kube-proxy-replacement': 'true',
      'routing-mode': 'tunnel',
      'tunnel-protocol': 'vxlan',
      ipam: 'cluster-pool',
      'cluster-pool-ipv4-cidr': '10.244.0.0/16',
      'enable-policy': 'default',
    });
    const withProxy = scenario('cilium', 'iptables', 3);
    expect(
      withProxy.store.get('configmaps', 'kube-system', 'cilium-config')?.data?.['kube-proxy-replacement'],
    ).toBe('false');
  });
});

describe('cilium-dbg service list', () => {
  const out = agent('service list').stdout;
  const lines = out.split('\n');

  it('prints service_list.go header, tab-aligned', () => {
    expect(lines[0]).toMatch(/^Frontend {3,}Service Type {3}Backend {3,}$/);
    // Every Backend cell starts at the same column.
    const col = lines[0]!.indexOf('Backend');
    for (const l of lines.slice(1).filter((x) => x.includes('=>'))) expect(l.indexOf('=>')).toBe(col + 2);
  });

  it('lists the echo ClusterIP with the backends the engine routes to', () => {
    const ip = clusterIP(cluster, 'echo');
    const i = lines.findIndex((l) => l.startsWith(`${ip}:80/TCP `));
    expect(i).toBeGreaterThan(0);
    const backends = [lines[i]!, lines[i + 1]!].map((l) => /\d+ => (\S+) \(active\)/.exec(l)?.[1]);
    const pods = ['echo-a', 'echo-b'].map(
      (n) => `${cluster.store.get('pods', 'default', n)?.status?.podIP}:8080/TCP`,
    );
    expect(new Set(backends)).toEqual(new Set(pods));
    // The engine's own connection lands on one of them.
    const r = exec(cluster, 'curl', `curl -s http://${ip}/hostname`);
    expect(['echo-a', 'echo-b']).toContain(r.stdout.trim());
  });

  it('has NodePort frontends on 0.0.0.0 and the node address with kube-proxy replacement', () => {
    expect(out).toMatch(/^0\.0\.0\.0:\d+\/TCP +NodePort +1 => /m);
    expect(out).toMatch(
      new RegExp(`^${(nodeIP ?? '').replace(/\./g, '\\.')}:\\d+/TCP +NodePort +1 => `, 'm'),
    );
  });
});

describe('cilium-dbg bpf lb list', () => {
  it('prints the service entry in slot 0, then one slot per backend', () => {
    const out = agent('bpf lb list').stdout;
    expect(out.split('\n')[0]).toMatch(/^SERVICE ADDRESS {3,}BACKEND ADDRESS \(REVNAT_ID\) \(SLOT\) {3,}$/);
    const ip = clusterIP(cluster, 'echo');
    const m = new RegExp(
      `^${ip.replace(/\./g, '\\.')}:80/TCP +0\\.0\\.0\\.0:0 \\((\\d+)\\) \\(0\\) \\[ClusterIP, non-routable\\]`,
      'm',
    ).exec(out);
    expect(m).not.toBeNull();
    expect(out).toContain(`:8080/TCP (${m?.[1]}) (1)`);
    expect(out).toContain(`:8080/TCP (${m?.[1]}) (2)`);
  });
});

describe('cilium-dbg endpoint list', () => {
  it('prints the two header lines and turns ingress enforcement on once a policy selects the pod', () => {
    const before = agent('endpoint list').stdout.split('\n');
    expect(before[0]).toMatch(
      /^ENDPOINT {3}POLICY \(ingress\) {3}POLICY \(egress\) {3}IDENTITY {3}LABELS \(source:key\[=value\]\) +IPv6 {3}IPv4 +STATUS {3}$/,
    );
    expect(before[1]).toMatch(/^ {11}ENFORCEMENT {8}ENFORCEMENT {7}/);
    expect(before.some((l) => /^\d+ +Disabled +Disabled +1 +reserved:host/.test(l))).toBe(true);
    const ip = cluster.store.get('pods', 'default', 'echo-a')?.status?.podIP ?? '';
    const row = () =>
      agent('endpoint list')
        .stdout.split('\n')
        .find((l) => l.includes(` ${ip} `)) ?? '';
    expect(row()).toMatch(/^\d+ +Disabled +Disabled +\d+ +k8s:app=echo /);
    apply(cluster, [
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'deny', namespace: 'default' },
        spec: { podSelector: { matchLabels: { app: 'echo' } }, policyTypes: ['Ingress'] },
      },
    ]);
    expect(row()).toMatch(/^\d+ +Enabled +Disabled +\d+ +k8s:app=echo /);
  });
});

describe('cilium-dbg errors and status', () => {
  it('words an unknown command as cobra does', () => {
    const r = agent('frobnicate');
    expect(r.stderr).toContain(
      'Error: unknown command "frobnicate" for "cilium-dbg"\nRun \'cilium-dbg --help\' for usage.\n',
    );
    expect(r.exitCode).not.toBe(0);
  });

  it('status reports kube-proxy replacement and the tunnel', () => {
    const out = agent('status').stdout;
    expect(out).toMatch(/^KubeProxyReplacement: {4}True {3}\[eth0 /m);
    expect(out).toMatch(/^Routing: {17}Network: Tunnel \[vxlan\] {3}Host: Legacy$/m);
    expect(agent('status --brief').stdout).toBe('OK\n');
  });
});
