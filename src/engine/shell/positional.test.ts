/**
 * Positional parameters of scripts and `sh -c` (`$0`, `$1…`, `$#`, `$@`, `"$@"`, `shift`, `set --`),
 * and kubectl edit running a script editor that edits "$1". Expected output is what bash 5.2 and
 * dash 0.5 print for the same lines (run on the authoring machine).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

function shell(): (line: string) => { stdout: string; stderr: string; exitCode: number } {
  const c = createCluster(undefined, { seed: 1 });
  return (line) => {
    const r = c.execSync(line) as { stdout: string; stderr: string; exitCode: number };
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  };
}

const SCRIPT = `cat > a.sh <<'X'
echo "arg1=[$1] n=$# 0=$0 all=[$@]"
for a in "$@"; do echo "<$a>"; done
shift
echo "after shift: $1 n=$#"
X`;

describe('positional parameters', () => {
  it.each(['sh', 'bash'])('%s a.sh ARGS gives the script $0, $1, $#, "$@" and shift', (program) => {
    const run = shell();
    run(SCRIPT);
    expect(run(`${program} a.sh foo.yaml "b c"`)).toEqual({
      stdout: 'arg1=[foo.yaml] n=2 0=a.sh all=[foo.yaml b c]\n<foo.yaml>\n<b c>\nafter shift: b c n=1\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it('sh -c CMD NAME ARGS makes NAME $0 and ARGS $1…', () => {
    const run = shell();
    expect(run(`sh -c 'echo "x=$1 0=$0 n=$#"' sh hello`).stdout).toBe('x=hello 0=sh n=1\n');
    expect(run(`bash -c 'echo "0=$0 n=$#"'`).stdout).toBe('0=bash n=0\n');
  });

  it('"$@" with no parameters is no word at all', () => {
    const run = shell();
    expect(run(`bash -c 'for a in "$@"; do echo no; done; echo done'`).stdout).toBe('done\n');
  });

  it('set -- replaces them; shift past the end fails (silently in bash)', () => {
    const run = shell();
    expect(run(`bash -c 'set -- a b c; echo $#; shift 2; echo $1; shift 5; echo rc=$?' x`)).toEqual({
      stdout: '3\nc\nrc=1\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl edit with KUBE_EDITOR="sh ed.sh" runs the script on the temp file', () => {
    const run = shell();
    run('kubectl create deployment web --image=nginx');
    run(`cat > ed.sh <<'X'\nsed -i 's/replicas: 1/replicas: 3/' "$1"\nX`);
    expect(run('KUBE_EDITOR="sh ed.sh" kubectl edit deploy web')).toEqual({
      stdout: 'deployment.apps/web edited\n',
      stderr: '',
      exitCode: 0,
    });
    expect(run(`kubectl get deploy web -o jsonpath='{.spec.replicas}'`).stdout).toBe('3');
    // With quotes the value goes to $SHELL -c "<editor> \"<file>\"" (editor.go Editor.args).
    run(`cat > ed2.sh <<'X'\nsed -i 's/replicas: 3/replicas: 2/' "$1"\nX`);
    expect(run(`KUBE_EDITOR="sh 'ed2.sh'" kubectl edit deploy web`).exitCode).toBe(0);
    expect(run(`kubectl get deploy web -o jsonpath='{.spec.replicas}'`).stdout).toBe('2');
  });
});
