/**
 * `kubectl run --rm`'s delete flags. run.go Complete builds DeleteOptions from them but forces
 * GracePeriod -1 and WaitForDeletion false, so only `--cascade` counts (parsed first: its error and the
 * boolean spellings' warning, as kubectl v1.33 prints them even with --dry-run=client); `--grace-period`,
 * `--force`, `--wait` and `--timeout` are accepted and change nothing: no force warning, a plain
 * "deleted", no waiting.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';

describe('kubectl run --rm and the delete flags', () => {
  it('--force --grace-period=0 --wait: still a plain deletion, no warning', () => {
    const c = createCluster(undefined, { seed: 1 });
    expect(
      c.execSync(
        'kubectl run t --rm -i --restart=Never --image=busybox --force --grace-period=0 --wait -- echo hi',
      ),
    ).toMatchObject({ stdout: 'hi\npod "t" deleted from default namespace\n', stderr: '', exitCode: 0 });
  });

  it('--cascade: the real error, and the boolean spelling’s warning', () => {
    const c = createCluster(undefined, { seed: 1 });
    expect(c.execSync('kubectl run v --image=busybox --cascade=bogus --dry-run=client')).toMatchObject({
      stdout: '',
      stderr: 'error: invalid cascade value (bogus). Must be "background", "foreground", or "orphan"\n',
      exitCode: 1,
    });
    expect(
      c.execSync('kubectl run u --rm -i --restart=Never --image=busybox --cascade=false -- echo hi'),
    ).toMatchObject({
      stdout: 'hi\npod "u" deleted from default namespace\n',
      stderr:
        'warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n',
      exitCode: 0,
    });
    expect(c.execSync('kubectl get pod u').exitCode).toBe(1);
  });
});
