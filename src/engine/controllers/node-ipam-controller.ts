/**
 * The node IPAM controller of kube-controller-manager (pkg/controller/nodeipam, range allocator with
 * `--allocate-node-cidrs`): each node without a podCIDR gets the lowest free `/nodeCidrMaskSize`
 * subnet of the cluster's pod subnet, in the order nodes registered. When the subnet is used up the
 * node keeps none and a `CIDRNotAvailable` event says so.
 */
import type { Node, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { formatCidr, nthSubnet, parseCidr } from '../util/ip.ts';
import { deepClone } from '../util/json.ts';
import { BaseController } from './base-controller.ts';

export class NodeIpamController extends BaseController {
  readonly name = 'node-ipam-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [['nodes', (e) => (e.type === 'ADDED' || !(e.object as Node).spec?.podCIDR ? ['all'] : [])]];
  }

  protected initialKeys(): string[] {
    return ['all'];
  }

  protected reconcile(): boolean {
    const { api, config } = this.ctx;
    const cluster = parseCidr(config.podSubnet);
    if (!cluster) return false;
    const nodes = api
      .list('nodes')
      .sort(
        (a, b) =>
          (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
          Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion),
      );
    const used = new Set(nodes.map((n) => n.spec?.podCIDR).filter((c): c is string => !!c));
    let wrote = false;
    for (const node of nodes) {
      if (node.spec?.podCIDR) continue;
      let cidr: string | undefined;
      for (let i = 0; ; i++) {
        const sub = nthSubnet(cluster, config.nodeCidrMaskSize, i);
        if (!sub) break;
        const text = formatCidr(sub);
        if (!used.has(text)) {
          cidr = text;
          break;
        }
      }
      if (!cidr) {
        this.ctx.recorder.event(
          node,
          'Normal',
          'CIDRNotAvailable',
          `Node ${node.metadata.name} status is now: CIDRNotAvailable`,
          { component: 'cidrAllocator' },
        );
        continue;
      }
      used.add(cidr);
      const next = deepClone(node);
      // spec.podCIDR is set once by this controller (the API allows it only from empty).
      api.store.update('nodes', {
        ...next,
        spec: { ...next.spec, podCIDR: cidr, podCIDRs: [cidr] },
      });
      wrote = true;
    }
    return wrote;
  }
}
