/**
 * The image catalogue: what each container image holds and does, as on a real node. A profile gives
 * the image's ENTRYPOINT/CMD (what runs when the pod spec says nothing), its shell, its libc (the DNS
 * resolver's search behaviour differs between glibc and musl), the tools an in-pod shell finds, its size
 * and pull time, and how its main process reacts to the stop signal.
 *
 * Unknown images follow one rule (`resolveImage`): an image whose repository is not in the catalogue
 * is a generic application — it pulls (GENERIC size and time) and runs until stopped, listening on each
 * declared TCP containerPort with a plain HTTP responder — EXCEPT a one-word Docker Hub name
 * (`docker.io/library/<name>`, e.g. a typo like `ngnix`): Docker Hub's official library is a closed
 * list, so such a pull fails with the registry's real "not found" and the pod goes ErrImagePull →
 * ImagePullBackOff. A catalogued repository with a tag that cannot exist (`nginx:latestt`) fails the
 * same way.
 */
import { formatImageRef, parseImageRef, repositoryOf, type ImageRef } from '../api/image-ref.ts';
import { fnv32a } from '../util/rng.ts';

export type Libc = 'glibc' | 'musl' | 'static';

export interface ImageProfile {
  /** Canonical repository, `docker.io/library/nginx`. */
  readonly repository: string;
  /** The version `latest` stands for (printed by programs that log their version). */
  readonly latestVersion: string;
  readonly sizeBytes: number;
  /** Time a first pull takes on a node without the image. */
  readonly pullMs: number;
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
  /** Shell binary found in the image (`kubectl exec -- sh` works), or undefined for distroless/scratch images. */
  readonly shell?: 'sh' | 'bash';
  readonly libc: Libc;
  /** Commands present in the image's PATH. */
  readonly tools: readonly string[];
  /** Dockerfile STOPSIGNAL: nginx stops gracefully on SIGQUIT, httpd on SIGWINCH. */
  readonly stopSignal: 'SIGTERM' | 'SIGQUIT' | 'SIGWINCH';
  /** Which tags exist; anything else is "not found" at the registry. */
  readonly tags: RegExp;
}

/** BusyBox applets that matter in labs (busybox, alpine and the images built on them). */
const BUSYBOX_TOOLS = [
  'sh',
  'ash',
  'cat',
  'echo',
  'printf',
  'ls',
  'sleep',
  'env',
  'date',
  'hostname',
  'touch',
  'rm',
  'mkdir',
  'grep',
  'sed',
  'awk',
  'head',
  'tail',
  'wc',
  'ps',
  'kill',
  'true',
  'false',
  'test',
  'wget',
  'nc',
  'nslookup',
  'ping',
  'traceroute',
  'ip',
  'ifconfig',
  'route',
  'netstat',
  'arp',
  'telnet',
  'httpd',
  'vi',
  'top',
  'id',
  'whoami',
  'uname',
  'tar',
  'cp',
  'mv',
  'ln',
  'chmod',
  'mount',
  'sysctl',
  'find',
  'xargs',
  'tee',
  'chroot',
];
const DEBIAN_TOOLS = [
  'sh',
  'bash',
  'cat',
  'echo',
  'printf',
  'ls',
  'sleep',
  'env',
  'date',
  'hostname',
  'touch',
  'rm',
  'mkdir',
  'grep',
  'sed',
  'awk',
  'head',
  'tail',
  'wc',
  'kill',
  'true',
  'false',
  'test',
  'id',
  'whoami',
  'uname',
  'tar',
  'getent',
  'cp',
  'mv',
  'ln',
  'chmod',
  'mount',
  'sysctl',
  'find',
  'xargs',
  'tee',
  'chroot',
];
const NETSHOOT_TOOLS = [
  ...BUSYBOX_TOOLS,
  'bash',
  'curl',
  'dig',
  'host',
  'drill',
  'tcpdump',
  'iptables',
  'iptables-save',
  'nft',
  'ss',
  'mtr',
  'iperf3',
  'socat',
  'jq',
  'openssl',
  'conntrack',
  'ipvsadm',
  'ethtool',
  'bridge',
  'tshark',
  'nmap',
  'fortio',
];
const VERSION_TAG =
  /^(latest|stable|mainline|v?\d+(\.\d+){0,2}([.-][a-z0-9.-]+)?|alpine[\d.]*|perl|slim|bookworm|trixie|noble|jammy|[a-z]+-slim)$/;
const ANY_TAG = /^[\w][\w.-]*$/;

function profile(
  p: Omit<ImageProfile, 'tags' | 'stopSignal'> & Partial<Pick<ImageProfile, 'tags' | 'stopSignal'>>,
): ImageProfile {
  return { tags: VERSION_TAG, stopSignal: 'SIGTERM', ...p };
}

export const IMAGE_CATALOGUE: readonly ImageProfile[] = [
  profile({
    repository: 'docker.io/library/nginx',
    latestVersion: '1.29.4',
    sizeBytes: 72_223_946,
    pullMs: 4_800,
    entrypoint: ['/docker-entrypoint.sh'],
    cmd: ['nginx', '-g', 'daemon off;'],
    shell: 'bash',
    libc: 'glibc',
    tools: [...DEBIAN_TOOLS, 'nginx', 'curl'],
    stopSignal: 'SIGQUIT',
  }),
  profile({
    repository: 'docker.io/library/httpd',
    latestVersion: '2.4.66',
    sizeBytes: 58_361_424,
    pullMs: 4_100,
    entrypoint: [],
    cmd: ['httpd-foreground'],
    shell: 'bash',
    libc: 'glibc',
    tools: [...DEBIAN_TOOLS, 'httpd'],
    stopSignal: 'SIGWINCH',
  }),
  profile({
    repository: 'docker.io/hashicorp/http-echo',
    latestVersion: '1.0.0',
    sizeBytes: 3_641_512,
    pullMs: 1_300,
    entrypoint: ['/http-echo'],
    cmd: [],
    libc: 'static',
    tools: ['http-echo'],
  }),
  profile({
    repository: 'registry.k8s.io/e2e-test-images/agnhost',
    latestVersion: '2.53',
    sizeBytes: 51_024_337,
    pullMs: 3_900,
    entrypoint: ['/agnhost'],
    cmd: ['pause'],
    shell: 'sh',
    libc: 'glibc',
    tools: [...BUSYBOX_TOOLS, 'agnhost', 'curl', 'dig'],
    tags: /^2\.\d+$/,
  }),
  profile({
    repository: 'docker.io/library/busybox',
    latestVersion: '1.37.0',
    sizeBytes: 2_223_686,
    pullMs: 900,
    entrypoint: [],
    cmd: ['sh'],
    shell: 'sh',
    libc: 'glibc',
    tools: BUSYBOX_TOOLS,
  }),
  profile({
    repository: 'docker.io/nicolaka/netshoot',
    latestVersion: 'v0.14',
    sizeBytes: 205_491_013,
    pullMs: 11_200,
    entrypoint: [],
    cmd: ['zsh'],
    shell: 'bash',
    libc: 'musl',
    tools: [...NETSHOOT_TOOLS, 'zsh'],
  }),
  profile({
    repository: 'docker.io/curlimages/curl',
    latestVersion: '8.17.0',
    sizeBytes: 12_480_113,
    pullMs: 1_600,
    entrypoint: ['/entrypoint.sh'],
    cmd: ['curl'],
    shell: 'sh',
    libc: 'musl',
    tools: [...BUSYBOX_TOOLS, 'curl'],
  }),
  profile({
    repository: 'docker.io/library/alpine',
    latestVersion: '3.23.2',
    sizeBytes: 3_862_807,
    pullMs: 1_000,
    entrypoint: [],
    cmd: ['/bin/sh'],
    shell: 'sh',
    libc: 'musl',
    tools: BUSYBOX_TOOLS,
  }),
  profile({
    repository: 'docker.io/library/ubuntu',
    latestVersion: '24.04',
    sizeBytes: 29_723_147,
    pullMs: 2_700,
    entrypoint: [],
    cmd: ['/bin/bash'],
    shell: 'bash',
    libc: 'glibc',
    tools: DEBIAN_TOOLS,
  }),
  profile({
    repository: 'docker.io/library/debian',
    latestVersion: '13',
    sizeBytes: 49_282_516,
    pullMs: 3_300,
    entrypoint: [],
    cmd: ['bash'],
    shell: 'bash',
    libc: 'glibc',
    tools: DEBIAN_TOOLS,
  }),
  profile({
    repository: 'docker.io/traefik/whoami',
    latestVersion: 'v1.11.0',
    sizeBytes: 3_412_770,
    pullMs: 1_200,
    entrypoint: ['/whoami'],
    cmd: [],
    libc: 'static',
    tools: ['whoami'],
  }),
  profile({
    repository: 'gcr.io/google-samples/hello-app',
    latestVersion: '1.0',
    sizeBytes: 11_403_281,
    pullMs: 1_500,
    entrypoint: ['/hello-app'],
    cmd: [],
    libc: 'static',
    tools: ['hello-app'],
    tags: /^[12]\.0$/,
  }),
  profile({
    repository: 'registry.k8s.io/pause',
    latestVersion: '3.10.1',
    sizeBytes: 320_368,
    pullMs: 400,
    entrypoint: ['/pause'],
    cmd: [],
    libc: 'static',
    tools: ['pause'],
    tags: /^3\.\d+(\.\d+)?$/,
  }),
  // System images: their pods are created by bootstrap; the profiles decide what they listen on.
  ...systemImages(),
  ...distrolessImages(),
];

function systemImages(): ImageProfile[] {
  // Helper binaries the add-ons' init containers run (they copy files and exit).
  const helpers = [
    'calico-node',
    'calico-ipam',
    'install',
    'cilium-dbg',
    'init-container.sh',
    'install-plugin.sh',
    'flanneld',
    'kube-proxy',
  ];
  const sys = (
    repository: string,
    version: string,
    entry: string[],
    sizeBytes: number,
    shell?: 'sh' | 'bash',
    extraTools: readonly string[] = [],
  ) =>
    profile({
      repository,
      latestVersion: version,
      sizeBytes,
      pullMs: Math.round(sizeBytes / 9000),
      entrypoint: entry,
      cmd: [],
      libc: shell ? 'glibc' : 'static',
      tools: shell ? [...DEBIAN_TOOLS, ...helpers, ...extraTools] : [],
      tags: ANY_TAG,
      ...(shell ? { shell } : {}),
    });
  return [
    sys('registry.k8s.io/coredns/coredns', 'v1.13.1', ['/coredns'], 22_384_805),
    sys('docker.io/rancher/mirrored-coredns-coredns', '1.13.1', ['/coredns'], 22_384_805),
    // Built on distroless-iptables (kubernetes/release images/build/distroless-iptables), which ships
    // the netfilter tools kube-proxy drives, so `kubectl -n kube-system exec kube-proxy-… --
    // iptables-save` works on a real cluster (the pod is hostNetwork: it sees the node's rules).
    sys('registry.k8s.io/kube-proxy', 'v1.35.0', ['/usr/local/bin/kube-proxy'], 31_006_440, 'sh', [
      'iptables',
      'iptables-save',
      'nft',
      'conntrack',
    ]),
    sys('registry.k8s.io/etcd', '3.6.6-0', ['etcd'], 23_653_098),
    sys('registry.k8s.io/kube-apiserver', 'v1.35.0', ['kube-apiserver'], 30_111_224),
    sys('registry.k8s.io/kube-controller-manager', 'v1.35.0', ['kube-controller-manager'], 26_603_510),
    sys('registry.k8s.io/kube-scheduler', 'v1.35.0', ['kube-scheduler'], 20_655_129),
    sys('docker.io/calico/node', 'v3.31.2', ['start_runit'], 159_404_251, 'bash'),
    sys('docker.io/calico/cni', 'v3.31.2', ['/opt/cni/bin/install'], 71_266_480, 'bash'),
    sys('docker.io/calico/kube-controllers', 'v3.31.2', ['/usr/bin/kube-controllers'], 35_482_033),
    sys('quay.io/cilium/cilium', 'v1.18.4', ['cilium-agent'], 229_872_113, 'bash'),
    sys('quay.io/cilium/operator-generic', 'v1.18.4', ['cilium-operator-generic'], 32_740_112),
    sys('quay.io/cilium/cilium-envoy', 'v1.34.10', ['/usr/bin/cilium-envoy-starter'], 67_153_790),
    sys('ghcr.io/flannel-io/flannel', 'v0.27.4', ['/opt/bin/flanneld'], 33_560_410, 'sh'),
    sys('ghcr.io/flannel-io/flannel-cni-plugin', 'v1.8.0-flannel1', ['cp'], 4_818_266, 'sh'),
    sys('docker.io/rancher/mirrored-library-traefik', '3.5.1', ['/entrypoint.sh'], 49_104_339, 'sh'),
    sys('docker.io/rancher/klipper-lb', 'v0.4.13', ['entry'], 5_196_770, 'sh'),
    sys('docker.io/library/traefik', 'v3.5.1', ['/entrypoint.sh'], 49_104_339, 'sh'),
    sys('docker.io/rancher/klipper-helm', 'v0.9.8-build20250709', ['entry'], 68_993_512, 'sh'),
    sys('docker.io/rancher/mirrored-metrics-server', 'v0.8.0', ['/metrics-server'], 20_112_874),
    sys('docker.io/rancher/local-path-provisioner', 'v0.0.32', ['local-path-provisioner'], 21_744_590, 'sh'),
    sys(
      'docker.io/kindest/local-path-provisioner',
      'v20250214-acbabc1a',
      ['local-path-provisioner'],
      22_341_120,
    ),
    // kindnetd on registry.k8s.io/build-image/distroless-iptables: no shell (images/kindnetd/Dockerfile).
    sys('docker.io/kindest/kindnetd', 'v20260820-69b56db7', ['/bin/kindnetd'], 38_291_534),
    sys('quay.io/metallb/controller', 'v0.15.2', ['/controller'], 28_451_903),
    sys('quay.io/metallb/speaker', 'v0.15.2', ['/speaker'], 51_338_280),
  ];
}

/**
 * Google's distroless images (GoogleContainerTools/distroless): no shell, no package manager and an
 * empty ENTRYPOINT, so a pod must name its program and `kubectl exec -- sh` fails as runc says. static
 * carries no libc; base and cc carry glibc. The `debug` tags add BusyBox (variantOf). Sizes are
 * approximate compressed amd64 sizes.
 */
function distrolessImages(): ImageProfile[] {
  const tags = /^(latest|nonroot|debug|debug-nonroot)(-(amd64|arm64|arm|s390x|ppc64le|riscv64))?$/;
  const image = (name: string, libc: Libc, sizeBytes: number) =>
    profile({
      repository: `gcr.io/distroless/${name}`,
      latestVersion: 'latest',
      sizeBytes,
      pullMs: 600 + Math.round(sizeBytes / 9000),
      entrypoint: [],
      cmd: [],
      libc,
      tools: [],
      tags,
    });
  return ['', '-debian12', '-debian13'].flatMap((debian) => [
    image(`static${debian}`, 'static', 1_000_000),
    image(`base${debian}`, 'glibc', 8_000_000),
    image(`cc${debian}`, 'glibc', 9_500_000),
  ]);
}

const BY_REPOSITORY = new Map(IMAGE_CATALOGUE.map((p) => [p.repository, p]));

/** The profile an unknown, non-library image gets: a generic application. */
export const GENERIC_PROFILE: ImageProfile = profile({
  repository: '',
  latestVersion: 'latest',
  sizeBytes: 48_273_652,
  pullMs: 3_000,
  entrypoint: ['/app'],
  cmd: [],
  shell: 'sh',
  libc: 'glibc',
  tools: BUSYBOX_TOOLS,
  tags: ANY_TAG,
});

export type ResolvedImage =
  | { readonly kind: 'ok'; readonly ref: ImageRef; readonly profile: ImageProfile; readonly known: boolean }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'not-found'; readonly ref: ImageRef };

/**
 * Applies the catalogue's rule (see the header) to what a pod spec names in `image:`. References repeat
 * endlessly (every pod sync asks) and resolution is pure, so results are remembered.
 */
const RESOLVED = new Map<string, ResolvedImage>();
const RESOLVED_LIMIT = 4096;

export function resolveImage(image: string): ResolvedImage {
  let r = RESOLVED.get(image);
  if (!r) {
    if (RESOLVED.size >= RESOLVED_LIMIT) RESOLVED.clear();
    RESOLVED.set(image, (r = resolveImageUncached(image)));
  }
  return r;
}

function resolveImageUncached(image: string): ResolvedImage {
  const parsed = parseImageRef(image);
  if ('error' in parsed) {
    return { kind: 'invalid', message: `couldn't parse image name "${image}": ${parsed.error}` };
  }
  const { ref } = parsed;
  const known = BY_REPOSITORY.get(repositoryOf(ref));
  if (known) {
    if (ref.tag && !known.tags.test(ref.tag)) return { kind: 'not-found', ref };
    return { kind: 'ok', ref, profile: variantOf(known, ref.tag), known: true };
  }
  if (ref.domain === 'docker.io' && ref.path.startsWith('library/')) return { kind: 'not-found', ref };
  return { kind: 'ok', ref, profile: { ...GENERIC_PROFILE, repository: repositoryOf(ref) }, known: false };
}

/** `-alpine` variants of Debian-based images carry musl and BusyBox instead of glibc and coreutils. */
function variantOf(p: ImageProfile, tag: string): ImageProfile {
  if (p.repository.startsWith('gcr.io/distroless/')) {
    if (!tag.startsWith('debug')) return p;
    // The debug tags put BusyBox under /busybox and make its shell the ENTRYPOINT.
    return { ...p, shell: 'sh', entrypoint: ['/busybox/sh'], tools: BUSYBOX_TOOLS };
  }
  if (!tag.includes('alpine') || p.libc === 'musl') return p;
  return {
    ...p,
    libc: 'musl',
    shell: 'sh',
    sizeBytes: Math.round(p.sizeBytes * 0.33),
    pullMs: Math.round(p.pullMs * 0.4),
    tools: [...new Set([...BUSYBOX_TOOLS, ...p.tools.filter((t) => t !== 'bash')])],
  };
}

/** The version a tag stands for (`latest` → the profile's current version). */
export function imageVersion(resolved: { ref: ImageRef; profile: ImageProfile }): string {
  const tag = resolved.ref.tag.replace(/^v/, '').replace(/-.*$/, '');
  return /^\d/.test(tag) ? tag : resolved.profile.latestVersion.replace(/^v/, '');
}

/**
 * The `imageID` the runtime reports: repository@sha256 digest. Real digests are content hashes; ours
 * derive from the reference so the same image always shows the same digest.
 */
export function imageDigest(ref: ImageRef): string {
  if (ref.digest) return ref.digest;
  const name = formatImageRef(ref);
  let hex = '';
  for (let i = 0; hex.length < 64; i++) hex += fnv32a(`${name}#${i}`).toString(16).padStart(8, '0');
  return `sha256:${hex.slice(0, 64)}`;
}

/** imageIdOf per reference: resolveImage hands out the same reference for an image, and every container start asks. */
const IMAGE_IDS = new WeakMap<ImageRef, string>();

export function imageIdOf(ref: ImageRef): string {
  let id = IMAGE_IDS.get(ref);
  if (id === undefined) IMAGE_IDS.set(ref, (id = `${repositoryOf(ref)}@${imageDigest(ref)}`));
  return id;
}
