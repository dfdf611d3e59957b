/**
 * kube-proxy, one instance per node, as a controller (`cmd/kube-proxy/app/server.go` +
 * `pkg/proxy/{iptables,nftables,ipvs}/proxier.go`): it watches Services, EndpointSlices, Nodes, its
 * ConfigMap and its own pods, and keeps one rendered ruleset per node — the whole ruleset every sync,
 * the previous one kept for creation order. It writes nothing through the API except the IPVS
 * deprecation Warning event.
 *
 * The configuration (mode, scheduler, clusterCIDR) is read when a node's kube-proxy pod starts, as
 * the real binary reads `config.conf` once: editing the ConfigMap changes nothing until the pods are
 * restarted (`kubectl -n kube-system rollout restart ds kube-proxy`). A restart into another mode runs
 * `platformCleanup` (see cleanup.ts). On k3s (kube-proxy runs inside the k3s process) the ConfigMap,
 * or the cluster definition, applies at once. On kubeadm a node whose kube-proxy pod is not running,
 * or whose new process exited on a bad configuration, keeps its last rules (stale). With
 * `kubeProxyMode: none` (Cilium's kube-proxy replacement) nothing is rendered.
 */
import { distributionOf } from '../../api/distribution.ts';
import { isPlainObject, jsonEqual, type Json } from '../../util/json.ts';
import type {
  ConfigMap,
  EndpointSlice,
  Node,
  Pod,
  Service,
  ResourceKey,
  ResourceTypes,
  AnyObject,
} from '../../api/objects.ts';
import type { WatchHandler } from '../../api/store.ts';
import type { Controller, EventSink, NodeLocalStore } from '../../controllers/runtime.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import type { SimClock } from '../../util/clock.ts';
import type { Rng } from '../../util/rng.ts';
import { iptablesSave as printIptablesSave, iptablesListRules } from '../netfilter/iptables-save.ts';
import { applyIptablesRestore } from '../netfilter/iptables-restore.ts';
import { emptyRuleset, type IptablesRuleset } from '../netfilter/ruleset.ts';
import type { IptablesTableName } from '../netfilter/rule.ts';
import type { NftTable } from '../netfilter/nft-model.ts';
import { nftListTable as printNftTable } from '../netfilter/nft-list.ts';
import { ConntrackTable } from '../netfilter/conntrack.ts';
import { IptablesCounters } from '../netfilter/counters.ts';
import { isServiceChainName } from './iptables/chain-names.ts';
import type { Packet } from '../netfilter/packet.ts';
import { cleanupIpvsIptables, cleanupIptablesLeftovers } from './cleanup.ts';
import { buildEndpointsMap, endpointsMapsByNode } from './endpoints-map.ts';
import { ServiceRulesMemo, syncIptablesRules } from './iptables/sync-proxy-rules.ts';
import { ipvsadmList as printIpvsadm } from './ipvs/ipvsadm.ts';
import { IpvsState } from './ipvs/schedulers.ts';
import { virtualServerKey } from './ipvs/ipvs-model.ts';
import { renderIpvs, type IpvsRuleset } from './ipvs/sync-proxy-rules.ts';
import { IPVS_DEPRECATION_EVENT, proxierStartupLog, type KubeProxyLogLine } from './ipvs/deprecation.ts';
import { parseKubeProxyConfiguration, type KubeProxySettings, type ProxyMode } from './kube-proxy-config.ts';
import { renderNftables } from './nftables/sync-proxy-rules.ts';
import type { ProxyInput, ProxyNode } from './proxy-input.ts';
import { buildServicePortMap, ServiceChangeTracker } from './service-port-map.ts';
import { routePacket, type ProxyRoute } from './route.ts';
import type { NftSetState } from '../netfilter/nft-trace.ts';
import type { RecentTable } from '../netfilter/trace-packet.ts';
import { nodeProxySnapshot, restoreNodeProxy, type NodeProxySnapshot } from './node-proxy-snapshot.ts';

/** kube-proxy's state on every node for the cluster snapshot. */
export interface KubeProxySnapshot {
  readonly nodes: readonly (readonly [string, NodeProxySnapshot])[];
}

/** The API surface kube-proxy needs; `ApiServer` (and `ApiStore`) provide it. */
export interface KubeProxyApi {
  get<K extends ResourceKey>(
    resource: K,
    namespace: string | undefined,
    name: string,
  ): ResourceTypes[K] | undefined;
  list<K extends ResourceKey>(resource: K, namespace?: string): ResourceTypes[K][];
  watch(resource: ResourceKey | '*', handler: WatchHandler): () => void;
}

export interface KubeProxyContext {
  readonly api: KubeProxyApi;
  readonly clock: SimClock;
  readonly config: ClusterConfig;
  readonly recorder?: EventSink;
  /** A node's local addresses besides its InternalIP and loopback (its CNI devices'). */
  readonly nodeLocalAddresses?: (node: Node) => readonly string[];
  /**
   * Where each node's running process is kept (which pod instance started, with which settings), so a
   * restored snapshot keeps running the mode it ran, not the ConfigMap's newer one.
   */
  readonly nodeState?: NodeLocalStore;
}

/** The node-local key of the process kube-proxy runs on a node. */
const PROCESS_KEY = 'kube-proxy/process';

interface KeptProcess {
  readonly attempted?: string;
  readonly running?: { readonly settings: KubeProxySettings; readonly instance: string };
}

function keptProcessJson(attempted: string, running: KeptProcess['running']): Json {
  if (!running) return { attempted };
  const { mode, configuredMode, scheduler, clusterCIDR, masqueradeAll } = running.settings;
  const settings = {
    mode,
    configuredMode,
    scheduler,
    masqueradeAll,
    ...(clusterCIDR ? { clusterCIDR } : {}),
  };
  return { attempted, running: { instance: running.instance, settings } };
}

const PROXY_MODES: readonly ProxyMode[] = ['iptables', 'ipvs', 'nftables'];

function isProxyMode(mode: unknown): mode is ProxyMode {
  return PROXY_MODES.some((m) => m === mode);
}

/** The kept record, read back; anything not of its shape (an older snapshot) is no record. */
function keptProcess(value: Json | undefined): KeptProcess | undefined {
  if (!isPlainObject(value) || typeof value.attempted !== 'string') return undefined;
  const r = value.running;
  if (!isPlainObject(r) || typeof r.instance !== 'string' || !isPlainObject(r.settings))
    return { attempted: value.attempted };
  const { mode, configuredMode, scheduler, clusterCIDR, masqueradeAll } = r.settings;
  if (
    !isProxyMode(mode) ||
    typeof configuredMode !== 'string' ||
    typeof scheduler !== 'string' ||
    typeof masqueradeAll !== 'boolean'
  )
    return { attempted: value.attempted };
  const settings: KubeProxySettings = {
    mode,
    configuredMode,
    scheduler,
    masqueradeAll,
    ...(typeof clusterCIDR === 'string' ? { clusterCIDR } : {}),
  };
  return { attempted: value.attempted, running: { instance: r.instance, settings } };
}

/** One node's kernel state as kube-proxy left it, plus the per-connection state of the packet path. */
export interface NodeProxyState {
  running?: { readonly settings: KubeProxySettings; readonly instance: string };
  /** The last kube-proxy process that tried to start here (it may have failed on a bad config). */
  attempted?: string;
  readonly iptables: IptablesRuleset;
  nftables?: NftTable;
  ipvs?: IpvsRuleset;
  readonly ipvsState: IpvsState;
  readonly conntrack: ConntrackTable;
  readonly recent: RecentTable;
  /** The kernel's per-rule packet and byte counters (`iptables -L -v`). */
  readonly counters: IptablesCounters;
  readonly nftSets: NftSetState;
  log: KubeProxyLogLine[];
  /**
   * What each process that started here logged, by instance (pod uid/restart count): a pod's log is
   * its own, so an old pod still Terminating shows what it logged, not its successor's start-up.
   */
  readonly starts: Map<string, ProcessStart>;
}

export interface ProcessStart {
  readonly settings?: KubeProxySettings;
  readonly log: readonly KubeProxyLogLine[];
}

/** What a render reads from the API (see KubeProxy.deferred). */
interface ProxyInputs {
  readonly services: readonly Service[];
  readonly slices: readonly EndpointSlice[];
  readonly nodes: readonly ProxyNode[];
}

/** Processes whose start-up is kept per node: the running one and those still shutting down. */
const KEPT_STARTS = 4;

export type NodeMode = ProxyMode | 'none' | 'not-running';

const CONFIGMAP = { namespace: 'kube-system', name: 'kube-proxy' };

export class KubeProxy implements Controller {
  readonly name = 'kube-proxy';
  private readonly ctx: KubeProxyContext;
  private readonly nodes = new Map<string, NodeProxyState>();
  private readonly serviceChanges = new ServiceChangeTracker();
  private dirty = true;
  /**
   * Nodes whose iptables or IPVS render is owed, with the API state it is owed for. A render's result
   * depends only on its last input (iptables-save sorts chains; stale chains are deleted), so renders
   * of intermediate rounds are skipped, and the one owed at the end of a settle is done when someone
   * first reads the node's rules, from the state captured then (undefined: not captured yet, the
   * current state). The result is the one an eager render would have left; a settle nobody reads
   * after (a burst of applies) costs no render. nftables keeps creation order: it renders at once.
   */
  private readonly deferred = new Map<string, ProxyInputs | undefined>();
  private readonly pendingEvents: string[] = [];
  private unsubscribe: (() => void)[] = [];
  /** Restored from a snapshot taken between commands, when nothing was left to sync. */
  private restoredInSync = false;

  constructor(ctx: KubeProxyContext) {
    this.ctx = ctx;
  }

  start(): void {
    for (const u of this.unsubscribe) u();
    const mark: WatchHandler = () => {
      this.dirty = true;
    };
    this.unsubscribe = [
      this.ctx.api.watch('services', (e) => {
        const prev = e.type === 'ADDED' ? undefined : (e.oldObject as Service | undefined);
        const cur = e.type === 'DELETED' ? undefined : (e.object as Service);
        if (this.serviceChanges.update(prev, cur)) this.dirty = true;
      }),
      this.ctx.api.watch('endpointslices.discovery.k8s.io', mark),
      // Rules depend on a node's name, InternalIP, labels and pod CIDR (nodeInfo), not on its status otherwise.
      this.ctx.api.watch('nodes', (e) => {
        if (e.type !== 'MODIFIED' || !e.oldObject || !sameProxyNode(e.oldObject, e.object)) this.dirty = true;
      }),
      this.ctx.api.watch('configmaps', (e) => {
        if (isConfigMap(e.object)) this.dirty = true;
      }),
      this.ctx.api.watch('pods', (e) => {
        if (
          e.object.metadata.namespace === 'kube-system' &&
          e.object.metadata.labels?.['k8s-app'] === 'kube-proxy'
        )
          this.dirty = true;
      }),
      this.ctx.api.watch('daemonsets.apps', mark),
    ];
    // A restored state is what this kube-proxy had made of the same objects: a sync now would only
    // redo renders (and reset the counters of the chains they rewrite) that the original never did.
    this.dirty = !this.restoredInSync;
    this.restoredInSync = false;
  }

  snapshot(): KubeProxySnapshot {
    // An owed render is done now rather than on the next read: its input was fixed when it was owed
    // (possibly settles ago, on a node whose kube-proxy stopped since), and every read renders first,
    // so no one can tell the difference, and the snapshot needs no copy of those API objects.
    this.flush();
    return { nodes: [...this.nodes].map(([name, st]) => [name, nodeProxySnapshot(st)] as const) };
  }

  /** Before start(): the nodes' state as the snapshot has it. */
  restore(snap: KubeProxySnapshot): void {
    this.nodes.clear();
    this.deferred.clear();
    for (const [name, st] of snap.nodes) this.nodes.set(name, restoreNodeProxy(st));
    this.restoredInSync = true;
  }

  sync(): boolean {
    let wrote = false;
    if (this.dirty) {
      this.dirty = false;
      this.serviceChanges.checkout();
      this.syncAll();
    }
    while (this.pendingEvents.length > 0) {
      const nodeName = this.pendingEvents.shift() ?? '';
      const node = this.ctx.api.get('nodes', undefined, nodeName);
      if (node && this.ctx.recorder) {
        this.ctx.recorder.event(
          node,
          IPVS_DEPRECATION_EVENT.type,
          IPVS_DEPRECATION_EVENT.reason,
          IPVS_DEPRECATION_EVENT.message,
          {
            component: 'kube-proxy',
            host: nodeName,
          },
        );
        wrote = true;
      }
    }
    return wrote;
  }

  /** The mode the cluster is configured for (ConfigMap, else the cluster definition). */
  mode(): ProxyMode | 'none' {
    if (this.ctx.config.kubeProxyMode === 'none') return 'none';
    const s = this.desiredSettings();
    return s.ok ? s.settings.mode : 'iptables';
  }

  /** The mode kube-proxy is running in on one node (it may lag the ConfigMap until a restart). */
  nodeMode(node: string): NodeMode {
    if (this.ctx.config.kubeProxyMode === 'none') return 'none';
    return this.current(node)?.running?.settings.mode ?? 'not-running';
  }

  rulesetFor(node: string): NodeProxyState | undefined {
    return this.current(node);
  }

  /** `iptables-save [-t TABLE]` on the node (kube-proxy's chains; empty when none exist). */
  iptablesSave(node: string, table?: IptablesTableName): string {
    const st = this.current(node);
    if (!st) return '';
    return printIptablesSave(st.iptables, {
      ...(table ? { table } : {}),
      header: { nowMs: this.ctx.clock.now() },
    });
  }

  /** `iptables [-t TABLE] -S`. */
  iptablesRules(node: string, table: IptablesTableName = 'filter'): string {
    const st = this.current(node);
    return st ? iptablesListRules(st.iptables, table) : '';
  }

  /** `ipvsadm -Ln`: the header alone when IPVS has no virtual servers. */
  ipvsadmList(node: string): string {
    const st = this.current(node);
    return printIpvsadm(st?.ipvs?.virtualServers ?? [], st?.ipvsState.counters);
  }

  /** `nft list table ip kube-proxy`, or undefined when the table does not exist on the node. */
  nftListTable(node: string): string | undefined {
    const t = this.current(node)?.nftables;
    return t ? printNftTable(t) : undefined;
  }

  /** kube-proxy's start-up log lines on the node (mode selection, the IPVS deprecation, config errors). */
  startupLog(node: string): readonly KubeProxyLogLine[] {
    return this.current(node)?.log ?? [];
  }

  /** Routes a packet on `node` through the rules of the mode running there, with conntrack. */
  route(node: string, packet: Packet, rng: Rng, masqueradeAddress: (destIP: string) => string): ProxyRoute {
    const st = this.current(node);
    return routePacket(st, this.nodeMode(node), packet, {
      rng,
      nowMs: this.ctx.clock.now(),
      nodeIP: this.nodeIP(node),
      masqueradeAddress,
    });
  }

  private nodeIP(node: string): string {
    return this.nodeInfo().find((n) => n.name === node)?.ip ?? '';
  }

  /** The connection got its reply: conntrack ESTABLISHED, and an IPVS active connection. */
  connectionEstablished(node: string, route: ProxyRoute): void {
    const st = this.current(node);
    if (!st || !route.conntrack) return;
    st.conntrack.replied(route.conntrack, this.ctx.clock.now());
    const pair = this.ipvsPair(st, route);
    if (pair && route.conntrack.protocol === 'tcp') st.ipvsState.connect(pair.vs, pair.rs);
  }

  /** The connection closed: conntrack TIME_WAIT, and the IPVS connection becomes inactive. */
  connectionClosed(node: string, route: ProxyRoute): void {
    const st = this.current(node);
    if (!st || !route.conntrack) return;
    st.conntrack.close(route.conntrack, this.ctx.clock.now());
    const pair = this.ipvsPair(st, route);
    if (pair && route.conntrack.protocol === 'tcp') st.ipvsState.close(pair.vs, pair.rs);
  }

  private ipvsPair(st: NodeProxyState, route: ProxyRoute) {
    const tag = route.conntrack?.tag;
    const vs = tag ? st.ipvs?.virtualServers.find((v) => virtualServerKey(v) === tag) : undefined;
    const rs = vs?.realServers.find((r) => `${r.address}:${r.port}` === route.dnatTo);
    return vs && rs ? { vs, rs } : undefined;
  }

  private desiredSettings() {
    const cm = this.ctx.api.get('configmaps', CONFIGMAP.namespace, CONFIGMAP.name) as ConfigMap | undefined;
    const text = cm?.data?.['config.conf'];
    if (text !== undefined) return parseKubeProxyConfiguration(text);
    const c = this.ctx.config;
    const mode = c.kubeProxyMode === 'none' ? 'iptables' : c.kubeProxyMode;
    return parseKubeProxyConfiguration(`mode: ${mode}\nclusterCIDR: ${c.podSubnet}\n`);
  }

  /** End of a settle: fix the input of the renders sync() left owed. Writes nothing through the API. */
  settled(): boolean {
    let inputs: ProxyInputs | undefined;
    for (const [node, captured] of this.deferred)
      if (captured === undefined) this.deferred.set(node, (inputs ??= this.captureInputs()));
    return false;
  }

  private current(node: string): NodeProxyState | undefined {
    this.flush();
    return this.nodes.get(node);
  }

  /** The API objects a render reads. Stored objects are immutable, so holding the lists fixes them. */
  private captureInputs(): ProxyInputs {
    return {
      services: this.ctx.api.list('services') as Service[],
      slices: this.ctx.api.list('endpointslices.discovery.k8s.io') as EndpointSlice[],
      nodes: this.nodeInfo(),
    };
  }

  /** Renders every node whose render is owed, or only `only`. */
  private flush(only?: string): void {
    // Every read of a node's rules asks: most find nothing owed.
    if (this.deferred.size === 0) return;
    const names = only === undefined ? [...this.deferred.keys()] : this.deferred.has(only) ? [only] : [];
    const byInputs = new Map<ProxyInputs | undefined, Set<string>>();
    for (const n of names) {
      const inputs = this.deferred.get(n);
      this.deferred.delete(n);
      let group = byInputs.get(inputs);
      if (!group) byInputs.set(inputs, (group = new Set()));
      group.add(n);
    }
    for (const [inputs, group] of byInputs) this.renderOwed(group, inputs ?? this.captureInputs());
  }

  private renderOwed(names: ReadonlySet<string>, inputs: ProxyInputs): void {
    const services = buildServicePortMap(inputs.services);
    const endpoints = endpointsMapsByNode(inputs.slices);
    const serviceCIDRs = [this.ctx.config.serviceSubnet];
    const memo = new ServiceRulesMemo();
    for (const node of inputs.nodes) {
      const st = this.nodes.get(node.name);
      if (!names.has(node.name) || !st?.running || st.running.settings.mode === 'nftables') continue;
      this.render(
        st,
        {
          node,
          servicePorts: services,
          endpoints: endpoints(node.name),
          ...(st.running.settings.clusterCIDR ? { clusterCIDR: st.running.settings.clusterCIDR } : {}),
          serviceCIDRs,
          masqueradeAll: st.running.settings.masqueradeAll,
        },
        memo,
      );
    }
  }

  private syncAll(): void {
    if (this.ctx.config.kubeProxyMode === 'none') return;
    const desired = this.desiredSettings();
    const inProcess = distributionOf(this.ctx.config).kubeProxyInProcess;
    const daemonSet = this.ctx.api.get('daemonsets.apps', 'kube-system', 'kube-proxy');
    const pods = this.ctx.api
      .list('pods', 'kube-system')
      .filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy');
    let services: ReturnType<typeof buildServicePortMap> | undefined;
    let slices: EndpointSlice[] | undefined;
    const serviceCIDRs = [this.ctx.config.serviceSubnet];
    for (const node of this.nodeInfo()) {
      const st = this.stateOf(node.name);
      // A kube-proxy process starts: on kubeadm, when its DaemonSet pod on this node (re)starts; on k3s,
      // kube-proxy runs inside the k3s process and a configuration change takes effect at once.
      // kubeadm nodes are pod-managed once the DaemonSet exists or a pod-started process ran there
      // (deleting the DaemonSet leaves stale rules, not an in-process kube-proxy).
      const podManaged =
        !inProcess &&
        (daemonSet !== undefined || (st.running !== undefined && !isInProcess(st.running.instance)));
      const instance = podManaged
        ? runningInstance(pods, node.name)
        : `${IN_PROCESS} ${JSON.stringify(desired)}`;
      if (instance && instance !== st.attempted) {
        st.attempted = instance;
        this.startOn(node.name, st, instance, desired);
        this.ctx.nodeState?.set(node.name, PROCESS_KEY, keptProcessJson(instance, st.running));
        st.starts.set(instance, { ...(st.running ? { settings: st.running.settings } : {}), log: st.log });
        for (const old of [...st.starts.keys()].slice(0, -KEPT_STARTS)) st.starts.delete(old);
      }
      // Only a live process that started cleanly writes rules. A node whose kube-proxy pod is gone, or
      // whose new process exited on a bad configuration, keeps the last rules in its kernel: Services
      // that existed keep working, new ones get no rules there, as on a real node.
      if (!st.running || st.running.instance !== instance) continue;
      if (st.running.settings.mode !== 'nftables') {
        this.deferred.set(node.name, undefined);
        continue;
      }
      services ??= buildServicePortMap(this.ctx.api.list('services') as Service[]);
      slices ??= this.ctx.api.list('endpointslices.discovery.k8s.io') as EndpointSlice[];
      const input: ProxyInput = {
        node,
        servicePorts: services,
        endpoints: buildEndpointsMap(slices, node.name),
        ...(st.running.settings.clusterCIDR ? { clusterCIDR: st.running.settings.clusterCIDR } : {}),
        serviceCIDRs,
        masqueradeAll: st.running.settings.masqueradeAll,
      };
      this.render(st, input);
    }
  }

  private startOn(
    node: string,
    st: NodeProxyState,
    instance: string,
    desired: ReturnType<typeof parseKubeProxyConfiguration>,
  ): void {
    if (!desired.ok) {
      // The new process exits; the rules of the previous one stay in the kernel.
      st.log = [
        {
          severity: 'E',
          source: 'run.go:72',
          message: `"command failed" err="invalid configuration: ${desired.error}"`,
        },
      ];
      return;
    }
    const settings = desired.settings;
    // A deferred render belongs to the process being replaced: it lands before the restart's cleanup.
    if (st.running && st.running.settings.mode !== 'nftables') this.flush(node);
    if (settings.mode === 'nftables') {
      cleanupIptablesLeftovers(st.iptables);
      cleanupIpvsIptables(st.iptables);
      st.ipvs = undefined;
    } else {
      st.nftables = undefined;
    }
    st.running = { settings, instance };
    st.log = proxierStartupLog(settings.mode, settings.scheduler);
    if (settings.mode === 'ipvs') this.pendingEvents.push(node);
  }

  private render(st: NodeProxyState, input: ProxyInput, memo?: ServiceRulesMemo): void {
    const settings = st.running?.settings;
    if (!settings) return;
    const counted = st.counters.countedChains(st.iptables);
    if (settings.mode === 'iptables') applyIptablesRestore(st.iptables, syncIptablesRules(input, memo));
    else if (settings.mode === 'nftables') st.nftables = renderNftables(input, st.nftables);
    else {
      st.ipvs = renderIpvs(input, { scheduler: settings.scheduler });
      applyIptablesRestore(st.iptables, st.ipvs.iptables);
    }
    // A partial sync skips the chains of Services that did not change, so their counters live on.
    st.counters.carryOver(counted, st.iptables, isServiceChainName);
  }

  private stateOf(node: string): NodeProxyState {
    let st = this.nodes.get(node);
    if (!st) {
      st = {
        iptables: emptyRuleset(),
        ipvsState: new IpvsState(),
        conntrack: new ConntrackTable(),
        recent: new Map(),
        counters: new IptablesCounters(),
        nftSets: new Map(),
        log: [],
        starts: new Map(),
      };
      // After a restore: the process that was running keeps running, with the settings it started with.
      const kept = keptProcess(this.ctx.nodeState?.get(node, PROCESS_KEY));
      if (kept?.attempted !== undefined) st.attempted = kept.attempted;
      if (kept?.running) {
        st.running = kept.running;
        st.log = proxierStartupLog(kept.running.settings.mode, kept.running.settings.scheduler);
        st.starts.set(kept.running.instance, { settings: kept.running.settings, log: st.log });
      }
      this.nodes.set(node, st);
    }
    return st;
  }

  /** Nodes from the API when registered, else from the cluster definition. */
  private nodeInfo(): ProxyNode[] {
    const api = this.ctx.api.list('nodes') as Node[];
    if (api.length > 0) {
      return api
        .map((n) => ({
          name: n.metadata.name,
          ip: n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '',
          labels: n.metadata.labels ?? {},
          localAddresses: this.ctx.nodeLocalAddresses?.(n) ?? [],
        }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    }
    return this.ctx.config.nodes.map((n) => ({ name: n.name, ip: n.internalIP, labels: n.labels }));
  }
}

function sameProxyNode(a: AnyObject, b: AnyObject): boolean {
  const ip = (n: AnyObject) =>
    (n as Node).status?.addresses?.find((x) => x.type === 'InternalIP')?.address ?? '';
  const podCIDR = (n: AnyObject) => (n as Node).spec?.podCIDR ?? '';
  return (
    ip(a) === ip(b) &&
    podCIDR(a) === podCIDR(b) &&
    jsonEqual(a.metadata.labels ?? {}, b.metadata.labels ?? {})
  );
}

function isConfigMap(o: AnyObject): boolean {
  return o.metadata.namespace === CONFIGMAP.namespace && o.metadata.name === CONFIGMAP.name;
}

const IN_PROCESS = 'in-process';

function isInProcess(instance: string): boolean {
  return instance.startsWith(IN_PROCESS);
}

/** The running kube-proxy pod on a node, identified by uid and restart count. */
function runningInstance(pods: Pod[], node: string): string | undefined {
  const pod = pods.find(
    (p) => p.spec?.nodeName === node && p.status?.phase === 'Running' && !p.metadata.deletionTimestamp,
  );
  if (!pod) return undefined;
  const restarts = pod.status?.containerStatuses?.[0]?.restartCount ?? 0;
  return `${pod.metadata.uid}/${restarts}`;
}
