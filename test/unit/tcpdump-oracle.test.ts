/**
 * The simulated tcpdump against Debian's: traffic the engine models (DNS through the search list, HTTP
 * to a ClusterIP, VXLAN between nodes, a NodePort from outside with ETP Cluster and Local, a policy
 * drop, a refused port, kube-proxy's REJECT) is captured twice at once, printed live and written with
 * -w; Debian's `tcpdump -nn -r` must print exactly the live lines from the pcap, and `tshark` must
 * dissect every frame without a malformed packet and find the fields the engine modelled.
 *
 * Skipped, with one printed line, when tcpdump or tshark is not installed (.ci/run installs them).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/engine/cluster/cluster.ts';
import type { ExecResult, SessionFiles } from '../../src/engine/shell/types.ts';
import { externalClientIP } from '../../src/engine/dataplane/network/view.ts';
import { resolveImage } from '../../src/engine/node/images.ts';
import { podToolContext } from '../../src/engine/dataplane/tools/tool-context.ts';
import { tcpdumpCommand } from '../../src/engine/dataplane/tools/tcpdump.ts';
import { fromBinaryString } from '../../src/engine/dataplane/capture/pcap.ts';
import {
  apply,
  clusterIP,
  nodePort,
  podIP,
  scenario,
  service,
} from '../../src/engine/dataplane/network/test-helpers.ts';

function installed(tool: string): boolean {
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
}

const haveTools = installed('tcpdump') && installed('tshark');
if (!haveTools) console.log('tcpdump-oracle: skipped, Debian tcpdump or tshark not installed');

const dir = mkdtempSync(join(tmpdir(), 'pp-tcpdump-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A session's files in memory: where tcpdump -w writes the pcap the test hands to the real tools. */
function memoryFiles(): SessionFiles & { readonly data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    cwd: '/',
    home: '/root',
    resolve: (p) => p,
    stat: (p) => (data.has(p) ? 'file' : undefined),
    read: (p) => (data.has(p) ? { content: data.get(p)! } : { error: 'ENOENT' }),
    write: (p, content) => {
      data.set(p, content);
      return undefined;
    },
    remove: (p) => (data.delete(p) ? undefined : 'ENOENT'),
    mkdir: () => undefined,
    list: () => [...data.keys()],
  };
}

/**
 * Runs tcpdump in `podName` in the background twice (live and -w), makes the traffic, waits for both,
 * as two terminals on a real cluster would. Returns the live lines and the pcap bytes.
 */
function capture(
  cluster: Cluster,
  podName: string,
  args: readonly string[],
  traffic: () => void,
): { live: string; pcap: Uint8Array; stderr: string } {
  const p = cluster.store.get('pods', 'default', podName)!;
  const image = resolveImage(p.spec!.containers[0]!.image!);
  if (image.kind !== 'ok') throw new Error(`no profile for ${podName}`);
  const ctx = podToolContext(cluster, p, 'main', image.profile);
  const files = memoryFiles();
  const io = {
    stdin: '',
    env: {},
    context: { kind: 'host' as const },
    interactive: false,
    files,
    background: true,
  };
  const run = tcpdumpCommand(ctx);
  const live = run(['tcpdump', ...args], io);
  const written = run(['tcpdump', ...args, '-w', '/cap.pcap'], io);
  expect(live.job, live.stderr).toBeDefined();
  traffic();
  const shown: ExecResult = live.job!.finish();
  written.job!.finish();
  return {
    live: shown.stdout,
    pcap: fromBinaryString(files.data.get('/cap.pcap') ?? ''),
    stderr: live.stderr,
  };
}

function realRead(pcap: Uint8Array, name: string, extra: readonly string[] = []): string {
  const file = join(dir, `${name}.pcap`);
  writeFileSync(file, pcap);
  return execFileSync('tcpdump', ['-nn', ...extra, '-r', file], {
    env: { ...process.env, TZ: 'UTC' },
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
}

function tshark(pcap: Uint8Array, name: string, fields: readonly string[], filter?: string): string[] {
  const file = join(dir, `${name}.pcap`);
  writeFileSync(file, pcap);
  const args = [
    '-r',
    file,
    '-d',
    'udp.port==8472,vxlan',
    '-T',
    'fields',
    ...fields.flatMap((f) => ['-e', f]),
  ];
  if (filter) args.push('-Y', filter);
  return execFileSync('tshark', args, { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .split('\n')
    .filter(Boolean);
}

function malformed(pcap: Uint8Array, name: string): number {
  return tshark(pcap, name, ['frame.number'], '_ws.malformed || _ws.expert.severity == "error"').length;
}

function hostNetworkNetshoot(node: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'nodeshoot', namespace: 'default' },
    spec: {
      nodeName: node,
      hostNetwork: true,
      containers: [{ name: 'main', image: 'nicolaka/netshoot', command: ['sleep', '3600'] }],
    },
  };
}

const counts = { lines: 0, pcaps: 0 };
afterAll(() => {
  if (haveTools)
    console.log(
      `tcpdump-oracle: ${counts.lines} live lines equal Debian tcpdump -r over ${counts.pcaps} pcaps`,
    );
});

function agree(name: string, c: { live: string; pcap: Uint8Array }, extra: readonly string[] = []): void {
  const real = realRead(c.pcap, name, extra);
  expect(c.live).toBe(real);
  expect(malformed(c.pcap, name)).toBe(0);
  counts.lines += real.split('\n').filter(Boolean).length;
  counts.pcaps++;
}

function exec(cluster: Cluster, line: string): void {
  cluster.execSync(line);
}

describe.skipIf(!haveTools)('tcpdump against Debian tcpdump and tshark', { timeout: 120_000 }, () => {
  const flannel = scenario('flannel', 'iptables', 41);
  apply(flannel, [
    hostNetworkNetshoot('kind-worker2'),
    service('local-np', { app: 'echo' }, 80, 8080, { type: 'NodePort', externalTrafficPolicy: 'Local' }),
  ]);

  it('DNS through the search list, then HTTP to a ClusterIP, on the client pod eth0', () => {
    const c = capture(flannel, 'netshoot', ['-i', 'eth0', '-nn'], () =>
      exec(flannel, 'kubectl exec netshoot -- curl -s http://server/'),
    );
    agree('dns-http', c);
    const names = tshark(c.pcap, 'dns-http', ['dns.qry.name'], 'dns.flags.response == 0');
    expect(names).toContain('server.default.svc.cluster.local');
    const flags = tshark(c.pcap, 'dns-http', ['tcp.flags.str'], 'tcp').map((f) => f.replace(/·/g, ''));
    expect(flags[0]).toMatch(/S/);
    expect(flags).toContain('AP');
    expect(c.live).toContain(`> ${clusterIP(flannel, 'server')}.80: Flags [S]`);
    expect(c.live).toContain('> 10.96.0.10.53: ');
  });

  it('the search list of ndots:5 for an external name, each candidate a query', () => {
    const c = capture(flannel, 'netshoot', ['-i', 'eth0', '-nn', 'udp', 'port', '53'], () =>
      exec(flannel, 'kubectl exec netshoot -- curl -s -m 2 http://api.exemplo.com/'),
    );
    agree('search-list', c);
    const names = tshark(c.pcap, 'search-list', ['dns.qry.name'], 'dns.flags.response == 0');
    expect(names).toEqual(
      expect.arrayContaining([
        'api.exemplo.com.default.svc.cluster.local',
        'api.exemplo.com.svc.cluster.local',
        'api.exemplo.com.cluster.local',
        'api.exemplo.com',
      ]),
    );
  });

  it("VXLAN between nodes on the server node's eth0, with flannel's VNI and the pod addresses inside", () => {
    const target = podIP(flannel, 'server-b');
    const c = capture(flannel, 'nodeshoot', ['-i', 'eth0', '-nn', 'udp', 'port', '8472'], () =>
      exec(flannel, `kubectl exec netshoot -- curl -s http://${target}/`),
    );
    agree('vxlan', c);
    const rows = tshark(c.pcap, 'vxlan', ['vxlan.vni', 'ip.src']);
    expect(rows.length).toBeGreaterThan(0);
    // Outer source is a node, inner the client pod (tshark lists both ip.src values).
    expect(rows[0]).toMatch(
      new RegExp(`^1\\t172\\.18\\.0\\.\\d+,${podIP(flannel, 'netshoot').replace(/\./g, '\\.')}$`),
    );
    expect(c.live).toContain('OTV, flags [I] (0x08), overlay 0, instance 1');
  });

  it('a NodePort from outside: ETP Cluster hides the client behind the node, ETP Local keeps it', () => {
    const node2 = flannel.store.get('nodes', undefined, 'kind-worker2')!;
    const ip2 = node2.status!.addresses!.find((a) => a.type === 'InternalIP')!.address;
    const cluster = capture(flannel, 'nodeshoot', ['-i', 'any', '-nn', 'tcp'], () => {
      for (let i = 0; i < 4; i++)
        exec(flannel, `curl -s http://${ip2}:${nodePort(flannel, 'echo-np')}/clientip`);
    });
    expect(cluster.live).toContain(`${ip2}.${nodePort(flannel, 'echo-np')}: Flags [S]`);
    const local = capture(flannel, 'nodeshoot', ['-i', 'any', '-nn', 'tcp'], () =>
      exec(flannel, `curl -s http://${ip2}:${nodePort(flannel, 'local-np')}/clientip`),
    );
    const echoB = podIP(flannel, 'echo-b');
    // ETP Local: the packet on the pod's veth still comes from the outside client.
    const outside = externalClientIP(flannel.config).replace(/\./g, '\\.');
    expect(local.live).toMatch(
      new RegExp(`Out IP ${outside}\\.\\d+ > ${echoB.replace(/\./g, '\\.')}\\.8080: Flags \\[S\\]`),
    );
    // ETP Cluster: the pod sees the node that masqueraded (its own, or the other through the tunnel).
    expect(cluster.live).not.toMatch(new RegExp(`Out IP ${outside}\\.\\d+ > 10\\.244\\.`));
    expect(malformed(cluster.pcap, 'np-cluster')).toBe(0);
    expect(malformed(local.pcap, 'np-local')).toBe(0);
    counts.pcaps += 2;
  });

  it('a refused port: the SYN and the RST', () => {
    const target = podIP(flannel, 'server-a');
    const c = capture(flannel, 'netshoot', ['-i', 'eth0', '-nn', 'tcp'], () =>
      exec(flannel, `kubectl exec netshoot -- curl -s http://${target}:81/`),
    );
    agree('refused', c);
    expect(c.live).toMatch(/Flags \[R\.\], seq 0, ack \d+, win 0, length 0/);
  });

  it('a policy drop: the SYN retransmitted and never answered', () => {
    const calico = scenario('calico', 'iptables', 43);
    apply(calico, [
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'deny', namespace: 'default' },
        spec: { podSelector: { matchLabels: { app: 'server' } }, policyTypes: ['Ingress'] },
      },
    ]);
    const c = capture(calico, 'netshoot', ['-i', 'eth0', '-nn', 'tcp'], () =>
      exec(calico, `kubectl exec netshoot -- curl -s -m 10 http://${podIP(calico, 'server-b')}/`),
    );
    agree('policy-drop', c);
    const syns = c.live.split('\n').filter((l) => l.includes('Flags [S]'));
    expect(syns.length).toBeGreaterThanOrEqual(3);
    expect(c.live).not.toContain('Flags [S.]');
  });

  it('kube-proxy REJECT for a Service without endpoints: ICMP port unreachable from the node', () => {
    apply(flannel, [service('empty', { app: 'nothing' }, 80, 80)]);
    const c = capture(flannel, 'netshoot', ['-i', 'eth0', '-nn', '-v'], () =>
      exec(flannel, 'kubectl exec netshoot -- curl -s http://empty/'),
    );
    agree('reject', c, ['-v']);
    expect(c.live).toContain(`ICMP ${clusterIP(flannel, 'empty')} tcp port 80 unreachable`);
  });

  it("Calico's IP-in-IP and Cilium's VXLAN (8472, the source identity as VNI) on the server node's eth0", () => {
    for (const cni of ['calico', 'cilium'] as const) {
      const cl = scenario(cni, cni === 'cilium' ? 'none' : 'iptables', 44);
      apply(cl, [hostNetworkNetshoot('kind-worker2')]);
      const filter = cni === 'calico' ? ['ip', 'proto', '4'] : ['udp', 'port', '8472'];
      const c = capture(cl, 'nodeshoot', ['-i', 'eth0', '-nn', ...filter], () =>
        exec(cl, `kubectl exec netshoot -- curl -s http://${podIP(cl, 'server-b')}/`),
      );
      agree(`${cni}-tunnel`, c);
      const client = podIP(cl, 'netshoot');
      const rows = tshark(c.pcap, `${cni}-tunnel`, ['ip.src'], `ip.src == ${client}`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows[0]).toMatch(new RegExp(`^172\\.18\\.0\\.\\d+,${client.replace(/\./g, '\\.')}$`));
      if (cni === 'cilium') {
        const vnis = new Set(tshark(c.pcap, 'cilium-tunnel', ['vxlan.vni'], 'vxlan'));
        // Requests carry the client's identity, replies the server's: two VNIs from the 256+ range.
        expect(vnis.size).toBe(2);
        for (const v of vnis) expect(Number(v)).toBeGreaterThanOrEqual(256);
      }
    }
  });
});
