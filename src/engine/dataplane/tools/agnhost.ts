/**
 * `/agnhost connect HOST:PORT [--protocol=tcp|udp] [--timeout=D] [--udp-data=S]`, the probe
 * Kubernetes' own e2e network tests run in a pod (test/images/agnhost/connect/connect.go): silent
 * with exit 0 on success; on failure one line on stderr with the prefix a test greps for, exit 1:
 * `UNKNOWN: …` (bad arguments), `DNS: …`, `TIMEOUT` (TCP; `TIMEOUT: …` for UDP), `REFUSED`
 * (`REFUSED: …` for UDP), `OTHER: …` (no route, or a dial with no timeout that the kernel gave up).
 * Its servers (netexec, serve-hostname, pause) are container commands (node/process-model.ts);
 * started again by `kubectl exec` they are refused here in words, as is SCTP.
 */
import type { CommandHandler, CommandResult } from '../../shell/types.ts';
import { connect } from '../network/connect.ts';
import { parseGoDuration } from '../../util/go-duration.ts';
import { SYN_GIVE_UP_MS } from './curl.ts';
import { wait, type ToolContext } from './tool-context.ts';

const fail = (stderr: string): CommandResult => ({ stdout: '', stderr: `${stderr}\n`, exitCode: 1 });

/** Go's net.SplitHostPort errors, as connect.go prints them after `UNKNOWN: `. */
function splitHostPort(dest: string): { host: string; port: string } | string {
  const colon = dest.lastIndexOf(':');
  if (colon < 0) return `address ${dest}: missing port in address`;
  const host = dest.slice(0, colon);
  if (host.includes(':')) return `address ${dest}: too many colons in address`;
  return { host, port: dest.slice(colon + 1) };
}

function connectCommand(ctx: ToolContext, args: readonly string[]): CommandResult {
  let protocol = 'tcp';
  let timeoutMs = 0;
  let udpData = 'hostname';
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') ? (eq > 0 ? a.slice(2, eq) : a.slice(2)) : undefined;
    if (name === undefined) {
      positional.push(a);
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (!['protocol', 'timeout', 'udp-data', 'sctp-data'].includes(name))
      return fail(`Error: unknown flag: --${name}`);
    if (value === undefined) return fail(`Error: flag needs an argument: --${name}`);
    if (name === 'protocol') protocol = value;
    if (name === 'udp-data') udpData = value;
    if (name === 'timeout') {
      const ms = parseGoDuration(value);
      if (ms === undefined)
        return fail(
          `Error: invalid argument "${value}" for "--timeout" flag: time: invalid duration "${value}"`,
        );
      timeoutMs = ms;
    }
  }
  if (positional.length !== 1) return fail(`Error: accepts 1 arg(s), received ${positional.length}`);
  const dest = positional[0]!;
  if (protocol === 'sctp') return fail('packetpath: agnhost connect --protocol=sctp is not simulated');
  if (protocol !== 'tcp' && protocol !== '' && protocol !== 'udp')
    return { stdout: '', stderr: `Unsupported protocol\n${protocol}`, exitCode: 1 };
  const udp = protocol === 'udp';
  const split = splitHostPort(dest);
  if (typeof split === 'string') return fail(udp ? `DNS: ${split}` : `UNKNOWN: ${split}`);
  const port = Number(split.port);
  const net = udp ? 'udp' : 'tcp';
  if (!/^\d+$/.test(split.port) || port > 65535)
    return fail(`DNS: lookup ${net}/${split.port}: unknown port`);
  const r = connect(
    {
      from: ctx.source,
      to: split.host,
      port,
      protocol: udp ? 'UDP' : 'TCP',
      ...(udp ? { payload: { bytes: udpData.length + 1 } } : {}),
    },
    ctx.cluster,
    ctx.cluster.rng,
  );
  const config = ctx.cluster.config;
  if (r.outcome === 'dns-failure') {
    wait(ctx, r.dns?.elapsedMs ?? 0);
    return fail(`DNS: lookup ${split.host} on ${config.dnsIP}:53: no such host`);
  }
  const remote = `${r.remote?.ip ?? split.host}:${port}`;
  const local = `${r.local.ip}:${r.local.port}`;
  if (r.outcome === 'timeout') {
    // No --timeout: Go dials with none and the kernel gives up on the SYN (TCP); UDP waits on read.
    if (timeoutMs > 0) {
      wait(ctx, timeoutMs);
      return fail(udp ? `TIMEOUT: read udp ${local}->${remote}: i/o timeout` : 'TIMEOUT');
    }
    if (udp)
      return fail('packetpath: agnhost connect --protocol=udp without --timeout waits for an answer forever');
    wait(ctx, SYN_GIVE_UP_MS);
    return fail(`OTHER: dial tcp ${remote}: connect: connection timed out`);
  }
  if (r.outcome === 'refused') {
    wait(ctx, r.elapsedMs);
    return fail(udp ? `REFUSED: read udp ${local}->${remote}: read: connection refused` : 'REFUSED');
  }
  if (r.outcome === 'unreachable') {
    wait(ctx, r.elapsedMs);
    return fail(
      udp
        ? `UNKNOWN: read udp ${local}->${remote}: read: no route to host`
        : `OTHER: dial tcp ${remote}: connect: no route to host`,
    );
  }
  // UDP has no handshake: the read waits for an answer, which only netexec's UDP server sends to
  // the `hostname` line; anything else leaves it waiting until the deadline.
  const answered = r.hops.some((h) => h.kind === 'delivered' && h.process === 'agnhost');
  if (udp && !answered) {
    if (timeoutMs <= 0)
      return fail('packetpath: agnhost connect --protocol=udp without --timeout waits for an answer forever');
    wait(ctx, timeoutMs);
    return fail(`TIMEOUT: read udp ${local}->${remote}: i/o timeout`);
  }
  return { stdout: '', stderr: '', exitCode: 0 };
}

export function agnhostCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const [sub, ...rest] = argv.slice(1);
    if (sub === 'connect') return connectCommand(ctx, rest);
    if (sub === undefined)
      return fail(
        "packetpath: agnhost needs a subcommand here: connect (its servers run as a container's command)",
      );
    return fail(
      `packetpath: agnhost ${sub} is a server; run it as the container's command (args: ["${sub}"]), not through kubectl exec`,
    );
  };
}
