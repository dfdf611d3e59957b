/**
 * A real Linux kernel as the dataplane's oracle (issue "Real workflows"). The simulated kind cluster's
 * own `iptables-save` and `nft list ruleset`, read on each node the way a learner does it
 * (`kubectl debug node/NAME -it --image=busybox`, then `chroot /host`), are loaded with Debian's
 * iptables-restore / nft -f into network namespaces rebuilt from the cluster's addresses
 * (./kernel-oracle/topology.ts). The kernel must accept every line and list it back unchanged, and real
 * connections through those rules must land where the engine says: the endpoints a ClusterIP
 * spreads over (the statistic split within tolerance), the source address a backend sees after
 * kube-proxy's and flannel's SNAT, the drop of a NodePort with no local endpoint, the reject of a
 * Service with none.
 *
 * The oracle's tools are Debian 12's: iptables 1.8.9 (nf_tables), nft 1.0.6, the versions kind's
 * bookworm-based node images carry. nft 1.0.6 accepts the `dstnat` priority name only on the
 * prerouting hook, while kube-proxy v1.35 writes it on output too (pkg/proxy/nftables/proxier.go,
 * `priority dstnat` for the output chains, loaded by the newer nft in its image), so the input is
 * adapted to the numbers (-100, -110) before loading; everything else is loaded as printed.
 *
 * Needs root and network namespaces; elsewhere it prints one line saying why it did not run. `.ci/run`
 * sets PACKETPATH_KERNEL_ORACLE=required, which turns that skip into a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/engine/index.ts';
import { apply, scenario, service } from '../../src/engine/dataplane/network/test-helpers.ts';
import { IPSETS } from '../../src/engine/dataplane/proxy/ipvs/ipsets.ts';
import { kernelOracleUnavailable, Namespaces } from './kernel-oracle/netns.ts';
import {
  buildTopology,
  CLIENT_PY,
  NETEXEC_PY,
  type NodeSpec,
  type PodSpec,
  type Topology,
} from './kernel-oracle/topology.ts';

const why = kernelOracleUnavailable();
if (why) {
  if (process.env.PACKETPATH_KERNEL_ORACLE === 'required')
    throw new Error(`kernel oracle required but cannot run: ${why}`);
  console.log(`kernel-oracle: skipped, ${why}`);
}

/** A line as the learner types it on their machine. */
function sh(c: Cluster, line: string): { stdout: string; stderr: string; exitCode: number } {
  return c.execSync(line);
}

/** What a command prints on a node's own root: a busybox debug pod, then `chroot /host`. */
function onNode(c: Cluster, node: string, lines: readonly string[]): string[] {
  const run = (line: string) => c.execSync(line, { interactive: true });
  run(`kubectl debug node/${node} -it --image=busybox`);
  run('chroot /host');
  const out = lines.map((l) => {
    const r = run(l);
    if (r.exitCode !== 0) throw new Error(`${l} on ${node}: ${r.stderr}`);
    return r.stdout;
  });
  run('exit');
  run('exit');
  return out;
}

function jsonpathRows(c: Cluster, line: string): string[][] {
  return sh(c, line)
    .stdout.split('\n')
    .filter(Boolean)
    .map((row) => row.split(' '));
}

function nodesOf(c: Cluster): NodeSpec[] {
  return jsonpathRows(
    c,
    `kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.status.addresses[?(@.type=="InternalIP")].address} {.spec.podCIDR}{"\\n"}{end}'`,
  ).map(([name, ip, podCIDR]) => ({ name: name!, ip: ip!, podCIDR: podCIDR! }));
}

function podsOf(c: Cluster, names: readonly string[]): PodSpec[] {
  const all = jsonpathRows(
    c,
    `kubectl get pods -o jsonpath='{range .items[*]}{.metadata.name} {.spec.nodeName} {.status.podIP}{"\\n"}{end}'`,
  ).map(([name, node, ip]) => ({ name: name!, node: node!, ip: ip! }));
  return names.map((n) => all.find((p) => p.name === n)!);
}

function field(c: Cluster, line: string): string {
  return sh(c, line).stdout.trim();
}

/**
 * Lines without iptables-save's dated `# Generated/Completed` comments, and with the built-in chains'
 * packet counters zeroed: the kernel's move as soon as the namespaces' interfaces come up (an IGMP
 * report, 40 bytes, leaves through OUTPUT and POSTROUTING a moment after cni0 is up).
 */
const withoutDates = (save: string) =>
  save
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .map((l) => l.replace(/^(:\S+ \S+) \[\d+:\d+\]$/, '$1 [0:0]'))
    .join('\n');

/** nft 1.0.6 takes `dstnat` only at prerouting: the output hook's priorities as numbers. */
const forNft106 = (ruleset: string) =>
  ruleset
    .replace(/(hook output priority )dstnat - 10;/g, '$1-110;')
    .replace(/(hook output priority )dstnat;/g, '$1-100;');

const IP_OF = /^(\d+\.\d+\.\d+\.\d+):\d+$/;

for (const mode of ['iptables', 'nftables'] as const) {
  describe.skipIf(why !== undefined)(`flannel with kube-proxy in ${mode} mode, on a real kernel`, () => {
    const ns = new Namespaces();
    let c: Cluster;
    let topo: Topology;
    let nodes: NodeSpec[];
    const rules = new Map<string, string>();
    /** What the kernel lists right after loading, before any traffic moves its counters. */
    const listed = new Map<string, string>();

    beforeAll(() => {
      c = scenario('flannel', mode, 41);
      // One backend each, so the source a backend sees can be compared request by request.
      apply(c, [
        service('only-a', { run: 'echo-a' }, 80, 8080, { type: 'NodePort' }),
        service('only-b', { run: 'echo-b' }, 80, 8080, { type: 'NodePort' }),
        service('only-b-local', { run: 'echo-b' }, 80, 8080, {
          type: 'NodePort',
          externalTrafficPolicy: 'Local',
        }),
        service('nobody', { app: 'nobody' }, 80, 8080),
      ]);
      nodes = nodesOf(c);
      const list = mode === 'iptables' ? 'iptables-save' : 'nft list ruleset';
      for (const node of nodes) rules.set(node.name, onNode(c, node.name, [list])[0]!);
      topo = buildTopology(ns, nodes, podsOf(c, ['curl', 'echo-a', 'echo-b']));
      for (const [pod, port] of [
        ['echo-a', 8080],
        ['echo-b', 8080],
      ] as const)
        ns.background(topo.pods.get(pod)!, ['python3', '-c', NETEXEC_PY, pod, String(port)]);
      for (const node of nodes) {
        const nsName = topo.nodes.get(node.name)!;
        const text = rules.get(node.name)!;
        if (mode === 'iptables') ns.exec(nsName, 'iptables-restore', text);
        else ns.exec(nsName, 'nft -f -', forNft106(text));
        listed.set(node.name, ns.exec(nsName, mode === 'iptables' ? 'iptables-save' : 'nft list ruleset'));
      }
      // Wait until both servers listen.
      for (const pod of ['echo-a', 'echo-b'])
        ns.exec(
          topo.pods.get(pod)!,
          'for i in $(seq 50); do python3 -c "import socket; socket.create_connection((\'127.0.0.1\', 8080), 0.2)" 2>/dev/null && exit 0; sleep 0.1; done; exit 1',
        );
    }, 120_000);
    afterAll(() => ns.destroy());

    it("the kernel accepts every node's rules and lists them back unchanged", () => {
      for (const node of nodes) {
        const ours = rules.get(node.name)!;
        const kernel = listed.get(node.name)!;
        if (mode === 'iptables') expect(withoutDates(kernel), node.name).toBe(withoutDates(ours));
        else expect(kernel, node.name).toBe(forNft106(ours));
      }
    });

    /** Requests from a namespace through the kernel, one new connection each. */
    const request = (from: string, host: string, port: number, path: string, count: number) =>
      ns
        .exec(
          from,
          `python3 -c "$CLIENT" ${host} ${port} ${path} ${count}`.replace(
            '$CLIENT',
            CLIENT_PY.replace(/"/g, '\\"'),
          ),
        )
        .split('\n')
        .filter(Boolean);

    it('spreads ClusterIP connections over the endpoints the engine names, at its probabilities', () => {
      const ip = field(c, 'kubectl get svc echo -o jsonpath={.spec.clusterIP}');
      const answers = request(topo.pods.get('curl')!, ip, 80, '/hostname', 200);
      const counts = new Map<string, number>();
      for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
      // The engine: the same two endpoints, chosen 1 in 2 (iptables' statistic 0.5, nft's numgen mod 2).
      const engineSaw = new Set(
        Array.from({ length: 20 }, () => sh(c, 'kubectl exec curl -- curl -s echo/hostname').stdout),
      );
      expect(new Set(counts.keys())).toEqual(engineSaw);
      expect(engineSaw).toEqual(new Set(['echo-a', 'echo-b']));
      // 200 draws at p = 0.5: a share outside 35–65 % is a 4-sigma event.
      expect(counts.get('echo-a')!).toBeGreaterThan(70);
      expect(counts.get('echo-a')!).toBeLessThan(130);
    });

    it('keeps the client pod as the source a backend sees through a ClusterIP (no SNAT)', () => {
      const ip = field(c, 'kubectl get svc only-b -o jsonpath={.spec.clusterIP}');
      const [kernel] = request(topo.pods.get('curl')!, ip, 80, '/clientip', 1);
      const engine = sh(c, 'kubectl exec curl -- curl -s only-b/clientip').stdout;
      expect(IP_OF.exec(kernel!)?.[1]).toBe(IP_OF.exec(engine)?.[1]);
    });

    for (const [svc, nodeIndex, what] of [
      ['only-a', 1, 'to a backend on the same node'],
      ['only-b', 1, 'to a backend on another node'],
      ['only-b-local', 2, 'with externalTrafficPolicy Local'],
    ] as const) {
      it(`gives a NodePort backend the source the engine says, ${what}`, () => {
        const node = nodes[nodeIndex]!;
        const port = Number(field(c, `kubectl get svc ${svc} -o jsonpath={.spec.ports[0].nodePort}`));
        const [kernel] = request(topo.host, node.ip, port, '/clientip', 1);
        const engine = sh(c, `curl -s -m 2 ${node.ip}:${port}/clientip`).stdout;
        expect(IP_OF.exec(engine)?.[1], `engine said ${engine}`).toBe(IP_OF.exec(kernel!)?.[1]);
      });
    }

    it("keeps, in the entry node's conntrack, the reply tuple to the source the backend saw", () => {
      const node = nodes[1]!;
      const port = Number(field(c, 'kubectl get svc only-b -o jsonpath={.spec.ports[0].nodePort}'));
      const reply = (line: string) => {
        const m = / src=\S+ dst=\S+ sport=\d+ dport=\d+ .*?src=(\S+) dst=(\S+) sport=(\d+) dport=(\d+)/.exec(
          line,
        );
        return m ? `${m[2]}:${m[4]}` : `no entry in ${JSON.stringify(line)}`;
      };
      // Earlier tests left entries for this NodePort: start from an empty table.
      ns.exec(topo.nodes.get(node.name)!, 'conntrack -F 2>/dev/null');
      const kernelSaw = request(topo.host, node.ip, port, '/clientip', 1)[0]!;
      const kernelEntry = ns.exec(
        topo.nodes.get(node.name)!,
        `conntrack -L -p tcp --dport ${port} 2>/dev/null`,
      );
      expect(reply(kernelEntry)).toBe(kernelSaw);
      const engineSaw = sh(c, `curl -s -m 2 ${node.ip}:${port}/clientip`).stdout;
      const engineEntry = onNode(c, node.name, [`conntrack -L -p tcp --dport ${port}`])[0]!;
      // Earlier curls left entries too: one of them is this connection's.
      expect(engineEntry.split('\n').filter(Boolean).map(reply)).toContain(engineSaw);
    });

    it('drops a NodePort with externalTrafficPolicy Local on a node without an endpoint', () => {
      const port = Number(field(c, 'kubectl get svc only-b-local -o jsonpath={.spec.ports[0].nodePort}'));
      const worker = nodes[1]!;
      expect(request(topo.host, worker.ip, port, '/clientip', 1)).toEqual(['timeout']);
      expect(sh(c, `curl -s -m 2 ${worker.ip}:${port}/clientip`).exitCode).toBe(28);
    });

    it('rejects a connection to a Service without endpoints', () => {
      const ip = field(c, 'kubectl get svc nobody -o jsonpath={.spec.clusterIP}');
      expect(request(topo.pods.get('curl')!, ip, 80, '/', 1)).toEqual(['refused']);
      expect(sh(c, 'kubectl exec curl -- curl -s -m 2 nobody').exitCode).toBe(7);
    });
  });
}

/**
 * The ipsets a node's rules match, created as their owners create them: kube-proxy's IPVS sets with
 * the types of pkg/proxy/ipvs/ipset.go, Felix's as hash:net (its all-hosts and IPAM-pool sets).
 */
function ipsetCommands(rules: string): string {
  const names = new Set([...rules.matchAll(/--match-set (\S+)/g)].map((m) => m[1]!));
  return [...names]
    .map((name) => {
      const type = IPSETS.find((d) => d.name === name)?.type ?? 'hash:net';
      return `create ${name} ${type}${type === 'bitmap:port' ? ' range 0-65535' : ''}`;
    })
    .join('\n');
}

for (const [cni, mode] of [
  ['calico', 'iptables'],
  ['cilium', 'none'],
  ['flannel', 'ipvs'],
] as const) {
  describe.skipIf(why !== undefined)(`${cni} with kube-proxy ${mode}: iptables-save on a real kernel`, () => {
    const ns = new Namespaces();
    afterAll(() => ns.destroy());

    it("every node's rules load with iptables-restore and list back unchanged", () => {
      const c = scenario(cni, mode, 43);
      nodesOf(c).forEach((node, i) => {
        const ours = onNode(c, node.name, ['iptables-save'])[0]!;
        const nsName = ns.add(`r${i}`);
        const sets = ipsetCommands(ours);
        if (sets) ns.exec(nsName, 'ipset restore', sets + '\n');
        ns.exec(nsName, 'iptables-restore', ours);
        expect(withoutDates(ns.exec(nsName, 'iptables-save')), node.name).toBe(withoutDates(ours));
      });
    }, 120_000);
  });
}
