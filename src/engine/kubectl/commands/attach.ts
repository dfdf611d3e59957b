/**
 * `kubectl attach (POD | TYPE/NAME) [-c C] [-i] [-t] [-q]` (pkg/cmd/attach, kubectl v1.35): attaches to
 * the container's main process. With `-it` at an interactive prompt and a shell as that process, the
 * shell's session opens, as `run -it` does; otherwise the client shows what the process writes, which
 * here is the container's log as it stands (the real client keeps streaming until the process exits).
 */
import type { Pod } from '../../api/objects.ts';
import { resolveImage } from '../../node/images.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
import { isInteractiveShell, requireRunningContainer } from './exec.ts';
import { pickContainer, mostActive, resolvePodTarget } from './pod-target.ts';
import { ATTACH_BANNER, containerOutput } from './run.ts';

/** The process a container runs: the pod's command/args over the image's ENTRYPOINT/CMD. */
function mainProcess(pod: Pod, container: string): readonly string[] {
  const c = (pod.spec?.containers ?? []).find((x) => x.name === container);
  if (!c) return [];
  const resolved = resolveImage(c.image ?? '');
  const profile = resolved.kind === 'ok' ? resolved.profile : undefined;
  if (c.command && c.command.length > 0) return [...c.command, ...(c.args ?? [])];
  return [...(profile?.entrypoint ?? []), ...(c.args ?? profile?.cmd ?? [])];
}

export function runAttach(ctx: KubectlContext): number {
  const f = ctx.flags;
  const args = f.args;
  // Validate: the argument count, before the pod is looked up.
  if (args.length === 0) throw cmdError('at least 1 argument is required for attach');
  if (args.length > 2)
    throw cmdError(
      `expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw ${args.length}: [${args.join(' ')}]`,
    );
  if (f.duration('pod-running-timeout') <= 0)
    throw cmdError('--pod-running-timeout must be higher than zero');
  const target = args.length === 2 ? `${args[0]}/${args[1]}` : args[0]!;
  const { pod } = resolvePodTarget(ctx, target, mostActive, 'attach');
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed')
    throw cmdError(`cannot attach a container in a completed pod; current phase is ${phase}`);
  const quiet = f.bool('quiet');
  const name = pickContainer(ctx, pod, f.string('container'));
  const spec = (pod.spec?.containers ?? []).find((c) => c.name === name);
  if (!spec)
    throw cmdError(`cannot attach to the container: container ${name} not found in pod ${pod.metadata.name}`);
  // The client's -t follows what the container allocated: dropped with a warning, or forced on.
  let tty = f.bool('tty');
  if (tty && !spec.tty) {
    tty = false;
    if (!quiet) ctx.err(`error: Unable to use a TTY - container ${name} did not allocate one\n`);
  } else if (!tty && spec.tty) tty = true;
  const stdin = f.bool('stdin');
  // StreamOptions.SetupTTY: a terminal only with stdin passed and read from a terminal.
  if (stdin && tty && !ctx.io.interactive && !quiet)
    ctx.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
  const raw = stdin && tty && ctx.io.interactive;
  if (!quiet) ctx.err(ATTACH_BANNER);
  requireRunningContainer(pod, name);
  const ns = pod.metadata.namespace ?? 'default';
  const argv = mainProcess(pod, name);
  if (raw && isInteractiveShell(argv)) {
    // attach.go reattachMessage (v1.35 wording), printed on stdout once the session ends.
    const reattach = quiet
      ? ''
      : `Session ended, resume using 'kubectl attach ${pod.metadata.name} -c ${name} -i -t' command when the pod is running\n`;
    ctx.enter = {
      kind: 'pod',
      namespace: ns,
      pod: pod.metadata.name,
      container: name,
      onExit: () => reattach,
    };
    return 0;
  }
  ctx.out(containerOutput(ctx, pod, name));
  return 0;
}
