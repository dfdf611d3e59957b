/**
 * `kubectl debug node/NAME --image=IMAGE [-it] [--profile=P] [-- CMD]` (pkg/cmd/debug `visitNode`,
 * profiles.go): creates `node-debugger-<node>-<5 random>` (container `debugger`, tolerating
 * everything) shaped by the profile: legacy/general/sysadmin share the host namespaces and mount the
 * node's root at /host, netadmin shares them with NET_ADMIN/NET_RAW, baseline/restricted get neither
 * (restricted also runs as non-root, drops ALL). `legacy`, the default, prints its deprecation notice:
 * so in kubectl v1.35 too (debug.go's flag default and wording unchanged since v1.33); v1.36 made
 * `general` the default and dated the removal (v1.39).
 * Attached (`-i`), a shell at a prompt opens a session in the debug container: the image's own
 * programs (busybox has no iptables-save), in the node's network and PID namespaces, with the node's
 * root at /host (`chroot /host` reaches the node's programs); a command runs there and its output is
 * what the attach shows.
 * Debugging a pod through an ephemeral container is not simulated.
 */
import type { Manifest, Node, Pod } from '../../api/objects.ts';
import { notFound } from '../../api/errors.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, usageError } from '../errors.ts';
import { mustResolve } from '../resource-args.ts';
import { createObject } from './write.ts';
import { isInteractiveShell } from './exec.ts';
import { ATTACH_BANNER } from './run.ts';
import type { SessionContext, SessionEnd } from '../../shell/types.ts';

const PROFILES = ['legacy', 'general', 'baseline', 'netadmin', 'restricted', 'sysadmin'];

/** The pod spec changes of a profile for node debugging (profiles.go `Apply`, node style). */
function profileSpec(profile: string): {
  hostNamespaces: boolean;
  mountRoot: boolean;
  securityContext?: Record<string, unknown>;
} {
  switch (profile) {
    case 'baseline':
      return { hostNamespaces: false, mountRoot: false };
    case 'restricted':
      return {
        hostNamespaces: false,
        mountRoot: false,
        securityContext: {
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          runAsNonRoot: true,
          seccompProfile: { type: 'RuntimeDefault' },
        },
      };
    case 'netadmin':
      return {
        hostNamespaces: true,
        mountRoot: false,
        securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } },
      };
    case 'sysadmin':
      return { hostNamespaces: true, mountRoot: true, securityContext: { privileged: true } };
    default:
      return { hostNamespaces: true, mountRoot: true };
  }
}

export function runDebug(ctx: KubectlContext): number {
  const f = ctx.flags;
  const dash = f.argsLenAtDash;
  const targets = dash >= 0 ? f.args.slice(0, dash) : f.args;
  const command = dash >= 0 ? f.args.slice(dash) : [];
  if (targets.length === 0 && f.array('filename').length === 0)
    throw usageError(ctx.commandPath, 'NAME is required for debug');
  if (f.string('image') === '' && f.string('copy-to') === '')
    throw cmdError('you must specify --image when not using --copy-to.');
  const target = targets[0]!;
  const slash = target.indexOf('/');
  const info = slash < 0 ? mustResolve('pods') : mustResolve(target.slice(0, slash));
  const name = slash < 0 ? target : target.slice(slash + 1);
  if (info.key !== 'nodes') {
    if (info.key === 'pods') {
      if (!ctx.host.api.get('pods', ctx.namespace, name)) throw notFound('pods', name);
      throw cmdError(
        'ephemeral debug containers are not simulated here; use kubectl exec, or debug the node with kubectl debug node/<node>',
      );
    }
    throw cmdError(`"/v1, Kind=${info.kind}" not supported by debug`);
  }
  const profile = f.string('profile');
  if (!PROFILES.includes(profile)) throw cmdError(`unknown profile: ${profile}`);
  const node = ctx.host.api.get('nodes', undefined, name) as Node | undefined;
  if (!node) throw notFound('nodes', name);
  if (profile === 'legacy')
    ctx.err(
      '--profile=legacy is deprecated and will be removed in the future. It is recommended to explicitly specify a profile, for example "--profile=general".\n',
    );
  const shape = profileSpec(profile);
  const container = f.string('container') || 'debugger';
  const podName = `node-debugger-${node.metadata.name}-${ctx.host.rng.nameSuffix(5)}`;
  if (!f.bool('quiet'))
    ctx.out(`Creating debugging pod ${podName} with container ${container} on node ${node.metadata.name}.\n`);
  const stdin = f.bool('stdin');
  const tty = f.bool('tty');
  const pod: Manifest = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName,
      namespace: ctx.namespace,
      labels: { 'app.kubernetes.io/managed-by': 'kubectl-debug' },
    },
    spec: {
      containers: [
        {
          name: container,
          image: f.string('image'),
          ...(command.length > 0 ? { [f.bool('arguments-only') ? 'args' : 'command']: command } : {}),
          ...(shape.securityContext ? { securityContext: shape.securityContext } : {}),
          ...(stdin ? { stdin: true } : {}),
          terminationMessagePolicy: 'File',
          ...(tty ? { tty: true } : {}),
          ...(shape.mountRoot ? { volumeMounts: [{ mountPath: '/host', name: 'host-root' }] } : {}),
        },
      ],
      ...(shape.hostNamespaces ? { hostIPC: true, hostNetwork: true, hostPID: true } : {}),
      nodeName: node.metadata.name,
      restartPolicy: 'Never',
      tolerations: [{ operator: 'Exists' }],
      ...(shape.mountRoot ? { volumes: [{ hostPath: { path: '/' }, name: 'host-root' }] } : {}),
    },
  };
  createObject(ctx, pod, 'none');
  const attach = f.changed('attach') ? f.bool('attach') : stdin;
  if (!attach) return 0;
  const running = (): boolean => {
    const p = ctx.host.api.get('pods', ctx.namespace, podName) as Pod | undefined;
    return (
      p?.status?.phase === 'Running' || p?.status?.phase === 'Succeeded' || p?.status?.phase === 'Failed'
    );
  };
  if (!ctx.host.waitFor(running, 60_000, 500)) throw cmdError('timed out waiting for the condition');
  // The session is the debug container: the image's programs and PATH, the node's network and PID
  // namespaces when the profile shares them, and the node's root at /host when it mounts it.
  const session: SessionContext = { kind: 'pod', namespace: ctx.namespace, pod: podName, container };
  const shell = command.length === 0 || isInteractiveShell(command);
  if (tty && (!ctx.io.interactive || !stdin)) {
    ctx.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
    if (shell) return 0;
  }
  if (shell) {
    if (!ctx.io.interactive || !stdin) return 0;
    if (tty) ctx.err(ATTACH_BANNER);
    // The shell is the container's process: leaving it ends the container (the pod then shows
    // Completed, or Error after a non-zero exit), and kubectl debug returns without a message.
    const sessionEnded = (code: number): SessionEnd => {
      const live = ctx.host.api.get('pods', ctx.namespace, podName) as Pod | undefined;
      if (live) ctx.host.runtime.endAttachedSession(live, container, code, ctx.now());
      return { stdout: '', stderr: '', exitCode: 0 };
    };
    ctx.enter = { ...session, onExit: sessionEnded };
    return 0;
  }
  // A command that ends on its own: attach shows its output (kubectl falls back to the logs once
  // the container has terminated): the command is the container's process, its log the output.
  const done = (): Pod | undefined => {
    const p = ctx.host.api.get('pods', ctx.namespace, podName) as Pod | undefined;
    return p?.status?.phase === 'Succeeded' || p?.status?.phase === 'Failed' ? p : undefined;
  };
  ctx.host.waitFor(() => done() !== undefined, 60_000, 500);
  const p = done() ?? (ctx.host.api.get('pods', ctx.namespace, podName) as Pod | undefined);
  if (p) ctx.out(ctx.hooks.containerLogs?.(p, container, { previous: false }) ?? '');
  return 0;
}
