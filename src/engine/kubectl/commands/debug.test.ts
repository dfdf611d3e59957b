/**
 * `kubectl debug node/…` against a running simulated cluster. Texts: the `Creating debugging pod …`
 * line and the legacy-profile notice as real kubectl prints them (captured sessions, e.g.
 * `kubectl debug -ti node/ictsc-control-plane --image busybox -- sh`); pod shapes per profile from
 * kubectl pkg/cmd/debug/profiles.go (node style).
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../cluster/cluster.ts';

const LEGACY =
  '--profile=legacy is deprecated and will be removed in the future. It is recommended to explicitly specify a profile, for example "--profile=general".\n';
const CREATING =
  /^Creating debugging pod (node-debugger-kind-worker-[b-z2-9]{5}) with container debugger on node kind-worker\.\n/;

function run(c: Cluster, line: string, interactive = true) {
  return c.execSync(line, { interactive });
}

function debugPod(c: Cluster, stdout: string) {
  const name = CREATING.exec(stdout)?.[1] ?? '';
  return c.store.get('pods', 'default', name);
}

describe('kubectl debug node', () => {
  it('-it with a command runs it on the node and shows its output', () => {
    const c = createCluster(undefined, { seed: 3 });
    const r = run(c, 'kubectl debug node/kind-worker -it --image=busybox -- cat /host/etc/hostname');
    expect(r.stdout).toMatch(CREATING);
    expect(r.stdout.replace(CREATING, '')).toBe('kind-worker\n');
    expect(r.stderr).toBe(LEGACY);
    expect(r.exitCode).toBe(0);
    expect(c.shell.context()).toEqual({ kind: 'host' });
  });

  it('host namespaces: the node routes and addresses, not a pod network', () => {
    const c = createCluster(undefined, { seed: 3 });
    const r = run(c, 'kubectl debug node/kind-worker -it --image=busybox --profile=general -- ip route');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^default via 172\.18\.0\.1 dev eth0/m);
  });

  it('without -i only creates the pod', () => {
    const c = createCluster(undefined, { seed: 3 });
    const r = run(c, 'kubectl debug node/kind-worker --image=busybox --profile=general -- sleep 3600', false);
    expect(r.stdout).toMatch(new RegExp(`${CREATING.source}$`));
    expect(r.stderr).toBe('');
    expect(debugPod(c, r.stdout)?.spec?.containers[0]?.command).toEqual(['sleep', '3600']);
  });

  it.each([
    { profile: 'general', hostNetwork: true, host: true, sc: undefined },
    { profile: 'sysadmin', hostNetwork: true, host: true, sc: { privileged: true } },
    {
      profile: 'netadmin',
      hostNetwork: true,
      host: false,
      sc: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } },
    },
    { profile: 'baseline', hostNetwork: undefined, host: false, sc: undefined },
    {
      profile: 'restricted',
      hostNetwork: undefined,
      host: false,
      sc: {
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      },
    },
  ])('--profile=$profile shapes the pod', ({ profile, hostNetwork, host, sc }) => {
    const c = createCluster(undefined, { seed: 3 });
    const r = run(c, `kubectl debug node/kind-worker --image=busybox --profile=${profile}`, false);
    const pod = debugPod(c, r.stdout)!;
    expect(pod.spec?.hostNetwork).toBe(hostNetwork);
    expect(pod.spec?.hostPID).toBe(hostNetwork);
    expect(pod.spec?.containers[0]?.volumeMounts?.some((m) => m.mountPath === '/host') ?? false).toBe(host);
    expect(pod.spec?.containers[0]?.securityContext).toEqual(sc);
    expect(pod.spec?.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('a baseline pod is an ordinary pod: the command is its process, its log the output', () => {
    const c = createCluster(undefined, { seed: 3 });
    const r = run(c, 'kubectl debug node/kind-worker -it --image=busybox --profile=baseline -- hostname');
    const name = CREATING.exec(r.stdout)?.[1];
    expect(r.stdout.replace(CREATING, '')).toBe(`${name}\n`);
  });

  it('-it with a shell opens a node session that sees /host only when the profile mounts it', () => {
    const c = createCluster(undefined, { seed: 3 });
    expect(run(c, 'kubectl debug node/kind-worker -it --image=busybox --profile=general').stderr).toBe(
      'All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\n' +
        "If you don't see a command prompt, try pressing enter.\n",
    );
    expect(run(c, 'cat /host/etc/hostname').stdout).toBe('kind-worker\n');
    run(c, 'exit');
    run(c, 'kubectl debug node/kind-worker -it --image=busybox --profile=netadmin');
    expect(run(c, 'cat /host/etc/hostname').stderr).toMatch(/No such file or directory/);
  });
});
