/**
 * `cilium-dbg` inside a Cilium agent pod (`kubectl exec -n kube-system ds/cilium -- cilium-dbg …`), in
 * the layouts of cilium/cilium's cilium-dbg/cmd and pkg/client (Go text/tabwriter everywhere):
 *
 * - `status [--brief]`: pkg/client FormatStatusResponse on a tabwriter (minwidth 2, padding 3), then the
 *   health summary line; `--brief` prints `OK`.
 * - `service list`: service_list.go, `Frontend / Service Type / Backend` (minwidth 5, padding 3), frontends
 *   sorted, backends numbered `1 => IP:PORT/PROTO (active)`.
 * - `bpf lb list`: bpf_lb_list.go's TablePrinter, `SERVICE ADDRESS / BACKEND ADDRESS (REVNAT_ID) (SLOT)`:
 *   slot 0 is the service entry itself (`0.0.0.0:0 (id) (0) [flags]`), slots 1… its backends.
 * - `endpoint list`: endpoint_list.go's two header lines and one line per security label.
 *
 * The service map is the one the engine routes with (service-translation.ts): every ClusterIP; with
 * kube-proxy replacement (`kube-proxy-replacement: "true"`, the cluster without kube-proxy) also
 * NodePorts on the node's address and 0.0.0.0, externalIPs and LoadBalancer VIPs, the external ones
 * with only local backends under externalTrafficPolicy Local.
 *
 * Not modelled, with stable stand-ins: endpoint and revNAT IDs are allocated by the agent in the order
 * it meets objects (here: a hash of the pod uid, and the frontend's rank); security identities come
 * from the CRD allocator (here: a hash of the label set, in Cilium's 256–65535 range, so equal label
 * sets share an identity as they do for real); the build hash after the version is not known.
 */
import type { EndpointSlice, Pod } from '../../api/objects.ts';
import { cniManagedPods } from '../netfilter/cni/index.ts';
import { matchesLabelSelector } from '../../api/labels.ts';
import type { ToolHost } from './tool-context.ts';
import { identityOf, securityLabels } from '../network/cilium-identity.ts';
import type { CommandHandler } from '../../shell/types.ts';
import { tabwrite } from '../../util/tabwriter.ts';
import { fnv32a } from '../../util/rng.ts';
import { cniPlugin } from '../../node/cni/index.ts';
import { parseCidr } from '../../util/ip.ts';
import { categorizeEndpoints } from '../proxy/categorize-endpoints.ts';
import { buildEndpointsMap, type EndpointInfo } from '../proxy/endpoints-map.ts';
import { buildServicePortMap, keyOf } from '../proxy/service-port-map.ts';
import { cniDataplane } from '../network/cni-dataplane.ts';
import type { ToolContext } from './tool-context.ts';

const VERSION = '1.18.4';
const CILIUM_TABLE = { minwidth: 5, padding: 3 };

function usageError(text: string): { stdout: string; stderr: string; exitCode: number } {
  return { stdout: '', stderr: `Error: ${text}\nRun 'cilium-dbg --help' for usage.\n`, exitCode: 1 };
}

function config(cluster: ToolHost): Readonly<Record<string, string>> {
  return cluster.store.get('configmaps', 'kube-system', 'cilium-config')?.data ?? {};
}

function kubeProxyReplacement(cluster: ToolHost): boolean {
  return config(cluster)['kube-proxy-replacement'] === 'true';
}

function nodeIP(cluster: ToolHost, node: string): string {
  const n = cluster.store.get('nodes', undefined, node);
  return n?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
}

interface Frontend {
  readonly address: string;
  readonly type: 'ClusterIP' | 'NodePort' | 'ExternalIPs' | 'LoadBalancer';
  readonly local: boolean;
  readonly backends: readonly EndpointInfo[];
}

/** The frontends the node's BPF service map holds, sorted as `service list` sorts them (by address). */
function frontends(cluster: ToolHost, node: string): Frontend[] {
  const kpr = kubeProxyReplacement(cluster);
  const slices = cluster.store.list('endpointslices.discovery.k8s.io') as EndpointSlice[];
  const endpoints = buildEndpointsMap(slices, node);
  const labels = cluster.store.get('nodes', undefined, node)?.metadata.labels ?? {};
  const out: Frontend[] = [];
  const host = nodeIP(cluster, node);
  for (const sp of buildServicePortMap(cluster.store.list('services'))) {
    const cat = categorizeEndpoints(endpoints.get(keyOf(sp)) ?? [], sp, node, labels);
    const proto = sp.protocol;
    const add = (ip: string, port: number, type: Frontend['type']): void => {
      const external = type !== 'ClusterIP';
      const local = external && sp.externalPolicyLocal;
      out.push({
        address: `${ip}:${port}/${proto}`,
        type,
        local,
        backends: local ? cat.localEndpoints : cat.clusterEndpoints,
      });
    };
    if (sp.clusterIP && sp.clusterIP !== 'None') add(sp.clusterIP, sp.port, 'ClusterIP');
    if (!kpr) continue;
    if (sp.nodePort > 0) {
      add('0.0.0.0', sp.nodePort, 'NodePort');
      if (host) add(host, sp.nodePort, 'NodePort');
    }
    for (const ip of sp.externalIPs) add(ip, sp.port, 'ExternalIPs');
    for (const ip of sp.loadBalancerVIPs) add(ip, sp.port, 'LoadBalancer');
  }
  return out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

function backendText(b: EndpointInfo, proto: string): string {
  return `${b.ip}:${b.port}/${proto}`;
}

function protoOf(f: Frontend): string {
  return f.address.slice(f.address.lastIndexOf('/') + 1);
}

function serviceList(cluster: ToolHost, node: string): string {
  let text = 'Frontend\tService Type\tBackend\t\n';
  for (const f of frontends(cluster, node)) {
    const bs = f.backends.map(
      (b, i) => `${i + 1} => ${backendText(b, protoOf(f))} (${b.terminating ? 'terminating' : 'active'})`,
    );
    if (bs.length === 0) {
      text += `${f.address}\t${f.type}\t\t\n`;
      continue;
    }
    text += `${f.address}\t${f.type}\t${bs[0]}\t\n`;
    for (const b of bs.slice(1)) text += `\t\t${b}\t\n`;
  }
  return tabwrite(text, CILIUM_TABLE);
}

/** pkg/loadbalancer ServiceFlags.String(): the type, then the qualifiers. */
function flagsText(f: Frontend): string {
  const parts: string[] = [f.type];
  if (f.local) parts.push('Local');
  if (f.type === 'ClusterIP') parts.push('non-routable');
  return parts.join(', ');
}

function bpfLbList(cluster: ToolHost, node: string): string {
  let text = 'SERVICE ADDRESS\tBACKEND ADDRESS (REVNAT_ID) (SLOT)\t\n';
  frontends(cluster, node).forEach((f, i) => {
    const revNat = i + 1;
    // The map key prints without the slot, so a service's entries share one SERVICE ADDRESS cell.
    const key = f.address;
    const entries = [
      `0.0.0.0:0 (${revNat}) (0) [${flagsText(f)}] `,
      ...f.backends.map((b, slot) => `${backendText(b, protoOf(f))} (${revNat}) (${slot + 1})`),
    ];
    entries.forEach((e, j) => (text += `${j === 0 ? key : ''}\t${e}\t\n`));
  });
  return tabwrite(text, CILIUM_TABLE);
}

/** A stable 1…4095 endpoint ID (the agent allocates them from a pool). */
function endpointId(seed: string): number {
  return (fnv32a(`endpoint/${seed}`) % 4095) + 1;
}

/** Enforcement per direction under `enable-policy: default`: on once a policy selects the pod. */
function enforcement(cluster: ToolHost, pod: Pod): [string, string] {
  const mode = config(cluster)['enable-policy'] ?? 'default';
  if (mode === 'never') return ['Disabled', 'Disabled'];
  if (mode === 'always') return ['Enabled', 'Enabled'];
  let ingress = false;
  let egress = false;
  for (const np of cluster.store.list('networkpolicies.networking.k8s.io')) {
    if (np.metadata.namespace !== pod.metadata.namespace) continue;
    if (!matchesLabelSelector(np.spec?.podSelector ?? {}, pod.metadata.labels ?? {})) continue;
    const types = np.spec?.policyTypes ?? (np.spec?.egress ? ['Ingress', 'Egress'] : ['Ingress']);
    ingress ||= types.includes('Ingress');
    egress ||= types.includes('Egress');
  }
  return [ingress ? 'Enabled' : 'Disabled', egress ? 'Enabled' : 'Disabled'];
}

function endpointList(cluster: ToolHost, node: string): string {
  interface Row {
    id: number;
    ingress: string;
    egress: string;
    identity: number;
    labels: string[];
    ipv4: string;
  }
  const rows: Row[] = [];
  const isControlPlane =
    cluster.store.get('nodes', undefined, node)?.metadata.labels?.[
      'node-role.kubernetes.io/control-plane'
    ] !== undefined;
  const hostLabels = isControlPlane ? ['reserved:host', 'reserved:kube-apiserver'] : ['reserved:host'];
  rows.push({
    id: endpointId(`host/${node}`),
    ingress: 'Disabled',
    egress: 'Disabled',
    identity: 1,
    labels: hostLabels,
    ipv4: '',
  });
  const podCIDR = cluster.store.get('nodes', undefined, node)?.spec?.podCIDR ?? '';
  const c = parseCidr(podCIDR);
  // cilium-health's endpoint takes an address of the node's range too.
  if (c)
    rows.push({
      id: endpointId(`health/${node}`),
      ingress: 'Disabled',
      egress: 'Disabled',
      identity: 4,
      labels: ['reserved:health'],
      ipv4: healthIP(podCIDR),
    });
  for (const pod of cniManagedPods(cluster, node)) {
    const labels = securityLabels(cluster, pod);
    const [ingress, egress] = enforcement(cluster, pod);
    rows.push({
      id: endpointId(pod.metadata.uid),
      ingress,
      egress,
      identity: identityOf(labels),
      labels,
      ipv4: pod.status?.podIP ?? '',
    });
  }
  rows.sort((a, b) => a.id - b.id);
  let text =
    'ENDPOINT\tPOLICY (ingress)\tPOLICY (egress)\tIDENTITY\tLABELS (source:key[=value])\tIPv6\tIPv4\tSTATUS\t\n';
  text += '\tENFORCEMENT\tENFORCEMENT\t\t\t\t\t\n';
  for (const r of rows)
    r.labels.forEach((l, i) => {
      text +=
        i === 0
          ? `${r.id}\t${r.ingress}\t${r.egress}\t${r.identity}\t${l}\t\t${r.ipv4}\tready\t\n`
          : `\t\t\t\t${l}\t\t\t\t\n`;
    });
  return tabwrite(text, CILIUM_TABLE);
}

/** The health endpoint's address: the last usable address of the node's range (stand-in). */
function healthIP(podCIDR: string): string {
  const c = parseCidr(podCIDR);
  if (!c) return '';
  const n = c.base + 2 ** (32 - c.prefix) - 2;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function status(cluster: ToolHost, node: string, now: string): string {
  const kpr = kubeProxyReplacement(cluster);
  const dp = cniDataplane(cluster, node);
  const podCIDR = cluster.store.get('nodes', undefined, node)?.spec?.podCIDR ?? '';
  const c = parseCidr(podCIDR);
  const size = c ? 2 ** (32 - c.prefix) - 2 : 0;
  // The agent allocates its router (cilium_host) and health addresses besides the pods'.
  const allocated = cniManagedPods(cluster, node).length + (c ? 2 : 0);
  const ip = nodeIP(cluster, node);
  const nodes = cluster.store.list('nodes').length;
  const router = cniPlugin('cilium').gateway(podCIDR);
  const routing =
    dp.encapsulation === 'none'
      ? 'Network: Native\tHost: Legacy'
      : `Network: Tunnel [${dp.encapsulation}]\tHost: Legacy`;
  const lines = [
    'KVStore:\tDisabled\t',
    'Kubernetes:\tOk\t1.35 (v1.35.0) [linux/amd64]',
    'Kubernetes APIs:\t["EndpointSliceOrEndpoint", "cilium/v2::CiliumClusterwideNetworkPolicy", "cilium/v2::CiliumEndpoint", "cilium/v2::CiliumNetworkPolicy", "cilium/v2::CiliumNode", "cilium/v2alpha1::CiliumCIDRGroup", "core/v1::Namespace", "core/v1::Pods", "core/v1::Service", "networking.k8s.io/v1::NetworkPolicy"]',
    `KubeProxyReplacement:\t${kpr ? 'True' : 'False'}\t${kpr ? `[eth0   ${ip} (Direct Routing)]` : ''}`,
    'Host firewall:\tDisabled',
    'SRv6:\tDisabled',
    'CNI Chaining:\tnone',
    'CNI Config file:\tsuccessfully wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist',
    `Cilium:\tOk   ${VERSION} (v${VERSION})`,
    'NodeMonitor:\tListening for events on 2 CPUs with 64x4096 of shared memory',
    'Cilium health daemon:\tOk\t',
    `IPAM:\tIPv4: ${allocated}/${size} allocated from ${podCIDR}, `,
    'IPv4 BIG TCP:\tDisabled',
    'IPv6 BIG TCP:\tDisabled',
    'BandwidthManager:\tDisabled',
    `Routing:\t${routing}`,
    'Attach Mode:\tTCX',
    'Device Mode:\tveth',
    'Masquerading:\tIPTables [IPv4: Enabled, IPv6: Disabled]',
    'Controller Status:\t30/30 healthy',
    `Proxy Status:\tOK, ip ${router}, 0 redirects active on ports 10000-20000, Envoy: external`,
    'Global Identity Range:\tmin 256, max 65535',
    'Hubble:\tOk\tCurrent/Max Flows: 0/4095 (0.00%), Flows/s: 0.00',
    'Encryption:\tDisabled\t',
    `ToolHost health:\t${nodes}/${nodes} reachable\t(${now})`,
  ];
  return tabwrite(`${lines.join('\n')}\n`, { minwidth: 2, padding: 3 });
}

export function ciliumDbgCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const cluster = ctx.cluster;
    const node = ctx.node ?? ctx.pod?.spec?.nodeName ?? '';
    const args = argv.slice(1);
    const words = args.filter((a) => !a.startsWith('-'));
    const flags = args.filter((a) => a.startsWith('-'));
    const ok = (stdout: string) => ({ stdout, stderr: '', exitCode: 0 });
    if (words.length === 0)
      return ok(
        'CLI for interacting with the local Cilium Agent\n\nUsage:\n  cilium-dbg [command]\n\nUse "cilium-dbg [command] --help" for more information about a command.\n',
      );
    const [cmd, sub, sub2] = words;
    for (const f of flags)
      if (!['--brief', '--verbose', '-h', '--help', '--no-headers'].includes(f))
        return usageError(`unknown flag: ${f}`);
    switch (cmd) {
      case 'status':
        return ok(flags.includes('--brief') ? 'OK\n' : status(cluster, node, cluster.clock.rfc3339()));
      case 'service':
        if (sub === 'list' || sub === 'ls') return ok(serviceList(cluster, node));
        return usageError(`unknown command "${sub ?? ''}" for "cilium-dbg service"`);
      case 'endpoint':
        if (sub === 'list' || sub === 'ls') return ok(endpointList(cluster, node));
        return usageError(`unknown command "${sub ?? ''}" for "cilium-dbg endpoint"`);
      case 'bpf':
        if (sub === 'lb' && (sub2 === 'list' || sub2 === 'ls')) return ok(bpfLbList(cluster, node));
        return usageError(`unknown command "${[sub, sub2].filter(Boolean).join(' ')}" for "cilium-dbg bpf"`);
      default:
        return usageError(`unknown command "${cmd ?? ''}" for "cilium-dbg"`);
    }
  };
}
