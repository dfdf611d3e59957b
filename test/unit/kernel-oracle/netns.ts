/**
 * Network namespaces for the kernel oracle: a real Linux kernel, with Debian's iproute2, iptables,
 * nftables, ipset and conntrack, standing in for a kind cluster's nodes and pods. Every namespace and
 * process this module creates carries a prefix unique to the test process, so two test runs on one
 * machine never meet, and `destroy()` removes them all (also on a failed test: call it in afterAll).
 * Only addresses inside these namespaces are used.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** Why the kernel oracle cannot run here, or undefined when it can. */
export function kernelOracleUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  if (process.getuid?.() !== 0) return 'not root (network namespaces need CAP_SYS_ADMIN)';
  for (const tool of [
    'ip',
    'iptables-restore',
    'iptables-save',
    'nft',
    'ipset',
    'conntrack',
    'bridge',
    'python3',
  ]) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0)
      return `${tool} is not installed (.ci/run installs it)`;
  }
  const probe = `ppk${process.pid}probe`;
  const made = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (made.status !== 0) return `ip netns add failed: ${made.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return undefined;
}

export class Namespaces {
  private readonly prefix = `ppk${process.pid % 100000}-`;
  private readonly created: string[] = [];
  private readonly servers: ChildProcess[] = [];

  /** Creates a namespace with lo up, IPv6 off (no router solicitations), and returns its full name. */
  add(short: string): string {
    const name = this.prefix + short;
    run('ip', ['netns', 'add', name]);
    this.created.push(name);
    this.exec(name, 'ip link set lo up');
    this.exec(name, 'sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1');
    return name;
  }

  /** Runs a shell line inside a namespace; throws with its stderr when it fails. */
  exec(ns: string, line: string, input?: string): string {
    return run('ip', ['netns', 'exec', ns, 'sh', '-c', line], input);
  }

  /** Like exec, but returns the exit status and both streams instead of throwing. */
  try(ns: string, line: string, input?: string): { status: number; stdout: string; stderr: string } {
    const r = spawnSync('ip', ['netns', 'exec', ns, 'sh', '-c', line], {
      input,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  }

  /** Starts a long-running process inside a namespace (a server); it is killed by destroy(). */
  background(ns: string, argv: readonly string[]): ChildProcess {
    const child = spawn('ip', ['netns', 'exec', ns, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.servers.push(child);
    return child;
  }

  destroy(): void {
    for (const child of this.servers) child.kill('SIGKILL');
    for (const ns of this.created) {
      const pids = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).stdout ?? '';
      for (const pid of pids.split('\n').filter(Boolean)) spawnSync('kill', ['-9', pid]);
      spawnSync('ip', ['netns', 'del', ns]);
    }
    this.created.length = 0;
  }
}

function run(file: string, args: readonly string[], input?: string): string {
  try {
    return execFileSync(file, args, { input, encoding: 'utf8', timeout: 60_000, stdio: 'pipe' });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')}: ${e.stderr?.trim() || e.message}`);
  }
}
