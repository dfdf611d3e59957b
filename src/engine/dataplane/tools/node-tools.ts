/**
 * Node programs besides netfilter: `crictl pods|ps|inspectp` (cri-tools: a Go tabwriter with minwidth
 * 20, padding 3; ids cut to 13 characters; CREATED from go-units HumanDuration + " ago"),
 * `bridge fdb show` / `bridge link` (flannel's cni0 and flannel.1 VTEP entries), `sysctl`, and the
 * files a node shell reads under /etc/cni/net.d (the CNI's installed conflist).
 */
import type { Pod } from '../../api/objects.ts';
import type { ToolHost } from './tool-context.ts';
import type { CommandHandler, CommandResult, SessionContext } from '../../shell/types.ts';
import { cniConfDir, cniPlugin, sandboxId } from '../../node/cni/index.ts';
import type { InstallContext } from '../../node/cni/types.ts';
import { nodeCniSettings } from '../../node/cni/cni-settings.ts';
import { parseTimestamp } from '../../util/clock.ts';
import { cniDataplane } from '../network/cni-dataplane.ts';
import { buildView } from '../network/view.ts';
import { macOf, nodeInterfaces } from '../network/interfaces.ts';
import type { ToolContext } from './tool-context.ts';
import { tabwrite } from '../../util/tabwriter.ts';

/** go-units `HumanDuration`. */
export function humanDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 1) return 'Less than a second';
  if (s === 1) return '1 second';
  if (s < 60) return `${s} seconds`;
  const m = Math.floor(s / 60);
  if (m === 1) return 'About a minute';
  if (m < 60) return `${m} minutes`;
  const h = Math.floor(s / 3600 + 0.5);
  if (h === 1) return 'About an hour';
  if (h < 48) return `${h} hours`;
  if (h < 24 * 7 * 2) return `${Math.floor(h / 24)} days`;
  return `${Math.floor(h / 24 / 7)} weeks`;
}

/** crictl's table writer (`tabwriter.NewWriter(os.Stdout, 20, 1, 3, ' ', 0)`); the last column is not padded. */
function crictlTable(rows: readonly (readonly string[])[]): string {
  return tabwrite(rows.map((r) => `${r.join('\t')}\n`).join(''), { minwidth: 20, padding: 3 });
}

function podsOn(cluster: ToolHost, node: string): Pod[] {
  return cluster.store
    .list('pods')
    .filter(
      (p) => p.spec?.nodeName === node && (p.status?.podIP !== undefined || p.status?.phase === 'Running'),
    )
    .sort(
      (a, b) =>
        b.metadata.creationTimestamp.localeCompare(a.metadata.creationTimestamp) ||
        a.metadata.name.localeCompare(b.metadata.name),
    );
}

function ago(cluster: ToolHost, ts: string | undefined): string {
  return ts ? `${humanDuration(cluster.clock.now() - parseTimestamp(ts))} ago` : 'Unknown';
}

type ContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/** Value flags of `crictl pods` / `crictl ps` (urfave/cli: `--name x`, `--name=x`); the rest are booleans. */
const CRICTL_VALUE_FLAGS = new Set([
  'name',
  'namespace',
  'id',
  'pod',
  'state',
  's',
  'label',
  'image',
  'last',
  'n',
]);
const CRICTL_BOOL_FLAGS = new Set(['q', 'quiet', 'a', 'all', 'no-trunc', 'latest', 'l', 'v', 'verbose']);

interface CrictlListFlags {
  readonly values: ReadonlyMap<string, string>;
  readonly bools: ReadonlySet<string>;
}

function parseCrictlListFlags(args: readonly string[]): CrictlListFlags | { readonly error: string } {
  const values = new Map<string, string>();
  const bools = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') return { error: `crictl takes no arguments here: "${a}"` };
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const key = eq >= 0 ? body.slice(0, eq) : body;
    if (CRICTL_VALUE_FLAGS.has(key)) {
      const v = eq >= 0 ? body.slice(eq + 1) : args[++i];
      if (v === undefined) return { error: `flag needs an argument: ${a}` };
      values.set(key, v);
    } else if (CRICTL_BOOL_FLAGS.has(key)) bools.add(key);
    else if (!a.startsWith('--') && [...key].every((c) => CRICTL_BOOL_FLAGS.has(c)))
      // crictl enables urfave/cli's short-option handling: `-aq` is `-a -q`.
      for (const c of key) bools.add(c);
    else return { error: `flag provided but not defined: ${a}` };
  }
  return { values, bools };
}

/**
 * cri-tools `matchesRegex`: an empty pattern matches everything; otherwise Go regexp.MatchString,
 * unanchored (so `--name c` matches every name with a "c" in it).
 */
function matchesRegex(pattern: string | undefined, s: string): boolean {
  if (!pattern) return true;
  try {
    return new RegExp(pattern).test(s);
  } catch {
    return false;
  }
}

function crictlFatal(cluster: ToolHost, msg: string): { stdout: string; stderr: string; exitCode: number } {
  return { stdout: '', stderr: `time="${cluster.clock.rfc3339()}" level=fatal msg="${msg}"\n`, exitCode: 1 };
}

/** --last N / --latest keep the newest N after sorting newest first, as getSandboxesList does. */
function limit<T>(items: readonly T[], f: CrictlListFlags): readonly T[] {
  const last = Number(f.values.get('last') ?? f.values.get('n') ?? 0);
  const n = f.bools.has('latest') || f.bools.has('l') ? 1 : last > 0 ? last : items.length;
  return items.slice(0, n);
}

export function crictlCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const node = ctx.node ?? ctx.pod?.spec?.nodeName ?? '';
    const [sub, ...rest] = argv.slice(1);
    const cluster = ctx.cluster;
    if (sub === 'pods' || sub === 'ps') {
      const f = parseCrictlListFlags(rest);
      if ('error' in f) return crictlFatal(cluster, f.error);
      const quiet = f.bools.has('q') || f.bools.has('quiet');
      const noTrunc = f.bools.has('no-trunc');
      const short = (id: string): string => (noTrunc ? id : id.slice(0, 13));
      const state = (f.values.get('state') ?? f.values.get('s'))?.toLowerCase();
      if (sub === 'pods') {
        if (state !== undefined && state !== 'ready' && state !== 'notready')
          return crictlFatal(cluster, '--state should be ready or notready');
        const pods = podsOn(cluster, node).filter((p) => {
          const ready = p.status?.phase === 'Running' && !p.metadata.deletionTimestamp;
          return (
            matchesRegex(f.values.get('name'), p.metadata.name) &&
            matchesRegex(f.values.get('namespace'), p.metadata.namespace ?? 'default') &&
            sandboxId(p.metadata.uid).startsWith(f.values.get('id') ?? '') &&
            (state === undefined || (state === 'ready') === ready)
          );
        });
        // -q prints the full sandbox IDs, one a line, no header (sandbox.go: fmt.Printf("%s\n", pod.Id)).
        if (quiet)
          return {
            stdout: limit(pods, f)
              .map((p) => `${sandboxId(p.metadata.uid)}\n`)
              .join(''),
            stderr: '',
            exitCode: 0,
          };
        const rows = [['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME']];
        for (const p of limit(pods, f)) {
          const ready = p.status?.phase === 'Running' && !p.metadata.deletionTimestamp;
          rows.push([
            short(sandboxId(p.metadata.uid)),
            ago(cluster, p.status?.startTime ?? p.metadata.creationTimestamp),
            ready ? 'Ready' : 'NotReady',
            p.metadata.name,
            p.metadata.namespace ?? 'default',
            '0',
            '(default)',
          ]);
        }
        return { stdout: crictlTable(rows), stderr: '', exitCode: 0 };
      }
      // ps: running containers unless -a or --state; --name filters the container name, --pod the
      // sandbox ID (a prefix, as containerd's truncindex resolves it), --namespace the pod's.
      const all = f.bools.has('a') || f.bools.has('all');
      const podFilter = f.values.get('pod') ?? '';
      const containers: { readonly p: Pod; readonly id: string; readonly cs: ContainerStatus }[] = [];
      for (const p of podsOn(cluster, node)) {
        if (!sandboxId(p.metadata.uid).startsWith(podFilter)) continue;
        if (!matchesRegex(f.values.get('namespace'), p.metadata.namespace ?? 'default')) continue;
        for (const cs of p.status?.containerStatuses ?? []) {
          const running = cs.state?.running !== undefined;
          const csState = running ? 'running' : 'exited';
          if (state !== undefined ? state !== csState : !running && !all) continue;
          if (!matchesRegex(f.values.get('name'), cs.name)) continue;
          containers.push({ p, id: (cs.containerID ?? '').replace(/^\w+:\/\//, ''), cs });
        }
      }
      if (quiet)
        return {
          stdout: limit(containers, f)
            .map((c) => `${c.id}\n`)
            .join(''),
          stderr: '',
          exitCode: 0,
        };
      const rows = [
        ['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE'],
      ];
      for (const { p, id, cs } of limit(containers, f)) {
        const running = cs.state?.running !== undefined;
        const image = (cs.imageID ?? '').replace(/^.*@sha256:/, '');
        const started = cs.state?.running?.startedAt ?? cs.state?.terminated?.startedAt;
        rows.push([
          short(id),
          image.slice(0, 13),
          ago(cluster, started),
          running ? 'Running' : 'Exited',
          cs.name,
          String(cs.restartCount ?? 0),
          short(sandboxId(p.metadata.uid)),
          p.metadata.name,
          p.metadata.namespace ?? 'default',
        ]);
      }
      return { stdout: crictlTable(rows), stderr: '', exitCode: 0 };
    }
    if (sub === 'inspectp') {
      const id = rest.find((a) => !a.startsWith('-'));
      if (!id)
        return {
          stdout: '',
          stderr: 'time="2026-01-01T00:00:00Z" level=fatal msg="ID cannot be empty"\n',
          exitCode: 1,
        };
      const pod = podsOn(cluster, node).find((p) => sandboxId(p.metadata.uid).startsWith(id));
      if (!pod)
        return {
          stdout: '',
          stderr: `E0101 00:00:00.000000    4242 remote_runtime.go:432] "PodSandboxStatus from runtime service failed" err="rpc error: code = NotFound desc = an error occurred when try to find sandbox \\"${id}\\": not found" podSandboxID="${id}"\ntime="${cluster.clock.rfc3339()}" level=fatal msg="getting the pod sandbox status for \\"${id}\\": rpc error: code = NotFound desc = an error occurred when try to find sandbox \\"${id}\\": not found"\n`,
          exitCode: 1,
        };
      return { stdout: `${JSON.stringify(inspectp(ctx, pod), null, 2)}\n`, stderr: '', exitCode: 0 };
    }
    return {
      stdout: '',
      stderr: sub
        ? `No help topic for '${sub}'\n`
        : 'NAME:\n   crictl - client for CRI\n\nUSAGE:\n   crictl [global options] command [command options]\n\nCOMMANDS:\n   inspectp  Display the status of one or more pods\n   pods      List pods\n   ps        List containers\n',
      exitCode: sub ? 3 : 0,
    };
  };
}

function inspectp(ctx: ToolContext, pod: Pod): unknown {
  const id = sandboxId(pod.metadata.uid);
  const created = parseTimestamp(pod.status?.startTime ?? pod.metadata.creationTimestamp);
  const host = pod.spec?.hostNetwork === true;
  return {
    status: {
      id,
      metadata: {
        attempt: 0,
        name: pod.metadata.name,
        namespace: pod.metadata.namespace ?? 'default',
        uid: pod.metadata.uid,
      },
      state: pod.status?.phase === 'Running' ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY',
      createdAt: `${new Date(created).toISOString().replace('Z', '000000Z')}`,
      network: { additionalIps: [], ip: host ? '' : (pod.status?.podIP ?? '') },
      linux: {
        namespaces: {
          options: {
            ipc: host ? 'NODE' : 'POD',
            network: host ? 'NODE' : 'POD',
            pid: 'CONTAINER',
            targetId: '',
            usernsOptions: null,
          },
        },
      },
      labels: {
        ...(pod.metadata.labels ?? {}),
        'io.kubernetes.pod.name': pod.metadata.name,
        'io.kubernetes.pod.namespace': pod.metadata.namespace ?? 'default',
        'io.kubernetes.pod.uid': pod.metadata.uid,
      },
      annotations: {
        'kubernetes.io/config.seen': pod.metadata.creationTimestamp,
        'kubernetes.io/config.source': 'api',
      },
      runtimeHandler: '',
    },
    info: {
      pid: 1000 + (parseInt(id.slice(0, 4), 16) % 60000),
      processStatus: 'running',
      netNamespaceClosed: false,
      image: 'registry.k8s.io/pause:3.10.1',
      snapshotKey: id,
      snapshotter: 'overlayfs',
      runtimeHandler: '',
      runtimeType: 'io.containerd.runc.v2',
      cniResult: host
        ? null
        : {
            Interfaces: {
              eth0: {
                IPConfigs: [
                  {
                    IP: pod.status?.podIP ?? '',
                    Gateway: cniPlugin(ctx.cluster.config.cni).gateway(
                      buildView(ctx.cluster).nodeByName(pod.spec?.nodeName ?? '')?.podCIDR ?? '',
                    ),
                  },
                ],
                Mac: macOf(`eth0/${pod.metadata.uid}`),
                Sandbox: `/var/run/netns/cni-${pod.metadata.uid}`,
                PciID: '',
                SocketPath: '',
              },
              lo: {
                IPConfigs: [{ IP: '127.0.0.1', Gateway: '' }],
                Mac: '00:00:00:00:00:00',
                Sandbox: `/var/run/netns/cni-${pod.metadata.uid}`,
                PciID: '',
                SocketPath: '',
              },
            },
            DNS: [{}, {}],
            Routes: null,
          },
    },
  };
}

export function bridgeCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const [object, sub] = argv.slice(1);
    const view = buildView(ctx.cluster);
    const node = view.nodeByName(ctx.node ?? ctx.pod?.spec?.nodeName ?? '');
    const dp = cniDataplane(ctx.cluster);
    if (!node) return { stdout: '', stderr: '', exitCode: 0 };
    const { ifaces } = nodeInterfaces(view, node);
    if (object === 'link' && (sub === undefined || sub === 'show')) {
      const out = ifaces
        .filter((i) => i.master)
        .map(
          (i) =>
            `${i.index}: ${i.name}@${i.peer}: <${i.flags}> mtu ${i.mtu} master ${i.master} state forwarding priority 32 cost 2 \n`,
        )
        .join('');
      return { stdout: out, stderr: '', exitCode: 0 };
    }
    if (object === 'fdb' && (sub === undefined || sub === 'show')) {
      let out = '';
      // flanneld programs one permanent entry per remote VTEP; the bridge lists its ports' own MACs.
      if (dp.tunnelDevice === 'flannel.1')
        for (const other of view.nodes)
          if (other.name !== node.name)
            out += `${macOf(`flannel.1/${other.name}`)} dev flannel.1 dst ${other.ip} self permanent\n`;
      const bridge = cniPlugin(dp.cni).bridge;
      const br = bridge ? ifaces.find((i) => i.name === bridge) : undefined;
      if (br) {
        out += `${br.mac} dev ${br.name} vlan 1 master ${br.name} permanent\n${br.mac} dev ${br.name} master ${br.name} permanent\n`;
        for (const i of ifaces.filter((x) => x.master === br.name))
          out += `${i.mac} dev ${i.name} vlan 1 master ${br.name} permanent\n${i.mac} dev ${i.name} master ${br.name} permanent\n`;
      }
      return { stdout: out, stderr: '', exitCode: 0 };
    }
    return {
      stdout: '',
      stderr: `Command "${object ?? ''}" is unknown, try "bridge help".\n`,
      exitCode: 255,
    };
  };
}

const SYSCTLS: Record<string, string> = {
  'net.ipv4.ip_forward': '1',
  'net.bridge.bridge-nf-call-iptables': '1',
  'net.ipv4.conf.all.rp_filter': '0',
  'net.ipv4.ip_local_port_range': '32768\t60999',
  'net.ipv4.tcp_syn_retries': '6',
  'net.ipv4.tcp_retries2': '15',
  'net.netfilter.nf_conntrack_max': '131072',
  'net.netfilter.nf_conntrack_tcp_timeout_established': '86400',
  'net.netfilter.nf_conntrack_tcp_timeout_close_wait': '3600',
  'net.ipv4.vs.conntrack': '1',
};

export function sysctlCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const names = argv.slice(1).filter((a) => !a.startsWith('-'));
    const values = argv.includes('-n');
    let out = '';
    let err = '';
    for (const n of names) {
      const key = n.replace(/\//g, '.');
      const v =
        SYSCTLS[key] ?? (ctx.source.kind === 'pod' && key === 'net.ipv4.ip_forward' ? '1' : undefined);
      if (v === undefined)
        err += `sysctl: cannot stat /proc/sys/${key.replace(/\./g, '/')}: No such file or directory\n`;
      else out += values ? `${v}\n` : `${key} = ${v}\n`;
    }
    return { stdout: out, stderr: err, exitCode: err ? (ctx.profile?.tools.includes('ash') ? 1 : 255) : 0 };
  };
}

/** What the CNI's installer knew when it wrote `node`'s files (the settings its agent read). */
function installContext(cluster: ToolHost, node: string): InstallContext {
  const config = cluster.config;
  return {
    node,
    podCIDR: buildView(cluster).nodeByName(node)?.podCIDR ?? '',
    podSubnet: config.podSubnet,
    confDir: cniConfDir(config),
    dp: cniDataplane(cluster, node),
    settings: nodeCniSettings(cluster.store, cluster.nodeState, config.cni, node),
  };
}

/** The installed conflist as the CNI's installer writes it on each node. */
export function installedConflist(cluster: ToolHost, node: string): string {
  const plugin = cniPlugin(cluster.config.cni);
  return plugin.installedConflist?.(installContext(cluster, node)) ?? plugin.conflist;
}

/** Files a node shell sees besides resolv.conf/hosts: the CNI configuration and /proc/sys basics. */
export function nodeFiles(cluster: ToolHost, node: string): Record<string, string> {
  if (cluster.config.disableDefaultCNI) return { '/proc/sys/net/ipv4/ip_forward': '1\n' };
  const plugin = cniPlugin(cluster.config.cni);
  const ctx = installContext(cluster, node);
  return {
    [`${ctx.confDir}/${plugin.confFile}`]: installedConflist(cluster, node),
    '/proc/sys/net/ipv4/ip_forward': '1\n',
    ...plugin.extraNodeFiles?.(ctx),
  };
}

/**
 * The node whose root a directory is, seen from where chroot runs: a container's hostPath mount of
 * the node's `/` (the `/host` of `kubectl debug node/…`), or `/` itself on the node.
 */
function nodeRootAt(ctx: ToolContext, context: SessionContext, dir: string): SessionContext | undefined {
  if (context.kind === 'node') return dir === '/' ? context : undefined;
  const pod = ctx.pod;
  const node = pod?.spec?.nodeName;
  if (context.kind !== 'pod' || !pod || !node) return undefined;
  const rootVolumes = new Set(
    (pod.spec?.volumes ?? []).filter((v) => v.hostPath?.path.replace(/\/+$/, '') === '').map((v) => v.name),
  );
  const container = pod.spec?.containers?.find((c) => c.name === context.container);
  const mountsRoot = container?.volumeMounts?.some(
    (m) => rootVolumes.has(m.name) && (m.mountPath.replace(/\/+$/, '') || '/') === dir,
  );
  return mountsRoot ? { kind: 'node', node } : undefined;
}

/**
 * `chroot NEWROOT [COMMAND [ARG]...]`, the step every guide gives after `kubectl debug node/…`: the
 * profiles that mount the node's root put it at /host, and `chroot /host` enters it, so the shell
 * sees the node's own files and programs (iptables-save, nft, conntrack, crictl). Without a command
 * both chroots (coreutils and BusyBox) run `${SHELL:-/bin/sh} -i`; a debug container sets no SHELL,
 * and /bin/sh on a kind node (Debian) or a k3s VM (Ubuntu) is dash. Errors are worded by the chroot
 * that runs: BusyBox's in busybox and netshoot (Alpine), coreutils' on the node and in Debian images.
 */
export function chrootCommand(ctx: ToolContext): CommandHandler {
  return (argv, io) => {
    const busybox = ctx.profile?.tools.includes('ash') === true;
    const fail = (stderr: string, exitCode: number): CommandResult => ({ stdout: '', stderr, exitCode });
    const dir = argv[1];
    if (dir === undefined)
      return busybox
        ? fail(
            'BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: chroot NEWROOT [PROG ARGS]\n\nRun PROG with root directory set to NEWROOT\n',
            1,
          )
        : fail("chroot: missing operand\nTry 'chroot --help' for more information.\n", 125);
    const root = nodeRootAt(ctx, io.context, dir.replace(/\/+$/, '') || '/');
    if (!root)
      return busybox
        ? fail(`chroot: can't change root directory to '${dir}': No such file or directory\n`, 1)
        : fail(`chroot: cannot change root directory to '${dir}': No such file or directory\n`, 125);
    const command = argv.slice(2);
    const program = command[0]?.slice(command[0].lastIndexOf('/') + 1);
    const shells = ['sh', 'bash', 'dash'];
    if (command.length === 0 || (command.length === 1 && shells.includes(program ?? ''))) {
      if (!io.interactive) return { stdout: '', stderr: '', exitCode: 0 };
      const shell = command.length === 0 ? 'sh' : program!;
      return { stdout: '', stderr: '', exitCode: 0, enter: { ...root, shell } };
    }
    const r = ctx.cluster.shell.execIn(root, command, io.stdin);
    if (r) return r;
    return busybox
      ? fail(`chroot: can't execute '${command[0]!}': No such file or directory\n`, 127)
      : fail(
          // quote() in the C locale a debug container runs in: plain apostrophes.
          `chroot: failed to run command '${command[0]!}': No such file or directory\n`,
          127,
        );
  };
}
