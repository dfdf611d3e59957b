/**
 * `docker` on the learner's machine when the cluster is kind: the nodes are containers of the
 * `kindest/node` image on the `kind` network (kind's provider runs them with `--hostname NAME
 * --name NAME --label io.x-k8s.kind.cluster=… --label io.x-k8s.kind.role=… --privileged
 * --restart=on-failure:1 --net kind`, the control plane publishing 6443 on 127.0.0.1), and
 * `docker exec` is the documented way onto one. What it answers:
 * - `docker ps [-a] [-q]`: docker's table (formatter.NewTable: minwidth 10, padding 3), the COMMAND
 *   quoted and cut at 20 characters with "…", CREATED/STATUS from go-units HumanDuration;
 * - `docker exec [-i] [-t] CONTAINER CMD...`: runs in the node (its root, PATH and programs); `-it`
 *   with a shell opens a session there;
 * - `docker inspect [-f FORMAT] NAME...`: the JSON docker prints (4-space indent), the node's
 *   address under NetworkSettings.Networks.kind, or the Go template applied;
 * - docker's own errors for a missing container, a missing command, a command docker has but this
 *   machine does not model, and the usage errors of cobra.
 * The image is the one kind v0.31 pins for Kubernetes v1.35.0 (pkg/apis/config/defaults/image.go).
 */
import type { Cluster } from './cluster.ts';
import type { CommandHandler, CommandResult } from '../shell/types.ts';
import { tabwrite } from '../util/tabwriter.ts';
import { fnv32a } from '../util/rng.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { parseTimestamp } from '../util/clock.ts';
import { humanDuration } from '../dataplane/tools/node-tools.ts';
import { macOf } from '../dataplane/network/interfaces.ts';
import { executeGoTemplate, parseGoTemplate } from '../kubectl/printers/go-template.ts';

const IMAGE = 'kindest/node:v1.35.0';
const IMAGE_DIGEST = 'sha256:452d707d4862f52530247495d180205e029056831160e22870e37e3f6c1ac31f';
const ENTRYPOINT = ['/usr/local/bin/entrypoint', '/sbin/init'];
/** A node container starts this long before its kubelet registers the Node object. */
const BOOT_MS = 20_000;

/** Whether the learner's machine runs docker: kind's nodes are its containers; k3s nodes are VMs. */
export function hasDocker(cluster: Pick<Cluster, 'config'>): boolean {
  return cluster.config.distribution !== 'k3s';
}

interface NodeContainer {
  readonly name: string;
  readonly role: string;
  readonly ip: string;
  readonly id: string;
  readonly created: number;
}

/** Docker's ids are random 64-hex strings; ours derive from what they name, so runs repeat. */
function hex64(seed: string): string {
  return bytesToHex(sha256(utf8ToBytes(seed)));
}

function containers(cluster: Cluster): NodeContainer[] {
  return cluster.config.nodes.flatMap((n) => {
    const node = cluster.store.get('nodes', undefined, n.name);
    if (!node) return [];
    return [
      {
        name: n.name,
        role: n.role,
        ip: n.internalIP,
        id: hex64(`docker/${cluster.config.name}/${n.name}`),
        created: parseTimestamp(node.metadata.creationTimestamp) - BOOT_MS,
      },
    ];
  });
}

function find(cluster: Cluster, ref: string): NodeContainer | undefined {
  const all = containers(cluster);
  // Docker resolves a full id, a name, then a unique id prefix.
  return (
    all.find((c) => c.id === ref || c.name === ref || c.name === ref.replace(/^\//, '')) ??
    (ref.length > 0 && /^[0-9a-f]+$/.test(ref)
      ? (() => {
          const matches = all.filter((c) => c.id.startsWith(ref));
          return matches.length === 1 ? matches[0] : undefined;
        })()
      : undefined)
  );
}

const fail = (stderr: string, exitCode = 1): CommandResult => ({ stdout: '', stderr, exitCode });
const noSuch = (ref: string) => fail(`Error response from daemon: No such container: ${ref}\n`);

/** cobra's arguments error, as the docker CLI words it. */
function needsArgs(command: string, count: number, usage: string): CommandResult {
  return fail(
    `docker: 'docker ${command}' requires at least ${count} argument${count === 1 ? '' : 's'}\n\nUsage:  docker ${command} ${usage}\n\nSee 'docker ${command} --help' for more information\n`,
  );
}

function ps(cluster: Cluster, args: readonly string[]): CommandResult {
  let quiet = false;
  for (const a of args) {
    if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '-a' || a === '--all' || a === '-aq' || a === '-qa') quiet ||= a.includes('q');
    else return fail(`unknown flag: ${a}\nSee 'docker ps --help'.\n`, 125);
  }
  const now = cluster.clock.now();
  // Newest first; kind creates the nodes together, the control plane first.
  const list = containers(cluster).reverse();
  if (quiet) return { stdout: list.map((c) => `${c.id.slice(0, 12)}\n`).join(''), stderr: '', exitCode: 0 };
  const command = `"${ENTRYPOINT.join(' ').slice(0, 19)}…"`;
  const rows = [['CONTAINER ID', 'IMAGE', 'COMMAND', 'CREATED', 'STATUS', 'PORTS', 'NAMES']];
  for (const c of list)
    rows.push([
      c.id.slice(0, 12),
      IMAGE,
      command,
      `${humanDuration(now - c.created)} ago`,
      `Up ${humanDuration(now - c.created - 1000)}`,
      c.role === 'control-plane' ? '127.0.0.1:6443->6443/tcp' : '',
      c.name,
    ]);
  const text = tabwrite(rows.map((r) => `${r.join('\t')}\n`).join(''), { minwidth: 10, padding: 3 });
  return { stdout: text, stderr: '', exitCode: 0 };
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000000Z');
}

/** `docker inspect`'s object for a node container (the fields a learner reads, in docker's order). */
function inspectObject(cluster: Cluster, c: NodeContainer): Record<string, unknown> {
  const cluster_ = cluster.config.name;
  const mac = macOf(`eth0/${c.name}`);
  return {
    Id: c.id,
    Created: iso(c.created),
    Path: ENTRYPOINT[0],
    Args: ENTRYPOINT.slice(1),
    State: {
      Status: 'running',
      Running: true,
      Paused: false,
      Restarting: false,
      OOMKilled: false,
      Dead: false,
      Pid: 1000 + (fnv32a(c.name) % 60000),
      ExitCode: 0,
      Error: '',
      StartedAt: iso(c.created + 300),
      FinishedAt: '0001-01-01T00:00:00Z',
    },
    Image: `sha256:${hex64(IMAGE)}`,
    Name: `/${c.name}`,
    RestartCount: 0,
    Driver: 'overlay2',
    Platform: 'linux',
    HostConfig: {
      NetworkMode: 'kind',
      PortBindings:
        c.role === 'control-plane' ? { '6443/tcp': [{ HostIp: '127.0.0.1', HostPort: '6443' }] } : {},
      RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 1 },
      Privileged: true,
      SecurityOpt: ['seccomp=unconfined', 'apparmor=unconfined', 'label=disable'],
      Tmpfs: { '/run': '', '/tmp': '' },
    },
    Config: {
      Hostname: c.name,
      Tty: true,
      Env: ['KUBECONFIG=/etc/kubernetes/admin.conf', 'container=docker'],
      Cmd: null,
      Image: `${IMAGE}@${IMAGE_DIGEST}`,
      Entrypoint: ENTRYPOINT,
      Labels: { 'io.x-k8s.kind.cluster': cluster_, 'io.x-k8s.kind.role': c.role },
      StopSignal: 'SIGRTMIN+3',
    },
    NetworkSettings: {
      Ports: c.role === 'control-plane' ? { '6443/tcp': [{ HostIp: '127.0.0.1', HostPort: '6443' }] } : {},
      Networks: {
        kind: {
          MacAddress: mac,
          Aliases: null,
          NetworkID: hex64(`network/kind`),
          EndpointID: hex64(`endpoint/${c.name}`),
          Gateway: '172.18.0.1',
          IPAddress: c.ip,
          IPPrefixLen: 16,
          IPv6Gateway: 'fc00:f853:ccd:e793::1',
          GlobalIPv6Address: `fc00:f853:ccd:e793::${c.ip.split('.')[3]}`,
          GlobalIPv6PrefixLen: 64,
          DNSNames: [c.name, c.id.slice(0, 12)],
        },
      },
    },
  };
}

function inspect(cluster: Cluster, args: readonly string[]): CommandResult {
  let format: string | undefined;
  const refs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-f' || a === '--format') format = args[++i] ?? '';
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
    else if (a.startsWith('-f') && a.length > 2) format = a.slice(2);
    else if (a.startsWith('-')) return fail(`unknown flag: ${a}\nSee 'docker inspect --help'.\n`, 125);
    else refs.push(a);
  }
  if (refs.length === 0) return needsArgs('inspect', 1, '[OPTIONS] NAME|ID [NAME|ID...]');
  const found: Record<string, unknown>[] = [];
  let stderr = '';
  for (const ref of refs) {
    const c = find(cluster, ref);
    if (c) found.push(inspectObject(cluster, c));
    else stderr += `Error: No such object: ${ref}\n`;
  }
  let stdout: string;
  if (format === undefined) stdout = `${JSON.stringify(found, null, 4)}\n`;
  else {
    try {
      const tmpl = parseGoTemplate(format);
      stdout = found.map((o) => `${executeGoTemplate(tmpl, o)}\n`).join('');
    } catch (e) {
      return fail(`template parsing error: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

const SHELLS = new Set(['sh', 'bash', 'dash']);

function exec(cluster: Cluster, args: readonly string[], interactive: boolean): CommandResult {
  let i = 0;
  let stdin = false;
  let tty = false;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    const a = args[i]!;
    if (/^-[it]+$/.test(a)) {
      stdin ||= a.includes('i');
      tty ||= a.includes('t');
    } else if (a === '--interactive') stdin = true;
    else if (a === '--tty') tty = true;
    else return fail(`unknown flag: ${a}\nSee 'docker exec --help'.\n`, 125);
  }
  const ref = args[i];
  const command = args.slice(i + 1);
  if (ref === undefined || command.length === 0)
    return needsArgs('exec', 2, '[OPTIONS] CONTAINER COMMAND [ARG...]');
  const c = find(cluster, ref);
  if (!c) return noSuch(ref);
  const context = { kind: 'node', node: c.name } as const;
  const program = command[0]!.slice(command[0]!.lastIndexOf('/') + 1);
  if (command.length === 1 && SHELLS.has(program) && stdin && tty && interactive)
    return {
      stdout: '',
      stderr: '',
      exitCode: 0,
      // docker exec ends with the shell's status and prints nothing of its own.
      enter: { ...context, shell: program, onExit: (code) => ({ stdout: '', stderr: '', exitCode: code }) },
    };
  if (tty && !interactive) return fail('the input device is not a TTY\n');
  const r = cluster.shell.execIn(context, command);
  if (r) return r;
  // runc's exec error as the daemon hands it back (translateContainerdStartErr: exit 127).
  return fail(
    `OCI runtime exec failed: exec failed: unable to start container process: exec: "${command[0]!}": ${command[0]!.includes('/') ? `stat ${command[0]!}: no such file or directory` : 'executable file not found in $PATH'}: unknown\n`,
    127,
  );
}

const MODELLED = ['exec', 'inspect', 'ps'];

export function dockerCommand(cluster: Cluster): CommandHandler {
  return (argv, io) => {
    const [sub, ...rest] = argv.slice(1);
    switch (sub) {
      case 'ps':
        return ps(cluster, rest);
      case 'container':
        if (rest[0] === 'ls' || rest[0] === 'list') return ps(cluster, rest.slice(1));
        if (rest[0] && MODELLED.includes(rest[0])) return dockerCommand(cluster)(['docker', ...rest], io);
        break;
      case 'exec':
        return exec(cluster, rest, io.interactive);
      case 'inspect':
        return inspect(cluster, rest);
      case undefined:
        return fail(
          "Usage:  docker [OPTIONS] COMMAND\n\nA self-sufficient runtime for containers\n\nRun 'docker --help' for more information\n",
        );
    }
    const known = [
      'run',
      'build',
      'pull',
      'push',
      'images',
      'login',
      'logout',
      'search',
      'version',
      'info',
      'logs',
      'stop',
      'start',
      'restart',
      'rm',
      'rmi',
      'kill',
      'cp',
      'network',
      'volume',
      'image',
      'system',
      'top',
      'stats',
      'port',
      'compose',
      'context',
      'container',
    ];
    if (sub && known.includes(sub))
      return fail(
        `packetpath: docker ${sub} is not simulated (docker ps, docker exec and docker inspect are)\n`,
      );
    return fail(`docker: unknown command: docker ${sub}\n\nRun 'docker --help' for more information\n`);
  };
}
