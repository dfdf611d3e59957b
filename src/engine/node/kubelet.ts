/**
 * The kubelet of one node (pkg/kubelet/kubelet.go `SyncPod`, `SyncTerminatingPod`): admits pods bound
 * to its node, creates their sandbox through the CNI plugin chain (pod IP from IPAM, or the node's IP
 * for hostNetwork pods), runs their containers (pod-lifecycle.ts), and finishes graceful deletion:
 * `Stopping container` at the deletion request, containers stop when their program reacts to the
 * stop signal or when the grace period ends, then the sandbox is torn down (CNI DEL frees the IP) and
 * the pod object is deleted.
 *
 * Stateless by design: every decision derives from the API objects and the simulated clock, so a
 * restored snapshot continues exactly as the original would have. The only persisted IPAM state, the
 * last reserved address of host-local / calico-ipam, is kept in a Node annotation
 * (LAST_RESERVED_KEY in the node-local state) standing in for the plugin's on-disk file.
 *
 * Simplified: no node heartbeats or leases, no volume mounts, no pod resource accounting, sandbox
 * retries every 10s.
 */
import type { Controller, ControllerContext } from '../controllers/runtime.ts';
import type { ApiServer } from '../apiserver/apiserver.ts';
import type { WatchEvent } from '../api/store.ts';
import type { Node, Pod } from '../api/objects.ts';
import type { ContainerImage, PodStatus } from 'kubernetes-types/core/v1';
import { WorkQueue } from '../controllers/runtime.ts';
import { objectKey, splitKey } from '../api/store.ts';
import { POD_NODE_INDEX } from '../api/store.ts';
import { jsonEqual } from '../util/json.ts';
import { parseTimestamp } from '../util/clock.ts';
import { cniPlugin, sandboxId } from './cni/index.ts';
import { nodeCniSettings, recordSandboxCreated } from './cni/cni-settings.ts';
import { distributionOf } from '../api/distribution.ts';
import { allocateIP } from './ipam.ts';
import { recordHostPortsHeld, type ContainerRuntime, type podPrograms } from './container-runtime.ts';
import { currentPull, planContainers, type PlannedEvent } from './pod-lifecycle.ts';
import { podConditions } from './pod-status.ts';
import { terminatedStatus, waitingStatus } from './container-lifecycle.ts';
import { imageIdOf, resolveImage } from './images.ts';
import { formatImageRef } from '../api/image-ref.ts';
import { ERR_REASON_NODE_PORTS, hostPortConflict, hostPorts } from '../api/host-ports.ts';
import { computePodQOS, isPodTerminal } from '../api/pod-status.ts';

/** Node annotation holding host-local's `last_reserved_ip.0` (the simulator's stand-in for the file). */
/** host-local's `last_reserved_ip.0` file under /var/lib/cni/networks/<network>/. */
export const LAST_RESERVED_KEY = 'cni/last_reserved_ip.0';
const SANDBOX_RETRY_MS = 10_000;

export class Kubelet implements Controller {
  readonly name = 'kubelet';
  readonly nodeName: string;
  private readonly ctx: ControllerContext;
  private readonly queue = new WorkQueue();
  private unwatch: (() => void) | undefined;
  /**
   * What one sync pass asks about the node's pods again and again (which IPs are held, which images
   * are being pulled), gathered on first use and kept current by the pass's own writes: only this
   * kubelet changes the status of its node's pods, so nothing else can move them during a pass. Without
   * it each of a node's hundred new pods re-read the other ninety-nine.
   */
  private pass: PassView | undefined;

  private readonly podWatch: NodePodWatch;

  /** The node's container runtime: its containers' programs, and the exits only it sees. */
  private readonly runtime: ContainerRuntime;

  constructor(ctx: ControllerContext, nodeName: string, podWatch: NodePodWatch, runtime: ContainerRuntime) {
    this.ctx = ctx;
    this.nodeName = nodeName;
    this.podWatch = podWatch;
    this.runtime = runtime;
  }

  start(): void {
    this.unwatch?.();
    this.queue.forgetAll();
    this.unwatch = this.podWatch.watch(this.nodeName, (e) => {
      const pod = e.object as Pod;
      const old = e.oldObject as Pod | undefined;
      // The kubelet's config source passes on a pod update only when the pod differs in more than its
      // status (`checkAndUpdatePod`); the status is the kubelet's own output, so writing it does not
      // start another sync of the pod.
      if (e.type === 'MODIFIED' && old && statusOnlyChange(old, pod)) return;
      this.queue.add(objectKey(pod.metadata.namespace, pod.metadata.name));
    });
    // PLEG: a container exit only the runtime sees (an attached shell's `exit`) syncs the pod.
    const unwatchPods = this.unwatch;
    const unwatchExits = this.runtime.watchContainerExits((pod) => {
      if (pod.spec?.nodeName === this.nodeName)
        this.queue.add(objectKey(pod.metadata.namespace, pod.metadata.name));
    });
    this.unwatch = () => (unwatchPods(), unwatchExits());
    for (const pod of this.podsHere()) this.queue.add(objectKey(pod.metadata.namespace, pod.metadata.name));
  }

  nextWakeup(): number | undefined {
    return this.queue.nextDue();
  }

  wake(): void {
    this.queue.addDue(this.ctx.clock.now());
  }

  sync(): boolean {
    let wrote = false;
    this.pass = {};
    // Sorted, so the order pods are handled in never depends on the history of the queue (restores).
    try {
      for (const key of this.queue.drain().sort()) {
        const [namespace, name] = splitKey(key);
        try {
          wrote = this.syncPod(namespace, name) || wrote;
        } catch {
          // A write raced with another component (object gone, namespace terminating): retry shortly.
          this.queue.addAfter(key, this.ctx.clock.now() + 1000);
        }
      }
    } finally {
      this.pass = undefined;
    }
    return wrote;
  }

  /** Pod IPs held on the node (host-local's reserved files): pods with an IP that have not finished. */
  private usedIPs(): Set<string> {
    const pass = this.pass ?? {};
    return (pass.usedIPs ??= new Set(
      this.podsHere()
        .filter(holdsPodIP)
        .map((p) => p.status!.podIP!),
    ));
  }

  /** The node's pods not being deleted, by uid: whose image pulls a new pull may share (currentPull). */
  private livePods(): Map<string, Pod> {
    const pass = this.pass ?? {};
    return (pass.livePods ??= new Map(
      this.podsHere()
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => [p.metadata.uid, p]),
    ));
  }

  /** Keeps the pass's view in step with a pod this kubelet just wrote (undefined: deleted). */
  private noteWritten(before: Pod, after: Pod | undefined): void {
    const pass = this.pass;
    if (!pass) return;
    if (pass.usedIPs) {
      if (holdsPodIP(before)) pass.usedIPs.delete(before.status!.podIP!);
      if (after && holdsPodIP(after)) pass.usedIPs.add(after.status!.podIP!);
    }
    if (pass.livePods) {
      if (after && !after.metadata.deletionTimestamp) pass.livePods.set(after.metadata.uid, after);
      else pass.livePods.delete(before.metadata.uid);
    }
  }

  private podsHere(): Pod[] {
    return this.ctx.api.byIndex('pods', POD_NODE_INDEX, this.nodeName);
  }

  private syncPod(namespace: string, name: string): boolean {
    const key = objectKey(namespace, name);
    this.queue.forget(key);
    const pod = this.ctx.api.get('pods', namespace, name);
    const node = this.ctx.api.get('nodes', undefined, this.nodeName);
    if (!pod || pod.spec?.nodeName !== this.nodeName || !node) return false;
    if (pod.metadata.deletionTimestamp) return this.terminate(pod);
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return false;
    // Admission happens once, when the kubelet first takes the pod (no hostIP reported yet).
    if (!pod.status?.hostIP && this.rejectedAtAdmission(pod)) return true;
    let current = pod;
    let wrote = false;
    if (!pod.status?.podIP) {
      const created = this.createSandbox(pod, node);
      wrote = created.wrote;
      if (!created.pod) return wrote;
      current = created.pod;
    }
    return this.runContainers(current, node) || wrote;
  }

  /**
   * The kubelet's own admission (pkg/kubelet/lifecycle/predicate.go `generalFilter`): a pod that did
   * not go through the scheduler (spec.nodeName set by hand) still cannot take host ports another pod
   * on the node holds. The pod is rejected as `rejectPod` does it: a Warning event with the predicate's
   * name as reason, phase Failed, `Pod was rejected: Predicate NodePorts failed: …`. Pods are admitted
   * in creation order, so a pod the kubelet has not reached yet still counts when it is older.
   */
  private rejectedAtAdmission(pod: Pod): boolean {
    if (hostPorts(pod).length === 0) return false;
    const used = new Set<string>();
    for (const other of this.podsHere()) {
      if (other.metadata.uid === pod.metadata.uid || isPodTerminal(other)) continue;
      if (!other.status?.hostIP && !createdBefore(other, pod)) continue;
      for (const p of hostPorts(other)) used.add(p);
    }
    if (!hostPortConflict(pod, used)) return false;
    const message = `Predicate NodePorts failed: ${ERR_REASON_NODE_PORTS}`;
    this.ctx.recorder.event(pod, 'Warning', 'NodePorts', message, {
      component: 'kubelet',
      host: this.nodeName,
    });
    const now = this.ctx.clock.rfc3339();
    this.writeStatus(pod, {
      ...pod.status,
      phase: 'Failed',
      reason: 'NodePorts',
      message: `Pod was rejected: ${message}`,
      startTime: pod.status?.startTime ?? now,
      qosClass: pod.status?.qosClass ?? computePodQOS(pod.spec),
    });
    return true;
  }

  /** RunPodSandbox + CNI ADD. Returns the updated pod when the sandbox exists. */
  private createSandbox(pod: Pod, node: Node): { wrote: boolean; pod?: Pod } {
    const { clock, api, recorder, config } = this.ctx;
    const now = clock.now();
    const key = objectKey(pod.metadata.namespace, pod.metadata.name);
    const startTime = pod.status?.startTime ? parseTimestamp(pod.status.startTime) : now;
    const attemptAt = startTime + Math.floor((now - startTime) / SANDBOX_RETRY_MS) * SANDBOX_RETRY_MS;
    const attempt = Math.round((attemptAt - startTime) / SANDBOX_RETRY_MS);
    const hostIP = nodeInternalIP(node);
    let ip: string | undefined;
    let error: string | undefined;
    if (pod.spec?.hostNetwork) ip = hostIP;
    else if (recorder.recordedSince(pod, 'FailedCreatePodSandBox', attemptAt)) {
      this.queue.addAfter(key, attemptAt + SANDBOX_RETRY_MS);
      return { wrote: false };
    } else {
      const plugin = cniPlugin(config.cni);
      const range = plugin.ipamRange(node.spec?.podCIDR ?? '');
      if (!range) error = 'failed to find plugin "' + plugin.pluginType + '" in path [/opt/cni/bin]';
      else {
        const last = this.ctx.nodeState.get(this.nodeName, LAST_RESERVED_KEY);
        const alloc = allocateIP(
          range,
          this.usedIPs(),
          typeof last === 'string' ? last : undefined,
          this.ctx.rng,
        );
        if ('ip' in alloc) {
          ip = alloc.ip;
          if (range.strategy === 'sequential') this.ctx.nodeState.set(this.nodeName, LAST_RESERVED_KEY, ip);
        } else {
          error = `plugin type="${plugin.pluginType}" failed (add): ${plugin.wrapIpamError(alloc.error)}`;
        }
      }
    }
    const nowText = clock.rfc3339(now);
    const base: PodStatus = {
      ...pod.status,
      phase: 'Pending',
      hostIP,
      hostIPs: [{ ip: hostIP }],
      startTime: pod.status?.startTime ?? nowText,
      qosClass: pod.status?.qosClass ?? computePodQOS(pod.spec),
    };
    if (error !== undefined) {
      const sandbox = sandboxId(pod.metadata.uid, attempt);
      recorder.event(
        pod,
        'Warning',
        'FailedCreatePodSandBox',
        `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${sandbox}": ${error}`,
        { component: 'kubelet', host: this.nodeName },
      );
      this.queue.addAfter(key, attemptAt + SANDBOX_RETRY_MS);
      return { wrote: this.writeStatus(pod, this.initialStatus(pod, base, false, nowText)) || true };
    }
    // CNI ADD sets eth0's MTU now; an agent pod makes the node read the CNI settings anew.
    recordSandboxCreated(
      { api, nodeState: this.ctx.nodeState, cni: config.cni, nodeMtu: config.nodeMTU },
      this.nodeName,
      pod,
      () => this.podsHere(),
    );
    if (cniPlugin(config.cni).isAgentPod(pod)) this.annotateNodeAsCniAgent(node);
    const status = this.initialStatus(pod, { ...base, podIP: ip, podIPs: [{ ip: ip! }] }, true, nowText);
    this.writeStatus(pod, status);
    return { wrote: true, pod: api.get('pods', pod.metadata.namespace, pod.metadata.name) };
  }

  private initialStatus(pod: Pod, base: PodStatus, sandboxReady: boolean, now: string): PodStatus {
    const hasInit = (pod.spec?.initContainers?.length ?? 0) > 0;
    const reason = hasInit ? 'PodInitializing' : 'ContainerCreating';
    const probe = { ...pod, status: base } as Pod;
    return {
      ...base,
      conditions: podConditions(probe, {
        sandboxReady,
        phase: 'Pending',
        initPending: (pod.spec?.initContainers ?? [])
          .filter((c) => c.restartPolicy !== 'Always')
          .map((c) => c.name),
        unready: (pod.spec?.containers ?? []).map((c) => c.name),
        now,
      }),
      ...(hasInit
        ? {
            initContainerStatuses:
              base.initContainerStatuses ?? pod.spec!.initContainers!.map((c) => waitingStatus(c, reason)),
          }
        : {}),
      containerStatuses:
        base.containerStatuses ?? (pod.spec?.containers ?? []).map((c) => waitingStatus(c, reason)),
    };
  }

  private runContainers(pod: Pod, node: Node): boolean {
    const { clock } = this.ctx;
    const now = clock.now();
    const present = imageNames(node);
    // Other pods' pulls matter only while an image is missing: gathered on the first question, each
    // pod's pull worked out when asked (a pod written twice in a pass is asked about once). forEach
    // rather than for-of: no [key, value] pair per pod and question (a node's hundred new pods ask
    // about each other's pulls).
    const earliestOtherPull = (image: string, start: number) => {
      let first = start;
      this.livePods().forEach((other, uid) => {
        if (uid === pod.metadata.uid) return;
        const pull = cachedPull(other);
        if (pull !== undefined && pull.start < first && pull.image === image) first = pull.start;
      });
      return first;
    };
    // Only while no container runs: a running process keeps the port it bound.
    const running = (pod.status?.containerStatuses ?? []).some((c) => c.state?.running);
    if (!running) recordHostPortsHeld(this.ctx.nodeState, pod, this.livePods().values(), now);
    const plan = planContainers({
      pod,
      now,
      rfc3339: (ms) => clock.rfc3339(ms),
      programs: this.runtime.programsOf(pod),
      imagePresent: (image) => present.has(image),
      pullDoneAt: (image, start, pullMs) => {
        const first = earliestOtherPull(image, start);
        return Math.max(start, first + pullMs);
      },
    });
    this.emit(pod, plan.events);
    let wrote = plan.events.length > 0;
    if (plan.pulled.length > 0) wrote = this.recordImages(node, plan.pulled) || wrote;
    wrote = this.writeStatus(pod, plan.status) || wrote;
    if (plan.wakeAt !== undefined)
      this.queue.addAfter(objectKey(pod.metadata.namespace, pod.metadata.name), plan.wakeAt);
    return wrote;
  }

  /** Graceful deletion: stop containers, tear the sandbox down, delete the pod object. */
  private terminate(pod: Pod): boolean {
    const { clock, api, recorder } = this.ctx;
    const now = clock.now();
    const grace = (pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000;
    const requested = parseTimestamp(pod.metadata.deletionTimestamp!) - grace;
    const running = (pod.status?.containerStatuses ?? []).filter((s) => s.state?.running);
    const programs = this.runtime.programsOf(pod);
    let doneAt = requested;
    let wrote = false;
    for (const s of running) {
      const fieldPath = `spec.containers{${s.name}}`;
      if (!recorder.recordedSince(pod, 'Killing', requested, fieldPath, 'Stopping container')) {
        recorder.event(
          pod,
          'Normal',
          'Killing',
          `Stopping container ${s.name}`,
          { component: 'kubelet', host: this.nodeName },
          fieldPath,
        );
        wrote = true;
      }
      const handles = programs.get(s.name)?.program.handlesStopSignal ?? true;
      doneAt = Math.max(doneAt, handles ? requested : requested + grace);
    }
    if (doneAt > now) {
      this.queue.addAfter(objectKey(pod.metadata.namespace, pod.metadata.name), doneAt);
      return wrote;
    }
    if ((pod.metadata.finalizers?.length ?? 0) > 0) {
      // The pod outlives its containers until its finalizers are removed: the status manager reports
      // them stopped and the phase terminal, then asks for the deletion (canBeDeleted) only once.
      wrote = this.writeStatus(pod, stoppedStatus(pod, programs, requested, grace, clock)) || wrote;
      if (pod.metadata.deletionGracePeriodSeconds === 0) return wrote;
      api.delete('pods', pod.metadata.namespace, pod.metadata.name, { gracePeriodSeconds: 0 });
      return true;
    }
    api.delete('pods', pod.metadata.namespace, pod.metadata.name, { gracePeriodSeconds: 0 });
    this.noteWritten(pod, undefined);
    return true;
  }

  private emit(pod: Pod, events: readonly PlannedEvent[]): void {
    const { recorder } = this.ctx;
    const obj = pod;
    for (const e of events) {
      if (e.once !== undefined && recorder.recordedSince(obj, e.reason, e.once, e.fieldPath, e.prefix))
        continue;
      recorder.event(
        obj,
        e.type,
        e.reason,
        e.message,
        { component: 'kubelet', host: this.nodeName },
        e.fieldPath,
      );
    }
  }

  private writeStatus(pod: Pod, status: PodStatus): boolean {
    if (jsonEqual(pod.status, status)) return false;
    const written: Pod = this.ctx.api.updateStatus({ ...pod, status });
    this.noteWritten(pod, written);
    return true;
  }

  /**
   * The CNI agent that just started on this node annotates its Node, as flanneld's kube subnet
   * manager and calico-node do at start (the plugin says which annotations).
   */
  private annotateNodeAsCniAgent(node: Node): void {
    const config = this.ctx.config;
    const plugin = cniPlugin(config.cni);
    const settings = nodeCniSettings(this.ctx.api, this.ctx.nodeState, config.cni, this.nodeName);
    const annotations = plugin.nodeAnnotations?.({
      node: this.nodeName,
      nodeIP: nodeInternalIP(node),
      nodeNetworkPrefix: distributionOf(config).nodeNetworkPrefix,
      podCIDR: node.spec?.podCIDR ?? '',
      dp: plugin.dataplane(settings, config.nodeMTU),
    });
    if (!annotations) return;
    const current = this.ctx.api.get('nodes', undefined, this.nodeName) ?? node;
    const merged = { ...current.metadata.annotations, ...annotations };
    if (jsonEqual(merged, current.metadata.annotations ?? {})) return;
    this.ctx.api.updateMetadata({ ...current, metadata: { ...current.metadata, annotations: merged } });
  }

  /** The node's image list (node.status.images), biggest first as the kubelet reports it. */
  private recordImages(node: Node, pulled: readonly string[]): boolean {
    const current = this.ctx.api.get('nodes', undefined, node.metadata.name) ?? node;
    const images: ContainerImage[] = [...(current.status?.images ?? [])];
    for (const name of pulled) {
      if (images.some((i) => i.names?.includes(name))) continue;
      const r = resolveImage(name);
      if (r.kind !== 'ok') continue;
      images.push({ names: [imageIdOf(r.ref), formatImageRef(r.ref)], sizeBytes: r.profile.sizeBytes });
    }
    images.sort(
      (a, b) =>
        (b.sizeBytes ?? 0) - (a.sizeBytes ?? 0) || (a.names?.[0] ?? '').localeCompare(b.names?.[0] ?? ''),
    );
    if (jsonEqual(images, current.status?.images ?? [])) return false;
    this.ctx.api.updateStatus({ ...current, status: { ...current.status, images } });
    return true;
  }
}

/** The names of the node's images (node.status.images), per stored list: a node's hundred pods ask. */
const imageNameCache = new WeakMap<object, ReadonlySet<string>>();
const NO_IMAGES: ReadonlySet<string> = new Set();

function imageNames(node: Node): ReadonlySet<string> {
  const images = node.status?.images;
  if (!images) return NO_IMAGES;
  let names = imageNameCache.get(images);
  if (!names) imageNameCache.set(images, (names = new Set(images.flatMap((i) => i.names ?? []))));
  return names;
}

/** currentPull per stored pod instance: stored objects never change, so the answer never does. */
const pullCache = new WeakMap<Pod, { image: string; start: number } | undefined>();

function cachedPull(pod: Pod): { image: string; start: number } | undefined {
  if (pullCache.has(pod)) return pullCache.get(pod);
  const pull = currentPull(pod);
  pullCache.set(pod, pull);
  return pull;
}

interface PassView {
  usedIPs?: Set<string>;
  livePods?: Map<string, Pod>;
}

function holdsPodIP(p: Pod): boolean {
  return (
    !p.spec?.hostNetwork && !!p.status?.podIP && p.status.phase !== 'Succeeded' && p.status.phase !== 'Failed'
  );
}

type PodHandler = (e: WatchEvent) => void;

/**
 * One pods watch for all the kubelets of a cluster (a kubelet's informer only lists pods bound to
 * its node, `spec.nodeName=<node>`): an event reaches the kubelets of the pod's old and new node,
 * not every node's. Created with the kubelets; the subscriptions are remade when they start.
 */
export class NodePodWatch {
  private readonly byNode = new Map<string, Set<PodHandler>>();
  private subscribed = false;

  private readonly api: ApiServer;

  constructor(api: ApiServer) {
    this.api = api;
  }

  watch(nodeName: string, handler: PodHandler): () => void {
    if (!this.subscribed) {
      this.subscribed = true;
      this.api.watch('pods', (e) => {
        const now = (e.object as Pod).spec?.nodeName;
        const before = (e.oldObject as Pod | undefined)?.spec?.nodeName;
        if (now) for (const h of this.byNode.get(now) ?? []) h(e);
        if (before && before !== now) for (const h of this.byNode.get(before) ?? []) h(e);
      });
    }
    let handlers = this.byNode.get(nodeName);
    if (!handlers) this.byNode.set(nodeName, (handlers = new Set()));
    handlers.add(handler);
    const mine = handlers;
    return () => mine.delete(handler);
  }
}

/** Whether only the status moved (a status write shares the stored spec and metadata maps). */
function statusOnlyChange(old: Pod, pod: Pod): boolean {
  const a = old.metadata;
  const b = pod.metadata;
  return (
    old.spec === pod.spec &&
    a.deletionTimestamp === b.deletionTimestamp &&
    a.deletionGracePeriodSeconds === b.deletionGracePeriodSeconds &&
    a.labels === b.labels &&
    a.annotations === b.annotations
  );
}

/** Admission order: creation time, then name (the kubelet sorts new pods by creation timestamp). */
function createdBefore(a: Pod, b: Pod): boolean {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  return ta !== tb ? ta < tb : a.metadata.name < b.metadata.name;
}

export function nodeInternalIP(node: Node): string {
  return node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
}

/**
 * A deleted pod's status once its containers are stopped: each running one terminated when it stopped
 * (nginx quits cleanly on SIGQUIT, a shell's trap exits, other programs die of SIGTERM: 143, ones that
 * ignore it of SIGKILL after the grace period: 137), the phase Succeeded only if all exited 0.
 */
function stoppedStatus(
  pod: Pod,
  programs: ReturnType<typeof podPrograms>,
  requested: number,
  grace: number,
  clock: { rfc3339(ms?: number): string },
): PodStatus {
  const statuses = (pod.status?.containerStatuses ?? []).map((s) => {
    if (!s.state?.running) return s;
    const program = programs.get(s.name)?.program;
    const handles = program?.handlesStopSignal ?? true;
    const clean =
      program?.process === 'nginx' || (handles && ['sh', 'ash', 'bash'].includes(program?.process ?? ''));
    const code = !handles ? 137 : clean ? 0 : 143;
    return terminatedStatus(s, clock.rfc3339(handles ? requested : requested + grace), code);
  });
  const failed = statuses.some((s) => (s.state?.terminated?.exitCode ?? 0) !== 0);
  const at = clock.rfc3339(requested);
  const conditions = (pod.status?.conditions ?? []).map((c) =>
    ['Ready', 'ContainersReady', 'PodReadyToStartContainers'].includes(c.type) && c.status !== 'False'
      ? {
          ...c,
          status: 'False',
          lastTransitionTime: at,
          ...(c.type === 'PodReadyToStartContainers' ? {} : { reason: 'PodCompleted' }),
        }
      : c,
  );
  return { ...pod.status, phase: failed ? 'Failed' : 'Succeeded', conditions, containerStatuses: statuses };
}
