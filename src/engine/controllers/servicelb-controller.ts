/**
 * k3s's ServiceLB (klipper-lb), after k3s `pkg/cloudprovider/servicelb.go` and `loadbalancer.go`: for
 * every `type: LoadBalancer` Service without a `loadBalancerClass`, a DaemonSet
 * `svclb-<svc>-<first 8 of uid>` in kube-system whose `rancher/klipper-lb` containers hold each
 * service port as a hostPort (so a node where the port is taken keeps its pod Pending), restricted to
 * nodes labelled `svccontroller.k3s.cattle.io/enablelb=true` once any node carries that label. The
 * Service's `status.loadBalancer.ingress` lists the nodes with a ready svclb pod (ExternalIPs if any
 * node has one, else InternalIPs, sorted; with externalTrafficPolicy Local only nodes with a ready
 * endpoint). Runs on k3s unless `--disable servicelb` (`packetpath.k3s.disable: [servicelb]`).
 */
import type { ClusterConfig } from '../api/cluster-config.ts';
import { distributionOf } from '../api/distribution.ts';
import type { Manifest, Node, Pod, ResourceKey, Service } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { objectKey } from '../api/store.ts';
import { isStatusError } from '../api/errors.ts';
import { jsonEqual } from '../util/json.ts';
import { BaseController, splitKey } from './base-controller.ts';
import { isPodReady } from '../api/pod-status.ts';
import { computeHash } from './deployment-util.ts';
import { metallbControllerRunning } from '../api/edge/metallb-pools.ts';

const NS = 'kube-system';
const SVC_NAME = 'svccontroller.k3s.cattle.io/svcname';
const SVC_NAMESPACE = 'svccontroller.k3s.cattle.io/svcnamespace';
const ENABLE_LB = 'svccontroller.k3s.cattle.io/enablelb';
const NODE_SELECTOR = 'svccontroller.k3s.cattle.io/nodeselector';
const LB_POOL = 'svccontroller.k3s.cattle.io/lbpool';
const PRIORITY = 'svccontroller.k3s.cattle.io/priorityclassname';
export const KLIPPER_LB_IMAGE = 'rancher/klipper-lb:v0.4.13';

/** `generateName`: the service name cut to 48 characters (not on a trailing hyphen) plus 8 of the uid. */
export function svclbName(svc: Service): string {
  let name = svc.metadata.name;
  if (name.length > 48) {
    let cut = 48;
    while (cut > 1 && name[cut - 1] === '-') cut--;
    name = name.slice(0, cut);
  }
  return `svclb-${name}-${svc.metadata.uid.slice(0, 8)}`;
}

function localTraffic(svc: Service): boolean {
  return svc.spec?.externalTrafficPolicy === 'Local';
}

/** `newDaemonSet`. */
export function svclbDaemonSetFor(svc: Service, enableNodeSelector: boolean): Manifest {
  const ds = svclbDaemonSetBody(svc, enableNodeSelector);
  const meta = ds.metadata as { annotations: Record<string, string> };
  meta.annotations[APPLIED_HASH] = appliedHash(ds);
  return ds;
}

/** wrangler's objectset records a hash of what it applied, so an unchanged object is left alone. */
const APPLIED_HASH = 'objectset.rio.cattle.io/hash';

function appliedHash(ds: Manifest): string {
  const meta = ds.metadata as { labels: unknown };
  return computeHash({ metadata: { labels: meta.labels }, spec: ds.spec } as never);
}

function svclbDaemonSetBody(svc: Service, enableNodeSelector: boolean): Manifest {
  const name = svclbName(svc);
  const ns = svc.metadata.namespace ?? 'default';
  const ranges = (svc.spec?.loadBalancerSourceRanges ?? []).join(',') || '0.0.0.0/0';
  const nodeSelector: Record<string, string> = {};
  if (enableNodeSelector) {
    nodeSelector[ENABLE_LB] = 'true';
    const pool = svc.metadata.labels?.[LB_POOL];
    if (pool) nodeSelector[LB_POOL] = pool;
  }
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name,
      namespace: NS,
      labels: {
        [NODE_SELECTOR]: String(enableNodeSelector),
        [SVC_NAME]: svc.metadata.name,
        [SVC_NAMESPACE]: ns,
      },
      annotations: {
        'objectset.rio.cattle.io/owner-gvk': '/v1, Kind=Service',
        'objectset.rio.cattle.io/owner-name': svc.metadata.name,
        'objectset.rio.cattle.io/owner-namespace': ns,
      },
    },
    spec: {
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      template: {
        metadata: { labels: { app: name, [SVC_NAME]: svc.metadata.name, [SVC_NAMESPACE]: ns } },
        spec: {
          priorityClassName: svc.metadata.annotations?.[PRIORITY] ?? 'system-node-critical',
          serviceAccountName: 'svclb',
          automountServiceAccountToken: false,
          securityContext: { sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }] },
          ...(enableNodeSelector ? { nodeSelector } : {}),
          tolerations: [
            { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
          ],
          containers: (svc.spec?.ports ?? []).map((p) => {
            const proto = p.protocol ?? 'TCP';
            const cname = `lb-${proto.toLowerCase()}-${p.port}`;
            const dest = localTraffic(svc)
              ? [
                  { name: 'DEST_PORT', value: String(p.nodePort ?? p.port) },
                  { name: 'DEST_IPS', valueFrom: { fieldRef: { fieldPath: 'status.hostIPs' } } },
                ]
              : [
                  { name: 'DEST_PORT', value: String(p.port) },
                  { name: 'DEST_IPS', value: (svc.spec?.clusterIPs ?? []).join(',') },
                ];
            return {
              name: cname,
              image: KLIPPER_LB_IMAGE,
              imagePullPolicy: 'IfNotPresent',
              ports: [{ name: cname, containerPort: p.port, hostPort: p.port, protocol: proto }],
              env: [
                { name: 'SRC_PORT', value: String(p.port) },
                { name: 'SRC_RANGES', value: ranges },
                { name: 'DEST_PROTO', value: proto },
                ...dest,
              ],
              securityContext: { capabilities: { add: ['NET_ADMIN'] } },
            };
          }),
        },
      },
    },
  };
}

export function serviceLBEnabled(config: ClusterConfig): boolean {
  return distributionOf(config).serviceLB(config);
}

function isServiceLB(svc: Service | undefined): boolean {
  return (
    !!svc &&
    svc.spec?.type === 'LoadBalancer' &&
    !svc.spec.loadBalancerClass &&
    !svc.metadata.deletionTimestamp
  );
}

export class ServiceLBController extends BaseController {
  readonly name = 'servicelb';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    if (!serviceLBEnabled(this.ctx.config)) return [];
    return [
      ['services', (e) => [objectKey(e.object.metadata.namespace, e.object.metadata.name)]],
      [
        'pods',
        (e) => {
          const l = e.object.metadata.labels ?? {};
          return l[SVC_NAME] && l[SVC_NAMESPACE] ? [objectKey(l[SVC_NAMESPACE], l[SVC_NAME])] : [];
        },
      ],
      ['nodes', () => this.initialKeys()],
      [
        'endpointslices.discovery.k8s.io',
        (e) => {
          const svc = e.object.metadata.labels?.['kubernetes.io/service-name'];
          return svc ? [objectKey(e.object.metadata.namespace, svc)] : [];
        },
      ],
    ];
  }

  protected initialKeys(): string[] {
    if (!serviceLBEnabled(this.ctx.config)) return [];
    const keys = this.ctx.api
      .list('services')
      .filter((s) => s.spec?.type === 'LoadBalancer')
      .map((s) => objectKey(s.metadata.namespace, s.metadata.name));
    for (const ds of this.ctx.api.list('daemonsets.apps', NS)) {
      const l = ds.metadata.labels ?? {};
      if (l[SVC_NAME] && l[SVC_NAMESPACE]) keys.push(objectKey(l[SVC_NAMESPACE], l[SVC_NAME]));
    }
    return keys;
  }

  protected reconcile(key: string): boolean {
    const [ns, name] = splitKey(key);
    const svc = this.ctx.api.get('services', ns, name);
    const mine = this.ctx.api
      .list('daemonsets.apps', NS)
      .filter((d) => d.metadata.labels?.[SVC_NAME] === name && d.metadata.labels?.[SVC_NAMESPACE] === ns);
    if (!svc || !isServiceLB(svc)) {
      let wrote = false;
      for (const ds of mine) {
        this.ctx.api.delete('daemonsets.apps', NS, ds.metadata.name);
        if (svc)
          this.event(
            svc,
            'Normal',
            'DeletedDaemonSet',
            `Deleted LoadBalancer DaemonSet ${NS}/${ds.metadata.name}`,
          );
        wrote = true;
      }
      if (svc && svc.spec?.type !== 'LoadBalancer' && (svc.status?.loadBalancer?.ingress ?? []).length > 0) {
        this.ctx.api.updateStatus({
          ...svc,
          status: { ...svc.status, loadBalancer: {} },
        });
        wrote = true;
      }
      return wrote;
    }
    let wrote = this.ensureServiceAccount();
    const nodes = this.ctx.api.list('nodes');
    const selector = nodes.some((n) => n.metadata.labels?.[ENABLE_LB] !== undefined);
    const desired = svclbDaemonSetFor(svc, selector);
    const dsName = svclbName(svc);
    for (const stale of mine.filter((d) => d.metadata.name !== dsName)) {
      this.ctx.api.delete('daemonsets.apps', NS, stale.metadata.name);
      wrote = true;
    }
    const current = mine.find((d) => d.metadata.name === dsName);
    if (!current) {
      this.event(svc, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer', 'service-controller');
      try {
        this.ctx.api.create(desired);
      } catch (e) {
        if (!isStatusError(e)) throw e;
      }
      this.event(svc, 'Normal', 'AppliedDaemonSet', `Applied LoadBalancer DaemonSet ${NS}/${dsName}`);
      this.event(svc, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer', 'service-controller');
      wrote = true;
    } else if (current.metadata.annotations?.[APPLIED_HASH] !== appliedHash(desired)) {
      const meta = desired.metadata as {
        labels: Record<string, string>;
        annotations: Record<string, string>;
      };
      this.ctx.api.update({
        ...current,
        metadata: { ...current.metadata, labels: meta.labels, annotations: meta.annotations },
        spec: desired.spec,
      });
      this.event(svc, 'Normal', 'AppliedDaemonSet', `Applied LoadBalancer DaemonSet ${NS}/${dsName}`);
      wrote = true;
    }
    // MetalLB and ServiceLB both claim LoadBalancer Services (k3s docs: disable servicelb first); while
    // MetalLB's controller runs, its addresses stand and the svclb pods only hold the ports.
    if (metallbControllerRunning(this.ctx.api)) return wrote;
    return this.patchStatus(svc, nodes) || wrote;
  }

  private ensureServiceAccount(): boolean {
    if (this.ctx.api.get('serviceaccounts', NS, 'svclb')) return false;
    try {
      this.ctx.api.create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'svclb', namespace: NS },
      });
      return true;
    } catch {
      return false;
    }
  }

  /** `getStatus` + `patchStatus`. */
  private patchStatus(svc: Service, nodes: readonly Node[]): boolean {
    const ns = svc.metadata.namespace ?? 'default';
    let readyNodes: Set<string> | undefined;
    if (localTraffic(svc)) {
      readyNodes = new Set();
      for (const slice of this.ctx.api.list('endpointslices.discovery.k8s.io', ns)) {
        if (slice.metadata.labels?.['kubernetes.io/service-name'] !== svc.metadata.name) continue;
        for (const ep of slice.endpoints ?? [])
          if (ep.targetRef?.kind === 'Pod' && ep.conditions?.ready === true && ep.nodeName)
            readyNodes.add(ep.nodeName);
      }
    }
    const pods = this.ctx.api
      .list('pods', NS)
      .filter(
        (p: Pod) =>
          p.metadata.labels?.[SVC_NAME] === svc.metadata.name && p.metadata.labels?.[SVC_NAMESPACE] === ns,
      );
    const ext = new Set<string>();
    const int = new Set<string>();
    for (const p of pods) {
      const nodeName = p.spec?.nodeName;
      if (!nodeName || !p.status?.podIP || !isPodReady(p)) continue;
      if (readyNodes && !readyNodes.has(nodeName)) continue;
      const node = nodes.find((n) => n.metadata.name === nodeName);
      for (const a of node?.status?.addresses ?? []) {
        if (a.type === 'ExternalIP') ext.add(a.address);
        else if (a.type === 'InternalIP') int.add(a.address);
      }
    }
    const ips = [...(ext.size > 0 ? ext : int)].filter((ip) => !ip.includes(':')).sort();
    const ingress = ips.map((ip) => ({ ip, ipMode: 'VIP' }));
    const previous = svc.status?.loadBalancer?.ingress ?? [];
    if (jsonEqual(ingress, previous)) return false;
    this.ctx.api.updateStatus({
      ...svc,
      status: { ...svc.status, loadBalancer: ingress.length > 0 ? { ingress } : {} },
    });
    if (ingress.length === 0)
      this.event(svc, 'Warning', 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
    else
      this.event(
        svc,
        'Normal',
        'UpdatedLoadBalancer',
        `Updated LoadBalancer with new IPs: [${previous.map((i) => i.ip ?? i.hostname ?? '').join(' ')}] -> [${ips.join(' ')}]`,
      );
    return true;
  }

  private event(
    svc: Service,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    component = 'servicelb',
  ): void {
    this.ctx.recorder.event(svc, type, reason, message, { component });
  }
}
