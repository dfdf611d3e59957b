/**
 * `kubectl run NAME --image=…` (pkg/cmd/run): a Pod labelled `run=NAME` (or `--labels`), container
 * named after the pod, `args` after `--` (or `command` with `--command`), `--port`, `--env`,
 * `--restart`, `--expose` (a ClusterIP Service as well). With `-i`/`-t` it waits on the simulated clock
 * for the pod to run, then opens a shell session (interactive prompt, shell or no command) or shows
 * what an attached client sees, the container's output, until it exits; `--rm` then deletes the pod.
 */
import type { Manifest, Pod } from '../../api/objects.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, errorText, usageError } from '../errors.ts';
import { addLastApplied, requireFlags } from './create.ts';
import { cascadeOf, type Propagation } from './delete.ts';

/** Simulated time an attached `kubectl run` follows a container that keeps running. */
export const ATTACH_WAIT_CAP_MS = 5 * 60 * 1000;
import { isInteractiveShell } from './exec.ts';
import { containerLogs as runtimeLogs } from '../../node/container-runtime.ts';
import type { SessionEnd } from '../../shell/types.ts';
import { StatusError } from '../../api/errors.ts';
import { createObject, dryRunMode, printOutcome } from './write.ts';
import { withOverrides } from './overrides.ts';

function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw cmdError(`invalid label spec: ${part}`);
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

export function runRun(ctx: KubectlContext): number {
  const f = ctx.flags;
  const dash = f.argsLenAtDash;
  const before = dash >= 0 ? f.args.slice(0, dash) : f.args;
  const command = dash >= 0 ? f.args.slice(dash) : f.args.slice(1);
  // Complete parses the delete flags --rm uses before anything is checked.
  const cascade = cascadeOf(ctx);
  requireFlags(ctx, ['image']);
  if (before.length === 0) throw usageError(ctx.commandPath, 'NAME is required for run');
  const name = before[0]!;
  const restart = f.string('restart');
  if (!['Always', 'OnFailure', 'Never'].includes(restart))
    throw usageError(ctx.commandPath, `invalid restart policy: ${restart}`);
  const stdin = f.bool('stdin');
  const tty = f.bool('tty');
  const attach = f.changed('attach') ? f.bool('attach') : stdin;
  if (tty && !stdin)
    throw usageError(ctx.commandPath, '-i/--stdin is required for containers with -t/--tty=true');
  if (f.bool('rm') && !attach)
    throw usageError(ctx.commandPath, '--rm should only be used for attached containers');
  const mode = dryRunMode(ctx);
  if (attach && mode !== 'none')
    throw usageError(
      ctx.commandPath,
      "--dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)",
    );
  const port = f.string('port');
  if (f.bool('expose') && port === '') throw cmdError('--port must be set when exposing a service');
  const labels = f.string('labels') ? parseLabels(f.string('labels')) : { run: name };
  const env = f.array('env').map((e) => {
    const eq = e.indexOf('=');
    return eq < 0 ? { name: e } : { name: e.slice(0, eq), value: e.slice(eq + 1) };
  });
  const annotations: Record<string, string> = {};
  for (const a of f.array('annotations')) {
    const eq = a.indexOf('=');
    if (eq > 0) annotations[a.slice(0, eq)] = a.slice(eq + 1);
  }
  // corev1.Container field order: name, image, command, args, ports, env, resources, imagePullPolicy, securityContext, stdin, tty.
  const container: Record<string, unknown> = { name, image: f.string('image') };
  if (command.length > 0) container[f.bool('command') ? 'command' : 'args'] = command;
  if (port !== '') {
    if (!/^\d+$/.test(port)) throw cmdError(`strconv.Atoi: parsing "${port}": invalid syntax`);
    container.ports = [{ containerPort: Number(port) }];
  }
  if (env.length > 0) container.env = env;
  container.resources = {};
  if (f.string('image-pull-policy')) container.imagePullPolicy = f.string('image-pull-policy');
  if (f.bool('privileged')) container.securityContext = { privileged: true };
  if (stdin) container.stdin = true;
  if (stdin && !f.bool('leave-stdin-open')) container.stdinOnce = true;
  if (tty) container.tty = true;
  const pod: Manifest = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name,
      ...(ctx.explicitNamespace ? { namespace: ctx.namespace } : {}),
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    // corev1.PodSpec field order: containers, restartPolicy, …, dnsPolicy (what -o json shows).
    spec: { containers: [container], restartPolicy: restart, dnsPolicy: 'ClusterFirst' },
    status: {},
  };
  const generated = withOverrides(ctx, pod);
  if (f.bool('expose')) {
    const svc: Manifest = {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name, ...(ctx.explicitNamespace ? { namespace: ctx.namespace } : {}) },
      spec: { ports: [{ port: Number(port), protocol: 'TCP', targetPort: Number(port) }], selector: labels },
      status: { loadBalancer: {} },
    };
    if (mode === 'client') printOutcome(ctx, svc, 'created', mode, true);
    else printOutcome(ctx, createObject(ctx, svc, mode), 'created', mode);
  }
  if (mode === 'client') {
    printOutcome(ctx, generated, 'created', mode, true);
    return 0;
  }
  // run.go records --save-config only on the object it sends, after the client dry-run return.
  if (f.bool('save-config')) addLastApplied(generated);
  const created = createObject(ctx, generated, mode) as Pod;
  if (!attach) {
    printOutcome(ctx, created, 'created', mode);
    return 0;
  }
  return attachToPod(ctx, created, command, cascade);
}

/**
 * What attach.go's Run prints on stderr before streaming, unless --quiet (kubectl v1.34+ added the
 * first line; run and debug attach through it).
 */
export const ATTACH_BANNER =
  'All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\n' +
  "If you don't see a command prompt, try pressing enter.\n";

function attachToPod(
  ctx: KubectlContext,
  created: Pod,
  command: readonly string[],
  cascade: Propagation,
): number {
  const f = ctx.flags;
  const api = ctx.host.api;
  const ns = created.metadata.namespace ?? 'default';
  const name = created.metadata.name;
  const current = (): Pod | undefined => api.get('pods', ns, name);
  const started = (): boolean => {
    const p = current();
    const phase = p?.status?.phase;
    return phase === 'Running' || phase === 'Succeeded' || phase === 'Failed';
  };
  const timeout = f.duration('pod-running-timeout');
  if (!ctx.host.waitFor(started, timeout, 500)) {
    if (f.bool('rm')) ctx.out(removeCreated(ctx, ns, name, cascade));
    throw cmdError('timed out waiting for the condition');
  }
  const pod = current()!;
  const quiet = f.bool('quiet');
  const interactive = f.bool('tty') && ctx.io.interactive;
  if (f.bool('tty') && !ctx.io.interactive)
    ctx.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
  const argv = command.length > 0 ? command : [];
  if (interactive && (argv.length === 0 || isInteractiveShell(argv))) {
    if (!quiet) ctx.err(ATTACH_BANNER);
    const rm = f.bool('rm');
    // --rm: once the session ends, run.go's removeCreatedObjects deletes the pod (printed on stdout).
    const removeAfterSession = (): string => removeCreated(ctx, ns, name, cascade);
    // attach.go reattachMessage: a container that restarts (restartPolicy Always) can be attached again.
    const reattach =
      !quiet && (created.spec?.restartPolicy ?? 'Always') === 'Always'
        ? `Session ended, resume using 'kubectl attach ${name} -c ${name} -i -t' command when the pod is running\n`
        : '';
    // The shell is the container's PID 1: leaving it ends the container with the shell's status.
    const sessionEnded = (code: number): SessionEnd => {
      const live = current();
      if (live) ctx.host.runtime.endAttachedSession(live, name, code, ctx.now());
      const outcome = waitForExitCode(ctx, created, current, timeout);
      return { ...outcome, stdout: reattach + (rm ? removeAfterSession() : '') };
    };
    ctx.enter = { kind: 'pod', namespace: ns, pod: name, container: name, onExit: sessionEnded };
    return 0;
  }
  // Attached without a terminal session, kubectl streams the container's stdout: its log (a network
  // tool's answer included: the runtime ran it against the dataplane as the container started). Wait
  // (on the simulated clock, capped) for the main process to end, as the real one waits until it exits;
  // with restartPolicy Always the first exit ends the attachment, even if the kubelet restarts it.
  const firstExit = (p: Pod | undefined) => {
    const s = p?.status?.containerStatuses?.[0];
    return s?.state?.terminated ?? s?.lastState?.terminated;
  };
  const finished = (): boolean => {
    const p = current();
    const phase = p?.status?.phase;
    return !p || phase === 'Succeeded' || phase === 'Failed' || Boolean(firstExit(p));
  };
  ctx.host.waitFor(finished, ATTACH_WAIT_CAP_MS, 1000);
  const done = current() ?? pod;
  try {
    ctx.out(containerOutput(ctx, done, name));
  } catch (e) {
    ctx.err(`${errorText(e)}\n`);
  }
  const last = firstExit(done);
  const exitCode = last?.exitCode ?? 0;
  if (f.bool('rm')) ctx.out(removeCreated(ctx, ns, name, cascade));
  if (exitCode !== 0) {
    const text = `pod ${ns}/${name} terminated (${last?.reason ?? 'Error'})\n${last?.message ?? ''}`;
    ctx.err(text.endsWith('\n') ? text : `${text}\n`);
    return exitCode;
  }
  return 0;
}

/**
 * run.go after an attached session: with restartPolicy Never or OnFailure (and no
 * --leave-stdin-open) it waits for the pod to complete (OnFailure: to succeed) and returns the
 * container's exit code as a CodeExitError worded `pod NS/NAME terminated (REASON)`; with Always it
 * returns at once. The `--rm` deletion, deferred in run.go, is printed before that error.
 */
function waitForExitCode(
  ctx: KubectlContext,
  created: Pod,
  current: () => Pod | undefined,
  timeoutMs: number,
): { stderr: string; exitCode: number } {
  const policy = created.spec?.restartPolicy ?? 'Always';
  if (policy === 'Always' || ctx.flags.bool('leave-stdin-open')) return { stderr: '', exitCode: 0 };
  const done = (p: Pod) =>
    p.status?.phase === 'Succeeded' || (policy === 'Never' && p.status?.phase === 'Failed');
  if (!ctx.host.waitFor(() => !current() || done(current()!), timeoutMs, 500))
    return { stderr: 'error: timed out waiting for the condition\n', exitCode: 1 };
  const pod = current();
  if (!pod) {
    // watchtools' condition on a Deleted event: NotFound for a pod without a name.
    return { stderr: 'Error from server (NotFound): pods "" not found\n', exitCode: 1 };
  }
  if (pod.status?.phase === 'Succeeded') return { stderr: '', exitCode: 0 };
  const ns = pod.metadata.namespace ?? 'default';
  const term = pod.status?.containerStatuses?.[0]?.state?.terminated;
  if (!term || term.exitCode === 0)
    return { stderr: `error: pod ${ns}/${pod.metadata.name} failed with unknown exit code\n`, exitCode: 1 };
  const text = `pod ${ns}/${pod.metadata.name} terminated (${term.reason ?? ''})\n${term.message ?? ''}`;
  return { stderr: text.endsWith('\n') ? text : `${text}\n`, exitCode: term.exitCode };
}

/** The container's log, from the hook or the runtime (what an attached kubectl would have streamed). */
export function containerOutput(ctx: KubectlContext, pod: Pod, container: string): string {
  const hooked = ctx.hooks.containerLogs?.(pod, container, { previous: false });
  if (hooked !== undefined) return hooked;
  const r = runtimeLogs(pod, container, { previous: false, now: ctx.now() });
  if (!r.ok) throw new StatusError('BadRequest', r.error);
  return r.lines.map((l) => `${l.text}\n`).join('');
}

/**
 * run.go `removeCreatedObjects` through the DeleteOptions Complete builds for `--rm`: IgnoreNotFound, the
 * `--cascade` policy, Quiet = `--quiet`, but GracePeriod -1 and WaitForDeletion false whatever
 * `--grace-period`, `--force`, `--wait` or `--timeout` say (run accepts those flags and uses none).
 * Returns what DeleteResult prints.
 */
function removeCreated(ctx: KubectlContext, ns: string, name: string, cascade: Propagation): string {
  const api = ctx.host.api;
  if (!api.get('pods', ns, name)) return '';
  api.delete('pods', ns, name, { propagationPolicy: cascade });
  return ctx.flags.bool('quiet') ? '' : `pod "${name}" deleted from ${ns} namespace\n`;
}
