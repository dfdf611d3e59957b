/**
 * `kubectl exec POD [-c C] [-it] -- CMD…` (pkg/cmd/exec). With `-it` at an interactive prompt and a
 * shell as the command, the shell opens a session inside the container; otherwise the command runs
 * once in the container's context through the command resolver the shell provides, and a non-zero
 * status is reported as `command terminated with exit code N`, as kubectl does.
 */
import { badRequest } from '../../api/errors.ts';
import type { Pod } from '../../api/objects.ts';
import { lookPathError } from '../../node/exec-lookup.ts';
import { fnv32a } from '../../util/rng.ts';
import type { CommandResult, SessionContext } from '../../shell/types.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError, usageError } from '../errors.ts';
import { pickContainer, mostActive, resolvePodTarget } from './pod-target.ts';

const SHELLS = new Set([
  'sh',
  'bash',
  'ash',
  'zsh',
  '/bin/sh',
  '/bin/bash',
  '/bin/ash',
  '/bin/zsh',
  '/usr/bin/bash',
]);

export function isInteractiveShell(command: readonly string[]): boolean {
  return command.length === 1 && SHELLS.has(command[0]!);
}

/** A deterministic 64-hex exec id, as containerd prints in its errors. */
function execId(seed: string): string {
  let out = '';
  for (let i = 0; out.length < 64; i++) out += fnv32a(`${seed}/${i}`).toString(16).padStart(8, '0');
  return out.slice(0, 64);
}

/** containerd's answer for a command the image does not have (runc's LookPath error inside). */
export function notFoundInPath(pod: Pod, command: string): KubectlError {
  return new KubectlError(
    `error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "${execId(`${pod.metadata.uid}/${command}`)}": OCI runtime exec failed: exec failed: unable to start container process: ${lookPathError(command)}: unknown`,
  );
}

/**
 * Checks the container can take an exec; throws the real error otherwise: kubectl's own phase check,
 * then the API server's (pod strategy `validateContainer`: a name from none of the pod's container
 * lists is a BadRequest), then the kubelet's for a container of the spec that is not running.
 */
export function requireRunningContainer(pod: Pod, container: string): void {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed')
    throw cmdError(`cannot exec into a container in a completed pod; current phase is ${phase}`);
  const spec = pod.spec;
  const inSpec = [
    ...(spec?.containers ?? []),
    ...(spec?.initContainers ?? []),
    ...(spec?.ephemeralContainers ?? []),
  ].some((c) => c.name === container);
  if (!inSpec) throw badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
  const running = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.ephemeralContainerStatuses ?? []),
  ].some((s) => s.name === container && s.state?.running);
  if (!running) throw cmdError(`unable to upgrade connection: container not found ("${container}")`);
}

/** Runs argv inside a container through the shell's resolver. */
export function runInContainer(
  ctx: KubectlContext,
  pod: Pod,
  container: string,
  command: readonly string[],
  stdin: string,
): CommandResult {
  const context: SessionContext = {
    kind: 'pod',
    namespace: pod.metadata.namespace ?? 'default',
    pod: pod.metadata.name,
    container,
  };
  const handler = ctx.hooks.resolveCommand?.(command[0]!, context);
  if (!handler) throw notFoundInPath(pod, command[0]!);
  return handler(command, { stdin, env: ctx.io.env, context, interactive: false });
}

export function runExec(ctx: KubectlContext): number {
  const f = ctx.flags;
  const dash = f.argsLenAtDash;
  const before = dash >= 0 ? f.args.slice(0, dash) : f.args;
  const command = dash >= 0 ? f.args.slice(dash) : [];
  if (before.length === 0) throw cmdError('pod, type/name or --filename must be specified');
  if (dash < 0 && before.length > 1) {
    throw usageError(
      ctx.commandPath,
      'exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead',
    );
  }
  if (command.length === 0) throw cmdError('you must specify at least one command for the container');
  const { pod } = resolvePodTarget(ctx, before[0]!, mostActive, 'attach');
  const container = pickContainer(ctx, pod, f.string('container'));
  requireRunningContainer(pod, container);
  const tty = f.bool('tty');
  const stdin = f.bool('stdin');
  // StreamOptions.SetupTTY: the warning is skipped with -q/--quiet.
  const quiet = f.bool('quiet');
  if (!quiet && tty && !stdin)
    ctx.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
  else if (!quiet && tty && !ctx.io.interactive)
    ctx.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
  if (tty && stdin && ctx.io.interactive && isInteractiveShell(command)) {
    const session: SessionContext = {
      kind: 'pod',
      namespace: pod.metadata.namespace ?? 'default',
      pod: pod.metadata.name,
      container,
    };
    // The shell must exist in the image: a distroless container has none, whatever the terminal.
    if (!ctx.hooks.resolveCommand?.(command[0]!, session)) throw notFoundInPath(pod, command[0]!);
    ctx.enter = session;
    return 0;
  }
  const r = runInContainer(ctx, pod, container, command, stdin ? ctx.io.stdin : '');
  ctx.relay(r);
  if (r.exitCode !== 0) {
    ctx.err(`command terminated with exit code ${r.exitCode}\n`);
    return r.exitCode;
  }
  return 0;
}
