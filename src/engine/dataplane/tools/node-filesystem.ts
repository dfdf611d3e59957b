/**
 * A node's root filesystem as its own shell sees it (`docker exec kind-worker bash`, `chroot /host`)
 * and as a pod mounting it through a hostPath volume sees it (the `/host` of `kubectl debug node/…`):
 * the top-level directories, the configuration files the cluster's components wrote, and the
 * programs the node's image installs, at their paths.
 *
 * kind nodes run `kindest/node`: Debian 12 (bookworm) with usrmerge (`/bin`, `/sbin`, `/lib` are
 * the `/usr` ones) and, per kind's images/base/Dockerfile (v0.31, the release that ships v1.35),
 * `conntrack iptables nftables iproute2 ethtool util-linux mount kmod … bash ca-certificates curl jq
 * procps`, with containerd, runc and crictl under /usr/local and the host-local, loopback, portmap
 * and ptp CNI plugins in /opt/cni/bin. No ipvsadm, no ipset. k3s VMs run Ubuntu, with the single
 * k3s binary standing for kubectl, crictl and ctr, and k3s's own CNI plugins under its data dir.
 */
import { KUBERNETES_VERSION } from '../../api/cluster-config.ts';
import { nodeHostsFile, nodeResolvConf } from '../../node/pod-files.ts';
import { ELF_MAGIC } from '../../shell/vfs.ts';
import type { ToolHost } from './tool-context.ts';
import { nodeFiles } from './node-tools.ts';

export interface NodeRoot {
  /** Files by absolute path, the node's root being `/`. */
  readonly files: Readonly<Record<string, string>>;
  /** Directories that hold no file here (`/srv`, `/mnt`), so listings show them. */
  readonly dirs: readonly string[];
}

/** Debian's top level under usrmerge, plus kind's own `/kind`. */
const KIND_TOP = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/kind',
  '/lib',
  '/lib64',
  '/media',
  '/mnt',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/srv',
  '/sys',
  '/tmp',
  '/usr',
  '/var',
];
const UBUNTU_TOP = KIND_TOP.filter((d) => d !== '/kind').concat(['/snap']);

/** Programs of the Debian packages kind installs (and coreutils'), by the directory holding them. */
const KIND_PROGRAMS: Readonly<Record<string, readonly string[]>> = {
  '/usr/sbin': [
    'bridge',
    'chroot',
    'conntrack',
    'ethtool',
    'iptables',
    'iptables-legacy',
    'iptables-legacy-restore',
    'iptables-legacy-save',
    'iptables-nft',
    'iptables-nft-restore',
    'iptables-nft-save',
    'iptables-restore',
    'iptables-save',
    'ip6tables',
    'ip6tables-restore',
    'ip6tables-save',
    'nft',
    'sysctl',
    'tc',
    'xtables-legacy-multi',
    'xtables-nft-multi',
  ],
  '/usr/bin': [
    'bash',
    'cat',
    'curl',
    'dash',
    'grep',
    'ip',
    'jq',
    'kubeadm',
    'kubectl',
    'kubelet',
    'ls',
    'mount',
    'ps',
    'sh',
    'ss',
    'systemctl',
  ],
  '/usr/local/bin': ['clean-install', 'containerd', 'containerd-shim-runc-v2', 'crictl', 'ctr', 'entrypoint'],
  '/usr/local/sbin': ['runc'],
};

/** The same set on a k3s server or agent VM (Ubuntu): k3s's one binary and its links. */
const K3S_PROGRAMS: Readonly<Record<string, readonly string[]>> = {
  '/usr/sbin': KIND_PROGRAMS['/usr/sbin']!,
  '/usr/bin': KIND_PROGRAMS['/usr/bin']!.filter((p) => !['kubeadm', 'kubectl', 'kubelet'].includes(p)),
  '/usr/local/bin': ['crictl', 'ctr', 'k3s', 'k3s-killall.sh', 'k3s-uninstall.sh', 'kubectl'],
};

/** The CNI plugin binaries a node holds: kind's four, plus what the CNI's installer copies in. */
function cniBinaries(cluster: ToolHost): readonly string[] {
  const own: Record<string, readonly string[]> = {
    flannel: ['bridge', 'flannel'],
    calico: ['calico', 'calico-ipam', 'install'],
    cilium: ['cilium-cni'],
  };
  const base = ['host-local', 'loopback', 'portmap', 'ptp'];
  const installed = cluster.config.disableDefaultCNI ? [] : (own[cluster.config.cni] ?? []);
  return [...new Set([...base, ...installed])].sort();
}

function osRelease(k3s: boolean): string {
  return k3s
    ? 'PRETTY_NAME="Ubuntu 24.04.3 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nVERSION="24.04.3 LTS (Noble Numbat)"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\nHOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\nPRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\nUBUNTU_CODENAME=noble\nLOGO=ubuntu-logo\n'
    : 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\nHOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\nBUG_REPORT_URL="https://bugs.debian.org/"\n';
}

/** The node's root filesystem: its files and its empty directories. */
export function nodeRoot(cluster: ToolHost, node: string): NodeRoot {
  const config = cluster.config;
  const k3s = config.distribution === 'k3s';
  const files: Record<string, string> = {
    ...nodeFiles(cluster, node),
    '/etc/resolv.conf': nodeResolvConf(config),
    '/etc/hosts': nodeHostsFile(config, node),
    '/etc/hostname': `${node}\n`,
    '/etc/os-release': osRelease(k3s),
  };
  const programs = k3s ? K3S_PROGRAMS : KIND_PROGRAMS;
  for (const [dir, names] of Object.entries(programs))
    for (const name of names) {
      files[`${dir}/${name}`] = ELF_MAGIC;
      // usrmerge: /bin and /sbin are links to their /usr directories, so the same programs show there.
      if (dir === '/usr/bin' || dir === '/usr/sbin') files[`${dir.slice(4)}/${name}`] = ELF_MAGIC;
    }
  const cniBin = k3s ? '/var/lib/rancher/k3s/data/current/bin' : '/opt/cni/bin';
  for (const name of cniBinaries(cluster)) files[`${cniBin}/${name}`] = ELF_MAGIC;
  // kind writes the Kubernetes version it built the node image from.
  if (!k3s) files['/kind/version'] = `${KUBERNETES_VERSION}\n`;
  const dirs = [
    ...(k3s ? UBUNTU_TOP : KIND_TOP.concat(['/etc/kubernetes/manifests'])),
    '/var/lib/kubelet',
    '/var/log/pods',
  ];
  return { files, dirs };
}
