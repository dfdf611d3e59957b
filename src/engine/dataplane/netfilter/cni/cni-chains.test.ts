/**
 * The CNI agents' chains. Expected hashes come from real iptables-save captures of Calico nodes
 * (published write-ups of calico-node in iptables mode: the hooks `cali:Cz_u1IQiXIMmKD4c`,
 * `cali:wUHhoiAYhphO9Mso`, `cali:tVnHkvAo15HuiPy0`, the six rules of cali-FORWARD, a workload's
 * cali-tw-cali95aa86cbb2a with the policy chain cali-pi-_tTE-E7yY40ogArNVgKt of the k8s policy
 * default/allow-db-access) and of k3s nodes (kube-router's hook comments); kube-router's chain names
 * are checked against base32(sha256(namespace + name + version))[:16] computed independently (Python
 * hashlib for the fixed inputs below), as pod.go's podFirewallChainName/networkPolicyChainName do.
 */
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../../api/objects.ts';
import { createCluster, type Cluster } from '../../../cluster/cluster.ts';
import { felixChains, felixRule, felixRuleHashes, lengthLimitedId, policyChainName } from './felix.ts';
import { formatRule } from '../iptables-save.ts';
import { networkPolicyChainName, podFirewallChainName, ruleUuid, syncVersion } from './kube-router.ts';
import { apply, pod } from '../../network/test-helpers.ts';

function nodeShell(cluster: Cluster, node: string, line: string): string {
  cluster.execSync(`kubectl debug node/${node} -it --image=nicolaka/netshoot`, { interactive: true });
  const r = cluster.execSync(line, { interactive: true });
  cluster.execSync('exit', { interactive: true });
  return r.stdout;
}

describe('felix rule hashes (Chain.RuleHashes)', () => {
  it('reproduce the hooks of a real node', () => {
    expect(felixRuleHashes('INPUT', [felixRule([], { jump: 'cali-INPUT' })])).toEqual(['Cz_u1IQiXIMmKD4c']);
    expect(felixRuleHashes('FORWARD', [felixRule([], { jump: 'cali-FORWARD' })])).toEqual([
      'wUHhoiAYhphO9Mso',
    ]);
    expect(felixRuleHashes('OUTPUT', [felixRule([], { jump: 'cali-OUTPUT' })])).toEqual(['tVnHkvAo15HuiPy0']);
  });

  it('chain through the rules before them (cali-FORWARD)', () => {
    const rules = [
      felixRule([], { setMark: 0, mask: 0xe0000 }),
      felixRule([{ mark: 0, mask: 0x10000 }], { jump: 'cali-from-hep-forward' }),
      felixRule([{ in: 'cali+' }], { jump: 'cali-from-wl-dispatch' }),
      felixRule([{ out: 'cali+' }], { jump: 'cali-to-wl-dispatch' }),
      felixRule([], { jump: 'cali-to-hep-forward' }),
      felixRule([], { jump: 'cali-cidr-block' }),
    ];
    expect(felixRuleHashes('cali-FORWARD', rules)).toEqual([
      'vjrMJCRpqwy5oRoX',
      'A_sPAO0mcxbT9mOV',
      '8ZoYfO5HKXWbB3pk',
      'jdEuaPBe14V2hutn',
      '12bc6HljsMKsmfr-',
      'NOSxoaGx8OIstr1z',
    ]);
  });

  it('name a k8s policy chain and hash a workload chain that jumps to it', () => {
    const chain = policyChainName('ingress', 'allow-db-access');
    expect(chain).toBe('cali-pi-_tTE-E7yY40ogArNVgKt');
    expect(lengthLimitedId('cali-pri-', 'kns.default')).toBe('cali-pri-kns.default');
    const tw = [
      felixRule([{ ct: ['RELATED', 'ESTABLISHED'] }], { verdict: 'ACCEPT' }),
      felixRule([{ ct: ['INVALID'] }], { verdict: 'DROP' }),
      felixRule([], { setMark: 0, mask: 0x10000 }),
      felixRule([], { setMark: 0, mask: 0x20000 }, ['Start of policies']),
      felixRule([{ mark: 0, mask: 0x20000 }], { jump: chain }),
      felixRule([{ mark: 0x10000, mask: 0x10000 }], { verdict: 'RETURN' }, ['Return if policy accepted']),
      felixRule([{ mark: 0, mask: 0x20000 }], { verdict: 'DROP' }, ['Drop if no policies passed packet']),
    ];
    expect(felixRuleHashes('cali-tw-cali95aa86cbb2a', tw)).toEqual([
      'eCrqwxNk3cKw9Eq6',
      '_krp5nzavhAu5avJ',
      'Cu-tVtfKKu413YTT',
      'leBL64hpAXM9y4nk',
      'pm-LK-c1ra31tRwz',
      'q_zG8dAujKUIBe0Q',
      'FUDVBYh1Yr6tVRgq',
    ]);
  });
});

describe('felix raw and mangle chains (StaticRawTableChains / StaticMangleTableChains)', () => {
  const sets = (encapsulation: 'ipip' | 'vxlan') =>
    felixChains({ node: 'kind-worker', pods: [], policies: [], encapsulation });
  const chain = (encapsulation: 'ipip' | 'vxlan', table: string, name: string) =>
    sets(encapsulation)
      .filter((c) => c.table === table && c.chain === name)
      .flatMap((c) => c.rules.map((r) => formatRule(name, r)));

  // The hashes below are those of published iptables-save dumps of calico-node's raw table (IPIP,
  // no host endpoints); the rules come from felix 3.29 rules/static.go with the default mark mask.
  it('raw: hooks, cali-PREROUTING (mark clear, workload mark, RPF check, untracked HEP policy), cali-OUTPUT', () => {
    expect(chain('ipip', 'raw', 'PREROUTING')).toEqual([
      '-A PREROUTING -m comment --comment "cali:6gwbT8clXdHdC1b1" -j cali-PREROUTING',
    ]);
    expect(chain('ipip', 'raw', 'OUTPUT')).toEqual([
      '-A OUTPUT -m comment --comment "cali:tVnHkvAo15HuiPy0" -j cali-OUTPUT',
    ]);
    expect(chain('ipip', 'raw', 'cali-PREROUTING')).toEqual([
      '-A cali-PREROUTING -m comment --comment "cali:XFX5xbM8B9qR10JG" -j MARK --set-xmark 0x0/0xf0000',
      '-A cali-PREROUTING -i cali+ -m comment --comment "cali:EWMPb0zVROM-woQp" -j MARK --set-xmark 0x40000/0x40000',
      '-A cali-PREROUTING -m comment --comment "cali:PWuxTAIaFCtsg5Qa" -m mark --mark 0x40000/0x40000 -j cali-rpf-skip',
      '-A cali-PREROUTING -m comment --comment "cali:fSSbGND7dgyemWU7" -m mark --mark 0x40000/0x40000 -m rpfilter --validmark --invert -j DROP',
      '-A cali-PREROUTING -m comment --comment "cali:ImU0-4Rl2WoOI9Ou" -m mark --mark 0x0/0x40000 -j cali-from-host-endpoint',
      '-A cali-PREROUTING -m comment --comment "cali:lV4V2MPoMBf0hl9T" -m mark --mark 0x10000/0x10000 -j ACCEPT',
    ]);
    expect(chain('ipip', 'raw', 'cali-OUTPUT')).toEqual([
      '-A cali-OUTPUT -m comment --comment "cali:njdnLwYeGqBJyMxW" -j MARK --set-xmark 0x0/0xf0000',
      '-A cali-OUTPUT -m comment --comment "cali:rz86uTUcEZAfFsh7" -j cali-to-host-endpoint',
      '-A cali-OUTPUT -m comment --comment "cali:pN0F5zD0b8yf9W1Z" -m mark --mark 0x10000/0x10000 -j ACCEPT',
    ]);
    const own = sets('ipip')
      .filter((c) => c.table === 'raw' && c.position === 'own' && c.rules.length === 0)
      .map((c) => c.chain);
    expect(own).toEqual(['cali-from-host-endpoint', 'cali-to-host-endpoint', 'cali-rpf-skip']);
  });

  it('raw with VXLAN: the tunnel flows are not tracked, in both directions', () => {
    const notrack = (name: string) => chain('vxlan', 'raw', name).filter((l) => l.endsWith('-j NOTRACK'));
    expect(notrack('cali-PREROUTING')).toEqual([
      expect.stringMatching(
        /^-A cali-PREROUTING -p udp -m comment --comment "cali:[\w-]{16}" -m udp --dport 4789 -j NOTRACK$/,
      ),
    ]);
    expect(chain('vxlan', 'raw', 'cali-PREROUTING')[1]).toBe(notrack('cali-PREROUTING')[0]);
    expect(chain('vxlan', 'raw', 'cali-OUTPUT')[2]).toBe(notrack('cali-OUTPUT')[0]);
  });

  it('mangle: hooks into PREROUTING and POSTROUTING, then the static chains', () => {
    expect(chain('ipip', 'mangle', 'POSTROUTING')).toEqual([
      '-A POSTROUTING -m comment --comment "cali:O3lYWMrLQYEMJtB5" -j cali-POSTROUTING',
    ]);
    const strip = (l: string) => l.replace(/ -m comment --comment "cali:[\w-]{16}"/, '');
    expect(chain('ipip', 'mangle', 'cali-PREROUTING').map(strip)).toEqual([
      '-A cali-PREROUTING -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
      '-A cali-PREROUTING -m mark --mark 0x10000/0x10000 -j ACCEPT',
      '-A cali-PREROUTING -j cali-from-host-endpoint',
      '-A cali-PREROUTING -m comment --comment "Host endpoint policy accepted packet." -m mark --mark 0x10000/0x10000 -j ACCEPT',
    ]);
    expect(chain('ipip', 'mangle', 'cali-POSTROUTING').map(strip)).toEqual([
      '-A cali-POSTROUTING -m mark --mark 0x10000/0x10000 -j RETURN',
      '-A cali-POSTROUTING -j MARK --set-xmark 0x0/0xf0000',
      '-A cali-POSTROUTING -m conntrack --ctstate DNAT -j cali-to-host-endpoint',
      '-A cali-POSTROUTING -m comment --comment "Host endpoint policy accepted packet." -m mark --mark 0x10000/0x10000 -j RETURN',
    ]);
  });
});

describe('Calico node: iptables-save shows felix chains from the cluster state', () => {
  const cluster = createCluster(
    'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: worker\npacketpath:\n  cni: calico\n',
    { seed: 5 },
  );
  apply(cluster, [pod('web', 'kind-worker', 'nginx', { app: 'web' })]);
  const iface = () =>
    /-A cali-from-wl-dispatch -i (cali[0-9a-f]{11}) /.exec(
      nodeShell(cluster, 'kind-worker', 'iptables-save -t filter'),
    )?.[1];

  it('hooks first in the built-in chains, then one fw/tw chain per pod, dispatched by interface', () => {
    const out = nodeShell(cluster, 'kind-worker', 'iptables-save');
    expect(out).toMatch(/\n-A INPUT -m comment --comment "cali:Cz_u1IQiXIMmKD4c" -j cali-INPUT\n-A INPUT /);
    expect(out).toMatch(/\n-A PREROUTING -m comment --comment "cali:6gwbT8clXdHdC1b1" -j cali-PREROUTING\n/);
    const i = iface();
    expect(i).toBeDefined();
    expect(out).toContain(`:cali-fw-${i} - [0:0]`);
    expect(out).toContain(`:cali-tw-${i} - [0:0]`);
    expect(out).toMatch(
      new RegExp(`-A cali-to-wl-dispatch -o ${i} -m comment --comment "cali:[\\w-]{16}" -g cali-tw-${i}`),
    );
    expect(out).toMatch(
      /-A cali-nat-outgoing -m comment --comment "cali:flqWnvo8yq4ULQLa" .* -j MASQUERADE --random-fully/,
    );
    // No policy selects web yet: its to-workload chain goes straight to the profiles.
    expect(out).not.toContain('Start of policies');
  });

  it('iptables-save -t raw and -t mangle hold the felix chains beside the built-in ones', () => {
    const raw = nodeShell(cluster, 'kind-worker', 'iptables-save -t raw');
    expect(raw).toContain(
      ':cali-PREROUTING - [0:0]\n:cali-from-host-endpoint - [0:0]\n:cali-rpf-skip - [0:0]',
    );
    expect(raw).toMatch(/\n-A OUTPUT -m comment --comment "cali:tVnHkvAo15HuiPy0" -j cali-OUTPUT\n/);
    const mangle = nodeShell(cluster, 'kind-worker', 'iptables-save -t mangle');
    expect(mangle).toMatch(
      /\n-A POSTROUTING -m comment --comment "cali:O3lYWMrLQYEMJtB5" -j cali-POSTROUTING\n/,
    );
    // libxt_rpfilter's print: the flags without their dashes.
    expect(nodeShell(cluster, 'kind-worker', 'iptables -t raw -L cali-PREROUTING -n')).toContain(
      '/* cali:fSSbGND7dgyemWU7 */ mark match 0x40000/0x40000 rpfilter validmark invert\n',
    );
  });

  it('iptables -L -n lists the same chains', () => {
    const out = nodeShell(cluster, 'kind-worker', 'iptables -L -n');
    expect(out).toContain(
      'Chain INPUT (policy ACCEPT)\ntarget     prot opt source               destination         \ncali-INPUT  all  --  0.0.0.0/0            0.0.0.0/0            /* cali:Cz_u1IQiXIMmKD4c */\n',
    );
    expect(out).toMatch(
      /\ncali-fw-cali[0-9a-f]{11}  all  --  0\.0\.0\.0\/0 +0\.0\.0\.0\/0 +\[goto\]  \/\* cali:/,
    );
  });

  it('a NetworkPolicy selecting the pod adds its cali-pi- chain and the jump in cali-tw', () => {
    apply(cluster, [
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'allow-db-access', namespace: 'default' },
        spec: { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ ports: [{ port: 80 }] }] },
      } as Manifest,
    ]);
    const out = nodeShell(cluster, 'kind-worker', 'iptables -S');
    expect(out).toContain('-N cali-pi-_tTE-E7yY40ogArNVgKt');
    expect(out).toMatch(new RegExp(`-A cali-tw-${iface()} .*-j cali-pi-_tTE-E7yY40ogArNVgKt`));
    expect(out).toMatch(
      /-A cali-pi-_tTE-E7yY40ogArNVgKt -p tcp .*-m multiport --dports 80 -j MARK --set-xmark 0x10000\/0x10000/,
    );
  });
});

describe('k3s: kube-router and flannel chains', () => {
  it('names pod and policy chains as kube-router does', () => {
    expect(podFirewallChainName('default', 'web', '1700000000000000000')).toBe(
      'KUBE-POD-FW-RADQSYPP6I6ZY7DH',
    );
    expect(networkPolicyChainName('default', 'deny-all', '1700000000000000000')).toBe(
      'KUBE-NWPLCY-MYXLIFFSXD46GBBW',
    );
    const hook = (chain: string, own: string) =>
      ruleUuid(chain, ['-m', 'comment', '--comment', 'kube-router netpol', '-j', own]);
    expect(hook('INPUT', 'KUBE-ROUTER-INPUT')).toBe('4IA2OSFRMVNDXBVV');
    expect(hook('FORWARD', 'KUBE-ROUTER-FORWARD')).toBe('TEMCG2JMHZYE7H7T');
    expect(hook('OUTPUT', 'KUBE-ROUTER-OUTPUT')).toBe('VEAAIY32XVBHCSCY');
  });

  it('a policy-selected pod gets its KUBE-POD-FW chain; flannel forwards and masquerades', () => {
    const cluster = createCluster(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
      { seed: 6 },
    );
    const node = cluster.store.list('nodes')[0]!.metadata.name;
    apply(cluster, [
      pod('web', node, 'nginx', { app: 'web' }),
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'deny-all', namespace: 'default' },
        spec: { podSelector: {}, policyTypes: ['Ingress'] },
      } as Manifest,
    ]);
    const out = nodeShell(cluster, node, 'iptables-save');
    const version = syncVersion(cluster.clock.now());
    const fw = podFirewallChainName('default', 'web', version);
    expect(out).toMatch(
      /\n-A INPUT -m comment --comment "kube-router netpol - 4IA2OSFRMVNDXBVV" -j KUBE-ROUTER-INPUT\n/,
    );
    expect(out).toContain(`:${fw} - [0:0]`);
    expect(out).toContain(`-j ${networkPolicyChainName('default', 'deny-all', version)}`);
    expect(out).toContain(':KUBE-NWPLCY-DEFAULT - [0:0]');
    expect(out).toMatch(
      /-A KUBE-ROUTER-INPUT -d 10\.43\.0\.0\/16 -m comment --comment "allow traffic to primary\/secondary cluster IP range - [A-Z2-7]{16}" -j RETURN/,
    );
    expect(out).toContain('-A FLANNEL-FWD -s 10.42.0.0/16 -m comment --comment "flanneld forward" -j ACCEPT');
    expect(out).toMatch(
      /-A FLANNEL-POSTRTG -s 10\.42\.0\.0\/16 ! -d 224\.0\.0\.0\/4 -m comment --comment "flanneld masq" -j MASQUERADE --random-fully/,
    );
  });

  it('no kube-router chains when k3s runs with --disable-network-policy', () => {
    const cluster = createCluster(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n  k3s:\n    disableNetworkPolicy: true\n',
      { seed: 6 },
    );
    cluster.settle();
    const out = nodeShell(cluster, cluster.store.list('nodes')[0]!.metadata.name, 'iptables-save -t filter');
    expect(out).not.toContain('KUBE-ROUTER');
    expect(out).toContain(':FLANNEL-FWD - [0:0]');
  });
});
