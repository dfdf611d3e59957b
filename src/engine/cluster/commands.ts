/**
 * The command registry: which programs exist where. On the learner's host: kubectl (the shell adds
 * the `k` alias and its own utilities). In a pod: what the container's image has (the catalogue in
 * `node/images.ts`): the shell's implementations of coreutils/busybox tools, and the pod-aware
 * `hostname`, `id`, `whoami`, `ps`. On a node: the node's tools.
 *
 * The programs of the dataplane come from its table (`dataplaneCommands`, in
 * `dataplane/tools/register.ts`): add a tool there. A pod command is offered only when the image's
 * tool list names it, so `curl` in a busybox pod stays `sh: curl: not found`, exactly as on a real
 * cluster. Each cluster builds its own resolver; nothing here is shared between clusters.
 */
import type { Container } from 'kubernetes-types/core/v1';
import type { ConfigMap, Pod } from '../api/objects.ts';
import { ROOT_CA_CONFIGMAP } from '../controllers/root-ca-cert-publisher.ts';
import { RESOURCES } from '../api/resources.ts';
import type {
  CommandHandler,
  CommandResolver,
  SessionContext,
  SessionEnvironment,
  ShellFlavour,
} from '../shell/types.ts';
import { completeKubectl } from '../shell/kubectl-completion.ts';
import { imageVersion, resolveImage, type ImageProfile } from '../node/images.ts';
import { containerArgv } from '../node/process-model.ts';
import { containerLogs, type ToolRunner } from '../node/container-runtime.ts';
import {
  containerEnvFor,
  hostsFileFor,
  podUtsHostname,
  resolvConfFor,
  serviceAccountFiles,
} from '../node/pod-files.ts';
import { createKubectl } from '../kubectl/index.ts';
import { TOP_LEVEL_ORDER } from '../kubectl/commands/registry.ts';
import type { Cluster } from './cluster.ts';
import { dataplaneCommands } from '../dataplane/tools/register.ts';
import { nodeRoot } from '../dataplane/tools/node-filesystem.ts';
import { dockerCommand, hasDocker } from './docker-cli.ts';
import { coreDnsContainerLog } from '../dataplane/network/dns-client.ts';
import { klogLine, kubeProxyStartupLog } from '../dataplane/proxy/ipvs/deprecation.ts';
import { coreDnsStartupBanner } from '../dataplane/dns/log-plugin.ts';
import { corefileAt, reloadLog } from '../dataplane/dns/reload-log.ts';
import { defaultCorefileText, validateCorefile } from '../dataplane/dns/corefile.ts';
import { corednsFileMap, corefileFiles } from '../dataplane/dns/coredns-files.ts';
import { parseTimestamp } from '../util/clock.ts';
import type { LogLine } from '../node/container-runtime.ts';
import { containerLayer } from '../node/container-layer.ts';
import { tarCommand } from '../shell/utilities/tar.ts';

/** A running container a pod command acts in. */
export interface PodTarget {
  readonly cluster: Cluster;
  readonly pod: Pod;
  readonly container: Container;
  readonly profile: ImageProfile;
  readonly context: Extract<SessionContext, { kind: 'pod' }>;
}

/**
 * Standard programs every image with a shell carries (busybox applets or Debian's essential
 * packages), even where the catalogue's tool list, which names what matters in labs, omits them.
 * `ps` is not here: Debian-based images lack procps.
 */
const SHELL_IMAGE_BASICS = new Set([
  'sh',
  'cat',
  'echo',
  'printf',
  'ls',
  'sleep',
  'env',
  'printenv',
  'hostname',
  'touch',
  'rm',
  'mkdir',
  'rmdir',
  'cp',
  'mv',
  'grep',
  'egrep',
  'fgrep',
  'sed',
  'awk',
  'head',
  'tail',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tr',
  'tee',
  'xargs',
  'base64',
  'seq',
  'basename',
  'dirname',
  'true',
  'false',
  'test',
  'id',
  'whoami',
  'which',
  'clear',
]);

/** Programs a container's main process may be that print what its files hold. */
const FILE_READERS = new Set(['cat', 'ls', 'head', 'tail', 'grep', 'chroot']);

function isBusybox(profile: ImageProfile): boolean {
  return profile.tools.includes('ash');
}

function hasTool(profile: ImageProfile, name: string): boolean {
  if (profile.tools.includes(name)) return true;
  if (name === 'bash' || name === 'ash') return false;
  return profile.shell !== undefined && SHELL_IMAGE_BASICS.has(name);
}

/** busybox/alpine `sh` is ash; Debian's `sh` is dash; `bash` is bash. */
function flavourFor(profile: ImageProfile, program: string | undefined): ShellFlavour {
  const name = program?.slice(program.lastIndexOf('/') + 1) ?? profile.shell ?? 'sh';
  if (name === 'bash' || name === 'zsh') return 'bash';
  return isBusybox(profile) ? 'ash' : 'dash';
}

function binDir(profile: ImageProfile, name: string): string {
  if (isBusybox(profile))
    return name === 'env' || name === 'xargs' || name === 'which' ? `/usr/bin/${name}` : `/bin/${name}`;
  return ['sh', 'bash', 'cat', 'echo', 'ls', 'sleep', 'rm', 'mkdir', 'hostname'].includes(name)
    ? `/bin/${name}`
    : `/usr/bin/${name}`;
}

/** A container's log as the kubelet serves it: the lines with their times, or the API server's error text. */
export type LogRead =
  | { readonly ok: true; readonly lines: readonly LogLine[] }
  | { readonly ok: false; readonly error: string };

/** A cluster's programs: the resolver its shell looks commands up in, and how its containers run tools. */
export interface ClusterCommands {
  readonly resolve: CommandResolver;
  /** A network tool as a container's process (the container runtime's way into the dataplane). */
  readonly runTool: ToolRunner;
  /** A container's log as the kubelet serves it (pods/log). */
  readonly readLog: (pod: Pod, container: string, previous: boolean) => LogRead;
  /** The handler `kubectl exec` runs a command with in a container (pods/exec), if the image has it. */
  readonly execCommand: (name: string, context: SessionContext) => CommandHandler | undefined;
}

export function createClusterCommands(cluster: Cluster): ClusterCommands {
  // Programs on the learner's workstation besides the shell's own utilities (curl, nc, ping, trace);
  // in-pod network tools (curl, wget, nc, nslookup, dig, ping, ip, ss); node programs (iptables-save,
  // ipvsadm, nft, crictl, ip, conntrack).
  const {
    host: hostCommands,
    pod: podCommands,
    node: nodeCommands,
  } = dataplaneCommands<Cluster, PodTarget>();
  // The container whose main process the runtime is playing (runTool): it runs its own programs
  // whatever its status says at that moment.
  let starting: { readonly uid: string; readonly container: string } | undefined;
  const podTarget = (ctx: Extract<SessionContext, { kind: 'pod' }>): PodTarget | undefined => {
    const pod = cluster.store.get('pods', ctx.namespace, ctx.pod);
    if (!pod || pod.metadata.deletionTimestamp) return undefined;
    const container = pod.spec?.containers?.find((c) => c.name === ctx.container);
    const status = pod.status?.containerStatuses?.find((s) => s.name === ctx.container);
    const playing = starting?.uid === pod.metadata.uid && starting.container === ctx.container;
    if (!container || (!status?.state?.running && !playing)) return undefined;
    const image = resolveImage(container.image ?? '');
    if (image.kind !== 'ok') return undefined;
    return { cluster, pod, container, profile: image.profile, context: ctx };
  };

  // A network tool as a container's process: the kubelet runs it as the container starts, and a
  // running script's later rounds run as its log is read; their waits add up without moving the clock.
  const runTool: ToolRunner = (pod, container, argv) => {
    const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find(
      (c) => c.name === container,
    );
    const image = resolveImage(spec?.image ?? '');
    const name = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
    const factory = podCommands.get(name);
    if (!spec || image.kind !== 'ok' || !hasTool(image.profile, name)) return undefined;
    const context = {
      kind: 'pod',
      namespace: pod.metadata.namespace ?? 'default',
      pod: pod.metadata.name,
      container,
    } as const;
    // Programs that read the container's files (cat, ls, chroot /host …) run through the shell, in
    // the container's own view; the dataplane's tools run directly.
    const handler: CommandHandler | undefined = factory
      ? factory({ cluster, pod, container: spec, profile: image.profile, context })
      : FILE_READERS.has(name)
        ? (args, io) =>
            cluster.shell.execIn(context, args, io.stdin) ?? { stdout: '', stderr: '', exitCode: 0 }
        : undefined;
    if (!handler) return undefined;
    const outer = starting;
    starting = { uid: pod.metadata.uid ?? '', container };
    let ran: { value: ReturnType<CommandHandler>; elapsedMs: number };
    try {
      ran = cluster.detachedWaits.run(() =>
        handler(argv, { stdin: '', env: {}, context, interactive: false }),
      );
    } finally {
      starting = outer;
    }
    const { value, elapsedMs } = ran;
    const { stdout, stderr, exitCode, output } = value;
    return { stdout, stderr, exitCode, elapsedMs, ...(output ? { output } : {}) };
  };

  /** What the kubelet serves for a container, with the system components' own lines merged in. */
  const logLines = (pod: Pod, container: string, previous: boolean): LogLine[] | undefined => {
    const tools = { state: cluster.nodeState, run: runTool };
    const r = containerLogs(pod, container, { previous, now: cluster.clock.now(), tools });
    if (!r.ok) return undefined;
    // System components whose log depends on cluster state, not only on their image's program:
    // kube-proxy's start-up (mode, IPVS deprecation) and CoreDNS's banner plus `log` plugin lines.
    const system = previous ? [] : componentLog(cluster, pod, container);
    const dns = previous ? [] : coreDnsContainerLog(cluster, pod, container);
    return [...r.lines, ...system, ...dns].sort((a, b) => a.time - b.time);
  };

  const readLog = (pod: Pod, container: string, previous: boolean): LogRead => {
    const r = containerLogs(pod, container, {
      previous,
      now: cluster.clock.now(),
      tools: { state: cluster.nodeState, run: runTool },
    });
    return r.ok ? { ok: true, lines: logLines(pod, container, previous) ?? [] } : r;
  };

  const resolveCommand = (name: string, context: SessionContext): CommandHandler | undefined => {
    // `kubectl exec POD -- CMD` runs CMD through the shell so it gets the container's files and env.
    // The shell's builtins stand for the coreutils binaries every image with a userland has; an
    // image without a shell (distroless, scratch) has neither.
    const coreutil =
      ['echo', 'printf', 'test', '[', 'true', 'false', 'pwd'].includes(name) &&
      (context.kind !== 'pod' || podTarget(context)?.profile.shell !== undefined);
    if (!resolver(name, context) && !coreutil) return undefined;
    return (argv, io) =>
      cluster.shell.execIn(context, argv, io.stdin) ?? { stdout: '', stderr: '', exitCode: 127 };
  };

  const kubectl = createKubectl(cluster, {
    resolveCommand,
    containerLogs: (pod, container, opts) =>
      logLines(pod as Pod, container, opts.previous)
        ?.map((l) => `${l.text}\n`)
        .join(''),
    containerLogLines: (pod, container, opts) => logLines(pod as Pod, container, opts.previous),
  });

  const podCommand = (name: string, target: PodTarget): CommandHandler | undefined => {
    if (!hasTool(target.profile, name)) return undefined;
    const registered = podCommands.get(name);
    if (registered) return registered(target);
    const own = podTools(target, name);
    if (own) return own;
    return cluster.shell.utility(name);
  };

  const resolver: CommandResolver = Object.assign(
    (rawName: string, context: SessionContext): CommandHandler | undefined => {
      const name = rawName.includes('/') ? rawName.slice(rawName.lastIndexOf('/') + 1) : rawName;
      switch (context.kind) {
        case 'host':
          if (rawName !== name) return undefined;
          if (name === 'kubectl') return kubectl;
          if (name === 'docker') return hasDocker(cluster) ? dockerCommand(cluster) : undefined;
          return hostCommands.get(name)?.(cluster);
        case 'pod': {
          const target = podTarget(context);
          // `/host/usr/sbin/iptables-save` is the node's program, not the image's.
          if (!target || underHostMount(target, rawName)) return undefined;
          return podCommand(name, target);
        }
        case 'node': {
          const registered = nodeCommands.get(name);
          if (registered) return registered(cluster, context.node);
          return cluster.shell.utility(name);
        }
      }
    },
    {
      environment: (context: SessionContext): SessionEnvironment | undefined => {
        if (context.kind === 'host') return undefined;
        if (context.kind === 'node') return nodeEnvironment(cluster, context);
        const target = podTarget(context);
        return target ? podEnvironment(target) : undefined;
      },
      complete: (argv: readonly string[], current: string) => {
        if (argv[0] !== 'kubectl') return undefined;
        return completeKubectl(argv, current, {
          verbs: TOP_LEVEL_ORDER,
          resources: RESOURCES,
          names: (info, ns) =>
            [...new Set(cluster.store.list(info.key, ns).map((o) => o.metadata.name))].sort(),
          namespaces: () => cluster.store.list('namespaces').map((n) => n.metadata.name),
        });
      },
      names: (context: SessionContext): readonly string[] => {
        if (context.kind === 'host')
          return ['kubectl', ...(hasDocker(cluster) ? ['docker'] : []), ...hostCommands.keys()];
        if (context.kind === 'node') return [...nodeCommands.keys()];
        const target = podTarget(context);
        if (!target) return [];
        return [...new Set([...target.profile.tools, ...SHELL_IMAGE_BASICS])].filter((n) =>
          hasTool(target.profile, n),
        );
      },
    },
  );
  return { resolve: resolver, runTool, readLog, execCommand: resolveCommand };
}

function podEnvironment(target: PodTarget): SessionEnvironment {
  const { cluster, pod, container, profile, context } = target;
  const config = cluster.config;
  const ns = pod.metadata.namespace ?? 'default';
  const hostname = podUtsHostname(pod, config);
  const env: Record<string, string> = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOSTNAME: hostname,
  };
  const nodeIP = config.nodes.find((n) => n.name === pod.spec?.nodeName)?.internalIP;
  const vars = containerEnvFor(pod, container, {
    configMap: (n, name) => cluster.store.get('configmaps', n, name),
    secret: (n, name) => cluster.store.get('secrets', n, name),
    services: cluster.store.list('services'),
    hostIP: nodeIP,
  });
  for (const [k, v] of vars) env[k] = v;
  env.TERM ??= 'xterm';
  env.HOME ??= '/root';
  const automount = pod.spec?.automountServiceAccountToken !== false;
  return {
    flavour: flavourFor(profile, context.shell),
    user: 'root',
    hostname,
    home: '/root',
    cwd: container.workingDir || '/',
    env,
    files: () => {
      const files: Record<string, string> = {
        '/etc/resolv.conf': resolvConfFor(pod, config),
        '/etc/hosts': hostsFileFor(pod, config),
        '/etc/hostname': `${hostname}\n`,
      };
      Object.assign(files, mountedNodeFiles(target).files);
      if (!automount) return files;
      const system = cluster.store.get('namespaces', undefined, 'kube-system');
      const sa = cluster.store.get('serviceaccounts', ns, pod.spec?.serviceAccountName || 'default');
      const node = cluster.store.get('nodes', undefined, pod.spec?.nodeName ?? '');
      return {
        ...files,
        ...serviceAccountFiles(pod, config, {
          caCrt: (cluster.store.get('configmaps', ns, ROOT_CA_CONFIGMAP) as ConfigMap | undefined)?.data?.[
            'ca.crt'
          ],
          serviceAccountUid: sa?.metadata.uid ?? '',
          nodeUid: node?.metadata.uid ?? '',
          signingKeySeed: `${config.name}/${system?.metadata.uid ?? ''}/sa.key`,
        }),
      };
    },
    dirs: () => mountedNodeFiles(target).dirs,
    commandPath: (name) => (hasTool(profile, name) ? binDir(profile, name) : undefined),
    layer: layerOf(cluster, pod, container.name),
  };
}

/** The container's writable layer on its node (see node/container-layer.ts). */
function layerOf(cluster: Cluster, pod: Pod, container: string) {
  const status = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.ephemeralContainerStatuses ?? []),
  ].find((s) => s.name === container);
  return containerLayer(
    cluster.nodeState,
    {
      node: pod.spec?.nodeName ?? '',
      podUid: pod.metadata.uid ?? '',
      container,
      instance: status?.restartCount ?? 0,
    },
    () => new Set(cluster.store.list('pods').map((p) => p.metadata.uid ?? '')),
  );
}

function nodeEnvironment(
  cluster: Cluster,
  context: Extract<SessionContext, { kind: 'node' }>,
): SessionEnvironment | undefined {
  const node = cluster.config.nodes.find((n) => n.name === context.node);
  if (!node || !cluster.store.get('nodes', undefined, node.name)) return undefined;
  // `docker exec -it kind-worker bash` is bash; the `sh` that `chroot /host` starts is the node's
  // /bin/sh, dash on Debian (kind) and Ubuntu (k3s).
  const shell = context.shell ?? 'bash';
  return {
    flavour: /bash/.test(shell) ? 'bash' : 'dash',
    user: 'root',
    hostname: node.name,
    home: '/root',
    cwd: '/',
    env: {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOSTNAME: node.name,
      HOME: '/root',
      TERM: 'xterm',
    },
    files: () => nodeRoot(cluster, node.name).files,
    dirs: () => nodeRoot(cluster, node.name).dirs,
  };
}

/** Where a container mounts part of its node's filesystem (hostPath volumes): `/` at `/host` in a debug pod. */
function hostPathMounts(pod: Pod, container: Container): { mountPath: string; hostPath: string }[] {
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v.hostPath?.path]));
  const mounts: { mountPath: string; hostPath: string }[] = [];
  for (const m of container.volumeMounts ?? []) {
    const hostPath = volumes.get(m.name);
    if (hostPath)
      mounts.push({ mountPath: m.mountPath.replace(/\/+$/, ''), hostPath: hostPath.replace(/\/+$/, '') });
  }
  return mounts;
}

/** A node path seen through a mount: `/etc/cni` under hostPath `/` at `/host` is `/host/etc/cni`. */
function throughMount(path: string, mount: { mountPath: string; hostPath: string }): string | undefined {
  if (mount.hostPath !== '' && path !== mount.hostPath && !path.startsWith(`${mount.hostPath}/`))
    return undefined;
  return `${mount.mountPath}${path.slice(mount.hostPath.length)}`;
}

/** The node's files and directories as a container's hostPath mounts show them. */
function mountedNodeFiles(target: PodTarget): { files: Record<string, string>; dirs: string[] } {
  const files: Record<string, string> = {};
  const dirs: string[] = [];
  const mounts = hostPathMounts(target.pod, target.container);
  const nodeName = target.pod.spec?.nodeName;
  if (mounts.length === 0 || !nodeName) return { files, dirs };
  const root = nodeRoot(target.cluster, nodeName);
  for (const mount of mounts) {
    dirs.push(mount.mountPath);
    for (const [path, text] of Object.entries(root.files)) {
      const seen = throughMount(path, mount);
      if (seen !== undefined) files[seen] = text;
    }
    for (const dir of root.dirs) {
      const seen = throughMount(dir, mount);
      if (seen !== undefined) dirs.push(seen);
    }
  }
  return { files, dirs };
}

/** True when a command path names a file under one of the container's hostPath mounts (not the image's). */
function underHostMount(target: PodTarget, path: string): boolean {
  return hostPathMounts(target.pod, target.container).some(
    (m) => path === m.mountPath || path.startsWith(`${m.mountPath}/`),
  );
}

/** The pod-aware programs: what they print depends on the pod, not just on the session. */
function podTools(target: PodTarget, name: string): CommandHandler | undefined {
  const { pod, profile, container } = target;
  switch (name) {
    case 'hostname':
      return (argv) => {
        const config = target.cluster.config;
        const short = podUtsHostname(pod, config);
        if (argv[1] === '-i') return { stdout: `${pod.status?.podIP ?? ''}\n`, stderr: '', exitCode: 0 };
        if (argv[1] === '-f') {
          const fqdn = hostsFileFor(pod, config)
            .split('\n')
            .find((l) => l.startsWith(`${pod.status?.podIP}\t`))
            ?.split('\t')[1];
          return { stdout: `${fqdn ?? short}\n`, stderr: '', exitCode: 0 };
        }
        return { stdout: `${short}\n`, stderr: '', exitCode: 0 };
      };
    case 'id':
      return () => ({
        stdout: isBusybox(profile)
          ? 'uid=0(root) gid=0(root) groups=0(root),10(wheel)\n'
          : 'uid=0(root) gid=0(root) groups=0(root)\n',
        stderr: '',
        exitCode: 0,
      });
    case 'whoami':
      return () => ({ stdout: 'root\n', stderr: '', exitCode: 0 });
    case 'tar':
      return tarCommand(isBusybox(profile) ? 'busybox' : 'gnu', () => target.cluster.clock.now());
    case 'ps':
      return (argv) => {
        const main = containerArgv(container, profile).join(' ') || container.name;
        const shell = target.context.shell;
        const procs: [number, string][] = [[1, main]];
        if (shell) procs.push([7, shell]);
        procs.push([shell ? 13 : 7, argv.join(' ')]);
        if (isBusybox(profile)) {
          const rows = procs.map(([pid, cmd]) => `${String(pid).padStart(5)} root      0:00 ${cmd}`);
          return { stdout: `PID   USER     TIME  COMMAND\n${rows.join('\n')}\n`, stderr: '', exitCode: 0 };
        }
        const rows = procs.map(([pid, cmd]) => {
          const bin = cmd.split(' ')[0]!;
          return `${String(pid).padStart(7)} ?        00:00:00 ${bin.slice(bin.lastIndexOf('/') + 1)}`;
        });
        return { stdout: `    PID TTY          TIME CMD\n${rows.join('\n')}\n`, stderr: '', exitCode: 0 };
      };
  }
  return undefined;
}

/**
 * Start-up lines of the running instance of a system container, at its start time: kube-proxy's
 * (what the node's kube-proxy logged for its mode) and CoreDNS's banner.
 */
function componentLog(cluster: Cluster, pod: Pod, container: string): LogLine[] {
  const status = pod.status?.containerStatuses?.find((c) => c.name === container);
  const started = status?.state?.running?.startedAt;
  if (!started) return [];
  const at = parseTimestamp(started);
  const spec = pod.spec?.containers?.find((c) => c.name === container);
  const image = resolveImage(spec?.image ?? '');
  const version = image.kind === 'ok' ? imageVersion(image) : '';
  if (container === 'kube-proxy' && pod.metadata.labels?.['k8s-app'] === 'kube-proxy') {
    const node = pod.spec?.nodeName ?? '';
    const st = cluster.kubeProxy.rulesetFor(node);
    if (!st) return [];
    // The start-up this pod's process logged, kept per instance; the node's latest as a fallback.
    const own = st.starts.get(`${pod.metadata.uid}/${status?.restartCount ?? 0}`);
    const settings = own ? own.settings : st.running?.settings;
    const lines = kubeProxyStartupLog(
      {
        mode: settings?.mode ?? 'iptables',
        configuredMode: settings?.configuredMode ?? '',
        nodeIP: cluster.config.nodes.find((n) => n.name === node)?.internalIP ?? '',
        version: `v${version}`,
      },
      own?.log ?? st.log,
    );
    // klog stamps microseconds; a start-up takes a few hundred of them per line.
    return lines.map((l, i) => ({ time: at + i, text: klogLine(l, at + i) }));
  }
  if (container === 'coredns') {
    const current =
      cluster.store.get('configmaps', 'kube-system', 'coredns')?.data?.Corefile ??
      defaultCorefileText(cluster.config.clusterDomain);
    // The banner is the Corefile this instance started with; edits since show as the reload plugin's.
    const history = cluster.corefileHistory.versionsOr(current);
    const text = corefileAt(history, at) ?? current;
    const files = corefileFiles(corednsFileMap(cluster));
    const parsed = validateCorefile(text, files);
    if (!parsed.ok) return [];
    return [
      ...coreDnsStartupBanner(text, parsed.corefile, version, files, {
        env: Object.fromEntries(
          (spec?.env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])),
        ),
        cpuLimit: spec?.resources?.limits?.cpu?.toString(),
        nodeCpus: Number(
          cluster.store.get('nodes', undefined, pod.spec?.nodeName ?? '')?.status?.capacity?.cpu ?? 1,
        ),
      }).map((t) => ({ time: at, text: t })),
      ...reloadLog(history, at, cluster.clock.now(), pod.metadata.uid ?? pod.metadata.name, files),
    ];
  }
  return [];
}
