/**
 * `kubectl debug node/NAME --image=IMAGE [-it]` (pkg/cmd/debug `visitNode`): creates
 * `node-debugger-<node>-<5 random>` (container `debugger`, host namespaces, the node's root at
 * /host, tolerating everything) and, with `-it` at a prompt, opens a shell on that node. Debugging a
 * pod through an ephemeral container is not simulated.
 */
import type { Manifest, Node, Pod } from '../../api/objects.ts';
import { notFound } from '../../api/errors.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, usageError } from '../errors.ts';
import { mustResolve } from '../resource-args.ts';
import { createObject } from './write.ts';

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
  const node = ctx.host.api.get('nodes', undefined, name) as Node | undefined;
  if (!node) throw notFound('nodes', name);
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
          ...(stdin ? { stdin: true } : {}),
          terminationMessagePolicy: 'File',
          ...(tty ? { tty: true } : {}),
          volumeMounts: [{ mountPath: '/host', name: 'host-root' }],
        },
      ],
      hostIPC: true,
      hostNetwork: true,
      hostPID: true,
      nodeName: node.metadata.name,
      restartPolicy: 'Never',
      tolerations: [{ operator: 'Exists' }],
      volumes: [{ hostPath: { path: '/' }, name: 'host-root' }],
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
  if (tty && !ctx.io.interactive) {
    ctx.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
    return 0;
  }
  if (tty) ctx.err("If you don't see a command prompt, try pressing enter.\n");
  ctx.enter = { kind: 'node', node: node.metadata.name, debugPod: podName };
  return 0;
}
