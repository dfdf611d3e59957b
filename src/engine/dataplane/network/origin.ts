/**
 * The sending side of a connection: its addresses, the files its resolver reads and its C library.
 * A hostNetwork pod lives in its node's network namespace (the node's IP and interfaces) but keeps its
 * own resolv.conf (dnsPolicy ClusterFirstWithHostNet or Default) and its image's libc.
 */
import type { Pod } from '../../api/objects.ts';
import { resolveImage } from '../../node/images.ts';
import { hostsFileFor, nodeHostsFile, nodeResolvConf, resolvConfFor } from '../../node/pod-files.ts';
import type { Libc } from '../dns/resolv-conf.ts';
import type { Origin } from './transport.ts';
import type { Source } from './types.ts';
import { externalClientIP, type NetworkView } from './view.ts';

export interface ResolvedSource {
  readonly origin: Origin;
  readonly resolvConf: string;
  readonly hosts: string;
  readonly libc: Libc;
  /** For messages: `pod/web-…`, `node/kind-worker`, `your machine`. */
  readonly label: string;
}

export type SourceError = { readonly error: string };

function libcOf(pod: Pod, container: string | undefined): Libc {
  const c = pod.spec?.containers?.find((x) => x.name === container) ?? pod.spec?.containers?.[0];
  const r = resolveImage(c?.image ?? '');
  // Go's static binaries use Go's own resolver, which follows glibc's search rules.
  return r.kind === 'ok' && r.profile.libc === 'musl' ? 'musl' : 'glibc';
}

export function resolveSource(view: NetworkView, from: Source): ResolvedSource | SourceError {
  const config = view.config;
  if (from.kind === 'external') {
    return {
      origin: { kind: 'external', ip: externalClientIP(config) },
      resolvConf: 'nameserver 8.8.8.8\n',
      hosts: '127.0.0.1\tlocalhost\n',
      libc: 'glibc',
      label: 'your machine',
    };
  }
  if (from.kind === 'node') {
    const node = view.nodeByName(from.node);
    if (!node) return { error: `node "${from.node}" not found` };
    return {
      origin: { kind: 'node', node, ip: node.ip },
      resolvConf: nodeResolvConf(config),
      hosts: nodeHostsFile(config, node.name),
      libc: 'glibc',
      label: `node/${node.name}`,
    };
  }
  const pod = view.cluster.store.get('pods', from.namespace, from.name);
  if (!pod) return { error: `pods "${from.name}" not found` };
  // The sandbox's network exists from the pod IP on: a container starting (or an init container, or
  // one restarting) sends packets whatever the pod's phase says, until the pod has finished.
  const phase = pod.status?.phase;
  if (!pod.status?.podIP || phase === 'Succeeded' || phase === 'Failed')
    return { error: `pod ${from.name} is not running (phase ${pod.status?.phase ?? 'Pending'})` };
  const node = view.nodeByName(pod.spec?.nodeName ?? '');
  if (!node) return { error: `pod ${from.name} is not bound to a node` };
  const common = {
    resolvConf: resolvConfFor(pod, config),
    hosts: hostsFileFor(pod, config),
    libc: libcOf(pod, from.container),
    label: `pod/${pod.metadata.name}`,
  };
  if (pod.spec?.hostNetwork) return { ...common, origin: { kind: 'node', node, ip: node.ip, pod } };
  return { ...common, origin: { kind: 'pod', pod, node, ip: pod.status.podIP } };
}

/** A fresh ephemeral port (net.ipv4.ip_local_port_range 32768–60999). */
export function ephemeralPort(rng: { int(n: number): number }): number {
  return 32768 + rng.int(60999 - 32768 + 1);
}
