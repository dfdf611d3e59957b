/**
 * portmap's hostPort rules. The goldens are the rules containernetworking/plugins v1.9.1
 * plugins/meta/portmap/portmap_iptables.go writes, issued with its arguments to Debian's iptables
 * 1.8.9 and printed by iptables-save (scripts/capture-portmap-goldens.sh); the chain name is
 * utils.MustFormatChainNameWithPrefix's sha512, computed there by sha512sum.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../../cluster/cluster.ts';
import { apply } from '../../network/test-helpers.ts';
import { iptablesSave } from '../iptables-save.ts';
import { emptyRuleset } from '../ruleset.ts';
import { mergeCniChains } from './chain-set.ts';
import { dnatChainName, portmapChains, type SandboxPorts } from './portmap.ts';

const golden = (name: string) =>
  readFileSync(new URL(`../../../../../test/unit/testdata/portmap/${name}`, import.meta.url), 'utf8');

const ID = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

/** The nat table as iptables-save prints it, built-in chain policies left out (as in the goldens). */
function natLines(network: string, sandbox: SandboxPorts): string {
  const rs = mergeCniChains(emptyRuleset(), [portmapChains(network, [sandbox])]);
  return (
    iptablesSave(rs, { table: 'nat' })
      .split('\n')
      .filter((l) => /^(:|-A)/.test(l) && !/^:(PREROUTING|INPUT|OUTPUT|POSTROUTING) /.test(l))
      .join('\n') + '\n'
  );
}

/** nginx on kind-worker with hostPort 8080 → 80. */
const HOST_PORT_POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    nodeName: 'kind-worker',
    containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }],
  },
};

function clusterWith(cni: string) {
  return createCluster(`kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  cni: ${cni}\n`, {
    seed: 5,
  });
}

describe('portmap (hostPort)', () => {
  it('names the sandbox chain CNI-DN- + sha512(network + container id), 28 characters', () => {
    expect(dnatChainName('cbr0', ID)).toBe('CNI-DN-65299167c7285b471ffb1');
    expect(dnatChainName('k8s-pod-network', ID)).toHaveLength(28);
  });

  it('writes a bridge pod’s chains as the real iptables-save prints them', () => {
    const sandbox: SandboxPorts = {
      containerId: ID,
      podIP: '10.244.1.5',
      podPrefix: 24,
      mappings: [{ hostPort: 8080, containerPort: 80, protocol: 'tcp' }],
    };
    expect(natLines('cbr0', sandbox)).toBe(golden('bridge.nat.txt'));
  });

  it('writes one multiport entry per protocol for a routed /32 pod', () => {
    const sandbox: SandboxPorts = {
      containerId: ID,
      podIP: '10.244.1.7',
      podPrefix: 32,
      mappings: [
        { hostPort: 8080, containerPort: 80, protocol: 'tcp' },
        { hostPort: 5353, containerPort: 53, protocol: 'udp' },
      ],
    };
    expect(natLines('k8s-pod-network', sandbox)).toBe(golden('routed.nat.txt'));
  });

  for (const cni of ['flannel', 'calico', 'kindnet'] as const)
    it(`${cni}: curl to the node IP on the hostPort reaches the pod`, () => {
      const cluster = clusterWith(cni);
      expect(
        cluster.execSync('curl -s -m 2 -o /dev/null -w "%{http_code}" http://172.18.0.3:8080/').stdout,
      ).toBe('000');
      apply(cluster, [HOST_PORT_POD]);
      const r = cluster.execSync('curl -s -m 2 -o /dev/null -w "%{http_code}" http://172.18.0.3:8080/');
      expect(r.stdout).toBe('200');
      // Another node's address does not map the port.
      expect(
        cluster.execSync('curl -s -m 2 -o /dev/null -w "%{http_code}" http://172.18.0.4:8080/').stdout,
      ).toBe('000');
    });

  it('cilium maps hostPorts in eBPF: no portmap chains', () => {
    const cluster = clusterWith('cilium');
    apply(cluster, [HOST_PORT_POD]);
    cluster.execSync('kubectl debug node/kind-worker -it --profile=general --image=nicolaka/netshoot', {
      interactive: true,
    });
    const nat = cluster.execSync('iptables-save -t nat', { interactive: true }).stdout;
    expect(nat).toContain('-j KUBE-SERVICES');
    expect(nat).not.toContain('CNI-HOSTPORT');
  });
});
