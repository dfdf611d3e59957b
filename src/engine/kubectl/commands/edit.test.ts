/**
 * `kubectl edit` after a rejection, against editoptions.go (kubernetes/kubectl v0.33.0) and its
 * recorded testcases in pkg/cmd/edit/testdata: testcase-repeat-error (an invalid edit saved again
 * unchanged: `… is invalid`, `A copy of your changes has been stored`, `Edit cancelled, no valid
 * changes were saved`, exit 1; the reopened file's header lists `# services "…" was not valid:` and
 * `# * field: message`), testcase-edit-error-reedit (the second save fixes it: `edited`, exit 0),
 * testcase-syntax-error (`# The edited file had a syntax error: error parsing edited-file: …`) and
 * testcase-edit-output-patch (`Patch: <json>` before the result line).
 */
import { describe, expect, it } from 'vitest';
import { run, webCluster } from './cluster-test-helpers.ts';

const HEADER = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
`;

function keptFile(stderr: string): string {
  return /A copy of your changes has been stored to "([^"]+)"/.exec(stderr)![1]!;
}

describe('kubectl edit after the server rejects the change', () => {
  it('reopens the file with the reasons; saving it unchanged cancels and keeps it', () => {
    const c = webCluster();
    const r = run(c, `KUBE_EDITOR="sed -i s/ClusterIP$/Bogus/" kubectl edit svc web`);
    expect(r.stdout).toBe('');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^error: services "web" is invalid\nA copy of your changes has been stored to "\/tmp\/kubectl-edit-\d+\.yaml"\nerror: Edit cancelled, no valid changes were saved\.\n$/,
    );
    const kept = run(c, `cat ${keptFile(r.stderr)}`).stdout;
    expect(
      kept.startsWith(
        `${HEADER}# services "web" was not valid:\n# * spec.type: Unsupported value: "Bogus": supported values: `,
      ),
    ).toBe(true);
    expect(kept).toMatch(/\n#\napiVersion: v1\nkind: Service\n/);
    expect(kept).toContain('\n  type: Bogus\n');
    expect(run(c, `kubectl get svc web -o jsonpath='{.spec.type}'`).stdout).toBe('ClusterIP');
  });

  it('a second save that fixes the error goes through', () => {
    const c = webCluster();
    // First round: replicas 1 -> -1 (invalid); second round: -1 -> 2.
    const editor = `sed -i -e 's/^  replicas: -1$/  replicas: 2/' -e 's/^  replicas: 1$/  replicas: -1/'`;
    expect(run(c, `KUBE_EDITOR="${editor}" kubectl edit deploy web`)).toEqual({
      stdout: 'deployment.apps/web edited\n',
      stderr: 'error: deployments.apps "web" is invalid\n',
      exitCode: 0,
    });
    expect(run(c, `kubectl get deploy web -o jsonpath='{.spec.replicas}'`).stdout).toBe('2');
    expect(run(c, 'ls /tmp')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('a syntax error is reported in the reopened file', () => {
    const c = webCluster();
    const r = run(c, `KUBE_EDITOR="sed -i s/^kind:.Service/kind:.[/" kubectl edit svc web`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^A copy of your changes has been stored to "\/tmp\/kubectl-edit-\d+\.yaml"\nerror: Edit cancelled, no valid changes were saved\.\n$/,
    );
    const kept = run(c, `cat ${keptFile(r.stderr)}`).stdout;
    expect(kept).toMatch(
      /^# Please edit[^]*#\n# The edited file had a syntax error: error parsing edited-file: error converting YAML to JSON: yaml: line \d+: [^\n]+\n#\napiVersion: v1\n/,
    );
  });

  it('--output-patch prints the strategic merge patch it sends', () => {
    const c = webCluster();
    const r = run(
      c,
      `KUBE_EDITOR="sed -i s/image:.nginx$/image:\\ nginx:1.27/" kubectl edit deploy web --output-patch`,
    );
    expect(r).toEqual({
      stdout:
        'Patch: {"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],"containers":[{"image":"nginx:1.27","name":"nginx"}]}}}}\ndeployment.apps/web edited\n',
      stderr: '',
      exitCode: 0,
    });
    expect(
      run(c, `kubectl get deploy web -o jsonpath='{.spec.template.spec.containers[0].image}'`).stdout,
    ).toBe('nginx:1.27');
  });

  it('a changed name is refused before anything is sent', () => {
    const c = webCluster();
    const r = run(c, `KUBE_EDITOR="sed -i s/^..name:.web$/\\ \\ name:\\ other/" kubectl edit svc web`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^A copy of your changes has been stored to "\/tmp\/kubectl-edit-\d+\.yaml"\nerror: At least one of apiVersion, kind and name was changed\n$/,
    );
  });
});
