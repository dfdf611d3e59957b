import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import goldens from './testdata/bash-goldens.json' with { type: 'json' };
import { Shell, needsMoreInput } from './shell.ts';
import { LabFiles } from './lab-files.ts';
import type {
  CommandHandler,
  CommandResolver,
  ExecResult,
  OutputChunk,
  SessionContext,
  SessionEnvironment,
} from './types.ts';

/** A result without its write order, once that order is checked to add up to the two streams. */
function streams(r: ExecResult): Omit<ExecResult, 'output'> {
  const { output, ...rest } = r;
  const joined = (stream: OutputChunk['stream']) =>
    (output ?? [])
      .filter((c) => c.stream === stream)
      .map((c) => c.text)
      .join('');
  if (output) expect([joined('stdout'), joined('stderr')]).toEqual([r.stdout, r.stderr]);
  return rest;
}

interface Fixture {
  shell: Shell;
  files: LabFiles;
  ticks: number[];
  calls: { argv: readonly string[]; stdin: string; context: SessionContext }[];
}

/** A fake cluster: `kubectl` echoes what it got; `kubectl exec -it P -- sh` opens a busybox or bash session. */
function makeShell(
  files: Record<string, string> = goldens.files,
  pods: Set<string> = new Set(['web', 'bb']),
): Fixture {
  const lab = new LabFiles(files);
  const ticks: number[] = [];
  const calls: Fixture['calls'] = [];
  const kubectl: CommandHandler = (argv, io) => {
    calls.push({ argv, stdin: io.stdin, context: io.context });
    if (argv[1] === 'exec' && argv.includes('-it') && io.interactive) {
      const pod = argv[argv.indexOf('-it') + 1]!;
      const shell = argv[argv.length - 1]!;
      return {
        stdout: '',
        stderr: '',
        exitCode: 0,
        enter: { kind: 'pod', namespace: 'default', pod, container: 'c', shell },
      };
    }
    return { stdout: `kubectl ${argv.slice(1).join(' ')}\n`, stderr: '', exitCode: 0 };
  };
  const environment = (ctx: SessionContext): SessionEnvironment | undefined => {
    if (ctx.kind !== 'pod' || !pods.has(ctx.pod)) return undefined;
    const busybox = ctx.pod === 'bb';
    return {
      flavour: ctx.shell === 'bash' ? 'bash' : busybox ? 'ash' : 'dash',
      user: 'root',
      hostname: ctx.pod === 'web' ? 'web-7d4b9c8f6d-x2kq9' : ctx.pod,
      home: '/root',
      cwd: '/',
      env: { PATH: '/bin', HOSTNAME: ctx.pod, KUBERNETES_SERVICE_HOST: '10.96.0.1' },
      files: () => ({ '/etc/resolv.conf': 'nameserver 10.96.0.10\n', '/etc/hostname': `${ctx.pod}\n` }),
    };
  };
  let shell: Shell | undefined;
  const resolve: CommandResolver = Object.assign(
    (name: string, context: SessionContext) => {
      if (context.kind === 'host') return name === 'kubectl' ? kubectl : undefined;
      if (
        context.kind === 'pod' &&
        ['cat', 'ls', 'hostname', 'grep', 'echo', 'env', 'sh', 'bash', 'wc'].includes(name)
      ) {
        return shell!.utility(name);
      }
      return undefined;
    },
    { environment, names: (ctx: SessionContext) => (ctx.kind === 'host' ? ['kubectl'] : ['cat', 'ls']) },
  );
  shell = new Shell({ resolve, files: lab, tick: (ms) => ticks.push(ms) });
  return { shell, files: lab, ticks, calls };
}

describe('lines replayed against bash 5.2 + GNU coreutils goldens', () => {
  it.each(goldens.cases)('$line', ({ line, stdout, stderr, exitCode }) => {
    const { shell } = makeShell();
    expect(streams(shell.run(line, { interactive: true }))).toEqual({ stdout, stderr, exitCode });
  });
});

describe('what only an interactive bash shows (captured with `bash -i`)', () => {
  it.each([
    {
      name: 'unterminated double quote (bash 5.1 two-line form)',
      line: 'echo "abc',
      stderr:
        'bash: unexpected EOF while looking for matching `"\'\nbash: syntax error: unexpected end of file\n',
      exitCode: 2,
    },
    {
      name: 'unterminated single quote',
      line: "echo 'abc",
      stderr:
        "bash: unexpected EOF while looking for matching `''\nbash: syntax error: unexpected end of file\n",
      exitCode: 2,
    },
    {
      name: 'unterminated $(',
      line: 'echo $(ls',
      stderr:
        "bash: unexpected EOF while looking for matching `)'\nbash: syntax error: unexpected end of file\n",
      exitCode: 2,
    },
    {
      name: 'pipe at start',
      line: '| foo',
      stderr: "bash: syntax error near unexpected token `|'\n",
      exitCode: 2,
    },
    { name: 'stray )', line: ')', stderr: "bash: syntax error near unexpected token `)'\n", exitCode: 2 },
    { name: ';;', line: 'a;;b', stderr: "bash: syntax error near unexpected token `;;'\n", exitCode: 2 },
    {
      name: 'redirect without target',
      line: 'echo >',
      stderr: "bash: syntax error near unexpected token `newline'\n",
      exitCode: 2,
    },
    {
      name: 'dangling &&',
      line: 'echo a &&',
      stderr: 'bash: syntax error: unexpected end of file\n',
      exitCode: 2,
    },
    {
      name: 'if without fi',
      line: 'if true; then echo x',
      stderr: 'bash: syntax error: unexpected end of file\n',
      exitCode: 2,
    },
    {
      name: 'then without if',
      line: 'then',
      stderr: "bash: syntax error near unexpected token `then'\n",
      exitCode: 2,
    },
    { name: 'command not found', line: 'foo', stderr: 'bash: foo: command not found\n', exitCode: 127 },
    {
      name: 'bad substitution abandons the line',
      line: 'echo ${1a}; echo after',
      stderr: 'bash: ${1a}: bad substitution\n',
      exitCode: 1,
    },
    {
      name: 'division by zero abandons the line',
      line: 'echo $((1/0)); echo after',
      stderr: 'bash: 1/0: division by 0 (error token is "0")\n',
      exitCode: 1,
    },
    {
      name: '${x:?} abandons the line',
      line: 'echo ${Q:?missing}; echo after',
      stderr: 'bash: Q: missing\n',
      exitCode: 1,
    },
    {
      name: 'failed cd does not',
      line: 'cd /nonexist; echo after',
      stdout: 'after\n',
      stderr: 'bash: cd: /nonexist: No such file or directory\n',
      exitCode: 0,
    },
  ])('$name', ({ line, stdout = '', stderr, exitCode }) => {
    expect(streams(makeShell().shell.run(line, { interactive: true }))).toEqual({ stdout, stderr, exitCode });
  });

  it('warns about a here-document cut by the end of input and still runs it', () => {
    const r = makeShell().shell.run('cat <<EOF\nabc', { interactive: true });
    const warning = "bash: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')\n";
    expect(r).toEqual({
      stdout: 'abc\n',
      stderr: warning,
      output: [
        { stream: 'stderr', text: warning },
        { stream: 'stdout', text: 'abc\n' },
      ],
      exitCode: 0,
    });
  });
});

describe('pipes into kubectl, aliases, pasted blocks', () => {
  it('feeds a here-document through a pipe to kubectl apply -f -', () => {
    const f = makeShell();
    const r = f.shell.run(
      'cat <<EOF | kubectl apply -f -\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: $USER-cm\nEOF',
      { interactive: true },
    );
    expect(r.exitCode).toBe(0);
    expect(f.calls[0]!.argv).toEqual(['kubectl', 'apply', '-f', '-']);
    expect(f.calls[0]!.stdin).toBe('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: learner-cm\n');
  });

  it("keeps a quoted delimiter's body literal", () => {
    const f = makeShell();
    f.shell.run("kubectl apply -f - <<'EOF'\nname: $USER\nEOF", { interactive: false });
    expect(f.calls[0]!.stdin).toBe('name: $USER\n');
  });

  it('runs every line of a multi-line paste in order', () => {
    const f = makeShell();
    const r = f.shell.run('echo one\nk get pods\necho three\n', { interactive: true });
    expect(r.stdout).toBe('one\nkubectl get pods\nthree\n');
    expect(f.shell.history()).toEqual(['echo one\nk get pods\necho three']);
  });

  it('passes the exit code of the last pipeline element and the exported environment', () => {
    const f = makeShell();
    f.shell.run('export NS=dev; kubectl get pods -n $NS | grep nothing', { interactive: true });
    expect(f.calls[0]!.argv).toEqual(['kubectl', 'get', 'pods', '-n', 'dev']);
    expect(f.shell.run('echo $?', { interactive: true }).stdout).toBe('1\n');
  });

  it('substitutes command output into arguments', () => {
    const f = makeShell();
    const r = f.shell.run('kubectl delete pod $(echo web-1 | tr a-z A-Z)', { interactive: true });
    expect(r.stdout).toBe('kubectl delete pod WEB-1\n');
  });
});

describe('files', () => {
  it('writes redirections into the lab files and reads them back', () => {
    const f = makeShell({});
    f.shell.run('echo "kind: Pod" > pod.yaml; echo more >> pod.yaml', { interactive: true });
    expect(f.files.read('pod.yaml')).toBe('kind: Pod\nmore\n');
    expect(f.shell.run('cat pod.yaml | wc -l', { interactive: true }).stdout).toBe('2\n');
  });

  it('keeps the host shell inside the lab directory', () => {
    const f = makeShell({});
    expect(f.shell.run('cd /', { interactive: true })).toEqual({
      stdout: '',
      stderr: 'bash: cd: /: Permission denied\n',
      exitCode: 1,
    });
    expect(f.shell.run('echo x > /etc/passwd', { interactive: true }).stderr).toBe(
      'bash: /etc/passwd: No such file or directory\n',
    );
    expect(f.shell.run('echo x > /home/other', { interactive: true }).stderr).toBe(
      'bash: /home/other: Permission denied\n',
    );
    expect(
      f.shell.run('mkdir -p k8s/base && cd k8s/base && pwd && cd && pwd', { interactive: true }).stdout,
    ).toBe('/home/learner/k8s/base\n/home/learner\n');
  });

  it('lays out ls in columns on the terminal and one per line into a pipe', () => {
    const f = makeShell({ 'a.yaml': '', 'b.yaml': '', 'notes.md': '' });
    expect(f.shell.run('ls', { interactive: true }).stdout).toBe('a.yaml  b.yaml  notes.md\n');
    expect(f.shell.run('ls | cat', { interactive: true }).stdout).toBe('a.yaml\nb.yaml\nnotes.md\n');
  });

  it('expands globs against the lab files', () => {
    const f = makeShell({ 'a.yaml': '', 'b.yaml': '', 'c.txt': '', 'sub/d.yaml': '' });
    expect(f.shell.run('echo *.yaml sub/*.yaml *.none', { interactive: true }).stdout).toBe(
      'a.yaml b.yaml sub/d.yaml *.none\n',
    );
  });

  it('edits a manifest in place with sed -i', () => {
    const f = makeShell({ 'd.yaml': 'spec:\n  replicas: 1\n' });
    f.shell.run("sed -i 's/replicas: 1/replicas: 3/' d.yaml", { interactive: true });
    expect(f.files.read('d.yaml')).toBe('spec:\n  replicas: 3\n');
  });
});

describe('bounds', () => {
  it('stops an endless loop with a clear message', () => {
    const r = makeShell().shell.run('while true; do :; done; echo never', { interactive: true });
    expect(r).toEqual({
      stdout: '',
      stderr: 'packetpath: stopped: a loop ran more than 10000 times\n',
      exitCode: 1,
    });
  });

  it('truncates runaway terminal output', () => {
    const r = makeShell().shell.run('for i in $(seq 1 9000); do printf "%0200d\\n" $i; done', {
      interactive: true,
    });
    expect(r.stdout.length).toBeLessThan(1024 * 1024 + 100);
    expect(r.stdout.endsWith('\n…output truncated\n')).toBe(true);
  });

  it('refuses deep nesting instead of overflowing the stack', () => {
    const r = makeShell().shell.run(`${'('.repeat(500)}echo${')'.repeat(500)}`, { interactive: true });
    expect(r).toEqual({
      stdout: '',
      stderr: 'packetpath: the line nests commands too deeply\n',
      exitCode: 2,
    });
  });

  it('advances the simulated clock for sleep, capped at an hour', () => {
    const f = makeShell();
    expect(f.shell.run('sleep 2; sleep 1.5 0.5m', { interactive: true }).exitCode).toBe(0);
    expect(f.ticks).toEqual([2000, 31500]);
    expect(f.shell.run('sleep 2h', { interactive: true }).stderr).toBe(
      'packetpath: sleep stopped after 3600 seconds of simulated time\n',
    );
    expect(f.shell.run('sleep x', { interactive: true })).toEqual({
      stdout: '',
      stderr: "sleep: invalid time interval ‘x’\nTry 'sleep --help' for more information.\n",
      exitCode: 1,
    });
  });
});

describe('sessions', () => {
  it('enters a busybox pod, resolves commands there, and leaves with exit', () => {
    const f = makeShell();
    expect(f.shell.prompt()).toBe('learner@packetpath:~$ ');
    f.shell.run('kubectl exec -it bb -- sh', { interactive: true });
    expect(f.shell.context()).toEqual({
      kind: 'pod',
      namespace: 'default',
      pod: 'bb',
      container: 'c',
      shell: 'sh',
    });
    expect(f.shell.prompt()).toBe('/ # ');
    expect(f.shell.run('cat /etc/resolv.conf; hostname', { interactive: true }).stdout).toBe(
      'nameserver 10.96.0.10\nbb\n',
    );
    expect(f.shell.run('kubectl get pods', { interactive: true })).toEqual({
      stdout: '',
      stderr: 'sh: kubectl: not found\n',
      exitCode: 127,
    });
    expect(f.shell.run('cd /etc && pwd', { interactive: true }).stdout).toBe('/etc\n');
    expect(f.shell.prompt()).toBe('/etc # ');
    expect(f.shell.run('exit 3', { interactive: true })).toEqual({
      stdout: '',
      stderr: 'command terminated with exit code 3\n',
      exitCode: 3,
    });
    expect(f.shell.context()).toEqual({ kind: 'host' });
  });

  it('shows the Debian bash prompt and says exit when leaving bash', () => {
    const f = makeShell();
    f.shell.run('kubectl exec -it web -- bash', { interactive: true });
    expect(f.shell.prompt()).toBe('root@web-7d4b9c8f6d-x2kq9:/# ');
    expect(f.shell.run('nope', { interactive: true }).stderr).toBe('bash: nope: command not found\n');
    // `exit` without a number exits with $?, and kubectl reports it.
    expect(f.shell.run('exit', { interactive: true })).toEqual({
      stdout: '',
      stderr: 'exit\ncommand terminated with exit code 127\n',
      exitCode: 127,
    });
  });

  it("uses dash's wording in a Debian image's sh", () => {
    const f = makeShell();
    f.shell.run('kubectl exec -it web -- sh', { interactive: true });
    expect(f.shell.prompt()).toBe('# ');
    expect(f.shell.run('nope', { interactive: true }).stderr).toBe('sh: 1: nope: not found\n');
  });

  it('runs the rest of a pasted block in the session the block opened', () => {
    const f = makeShell();
    const r = f.shell.run('kubectl exec -it bb -- sh\nhostname\nexit\necho back', { interactive: true });
    expect(r.stdout).toBe('bb\nback\n');
  });

  it('ends the session when the pod goes away', () => {
    const pods = new Set(['bb']);
    const f = makeShell({}, pods);
    f.shell.run('kubectl exec -it bb -- sh', { interactive: true });
    pods.delete('bb');
    const r = f.shell.run('hostname', { interactive: true });
    expect(r).toEqual({
      stdout: 'packetpath\n',
      stderr: 'command terminated with exit code 137\n',
      output: [
        { stream: 'stderr', text: 'command terminated with exit code 137\n' },
        { stream: 'stdout', text: 'packetpath\n' },
      ],
      exitCode: 0,
    });
    expect(f.shell.context()).toEqual({ kind: 'host' });
  });

  it('says logout at the top level and drops the rest of the line', () => {
    expect(makeShell().shell.run('exit; echo never', { interactive: true })).toEqual({
      stdout: '',
      stderr: 'logout\n',
      exitCode: 0,
      logout: true,
    });
  });

  it('runs a command in a context without opening a session (kubectl exec without -it)', () => {
    const f = makeShell();
    expect(
      f.shell.execIn({ kind: 'pod', namespace: 'default', pod: 'bb', container: 'c' }, [
        'cat',
        '/etc/hostname',
      ]),
    ).toEqual({
      stdout: 'bb\n',
      stderr: '',
      exitCode: 0,
    });
    expect(
      f.shell.execIn({ kind: 'pod', namespace: 'default', pod: 'bb', container: 'c' }, [
        'sh',
        '-c',
        'echo $HOSTNAME | wc -c',
      ]),
    ).toEqual({
      stdout: '3\n',
      stderr: '',
      exitCode: 0,
    });
    expect(
      f.shell.execIn({ kind: 'pod', namespace: 'default', pod: 'bb', container: 'c' }, ['curl', 'x']),
    ).toBeUndefined();
    expect(f.shell.context()).toEqual({ kind: 'host' });
  });
});

describe('state() and restore()', () => {
  it('round-trips history, variables, directories, aliases and the session stack through JSON', () => {
    const f = makeShell({ 'a.txt': 'x\n' });
    f.shell.run('export NS=dev; alias kg="kubectl get"; mkdir -p work/dir; cd work', { interactive: true });
    f.shell.run('kubectl exec -it bb -- sh', { interactive: true });
    f.shell.run('cd /tmp; echo note > n.txt; LOCAL=1', { interactive: true });
    const state = JSON.parse(JSON.stringify(f.shell.state()));
    const g = makeShell({ 'a.txt': 'x\n' });
    g.shell.restore(state);
    expect(g.shell.state()).toEqual(f.shell.state());
    expect(g.shell.prompt()).toBe('/tmp # ');
    expect(g.shell.run('cat n.txt; echo $LOCAL', { interactive: true }).stdout).toBe('note\n1\n');
    g.shell.run('exit', { interactive: true });
    expect(g.shell.run('pwd; echo $NS; kg pods', { interactive: true }).stdout).toBe(
      '/home/learner/work\ndev\nkubectl get pods\n',
    );
    expect(g.shell.history().slice(0, 2)).toEqual(f.shell.history().slice(0, 2));
  });

  it('ignores malformed state instead of throwing', () => {
    const f = makeShell();
    for (const bad of [
      null,
      42,
      'x',
      { version: 9 },
      { version: 1, sessions: [{ context: { kind: 'pod' } }] },
      { version: 1, history: [1, 'ok'], sessions: 'no' },
    ]) {
      expect(() => f.shell.restore(bad)).not.toThrow();
      expect(f.shell.context()).toEqual({ kind: 'host' });
    }
  });
});

describe('completion', () => {
  it('completes commands, files, variables and paths', () => {
    const f = makeShell({ 'deploy.yaml': '', 'dir/svc.yaml': '' });
    expect(f.shell.completions('kub').candidates).toEqual(['kubectl']);
    expect(f.shell.completions('ec').candidates).toEqual(['echo']);
    expect(f.shell.completions('cat de')).toEqual({ start: 4, end: 6, candidates: ['deploy.yaml'] });
    expect(f.shell.completions('cat di').candidates).toEqual(['dir/']);
    expect(f.shell.completions('cat dir/').candidates).toEqual(['dir/svc.yaml']);
    expect(f.shell.completions('echo $HO').candidates).toEqual(['$HOME', '$HOSTNAME']);
    expect(f.shell.completions('ls | gr').candidates).toEqual(['grep']);
    expect(f.shell.completions('echo x > d').candidates).toEqual(['deploy.yaml', 'dir/']);
  });
});

describe('needsMoreInput', () => {
  it.each([
    ['echo "abc', true],
    ['echo abc |', true],
    ['if true; then', true],
    ['cat <<EOF\nabc', true],
    ['echo a \\', true],
    ['echo abc', false],
    ['cat <<EOF\nabc\nEOF', false],
    ['| foo', false],
  ])('%j → %s', (text, expected) => {
    expect(needsMoreInput(text)).toBe(expected);
  });
});

describe('properties', () => {
  const alphabet = fc.constantFrom(
    ...'ab $(){}[]|&;<>\'"\\`*?~#=-\n\t0123456789!%:/.,^+'.split(''),
    'echo',
    'cat',
    'grep',
    'while',
    'do',
    'done',
    'for',
    'if',
    'fi',
    '<<EOF',
    'EOF',
    'sort',
    'awk',
    'sed',
    'true',
    'false',
    'exit',
    'kubectl',
    '${',
    '$((',
  );
  it('never throws and always returns, whatever the line', () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((a) => a.join('')),
        (line) => {
          const f = makeShell();
          const r = f.shell.run(line, { interactive: true });
          expect(typeof r.stdout).toBe('string');
          expect(typeof r.stderr).toBe('string');
          expect(Number.isInteger(r.exitCode)).toBe(true);
          expect(() => f.shell.completions(line, line.length)).not.toThrow();
        },
      ),
      { numRuns: 400 },
    );
  });

  it('survives a state round trip after any line', () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 25 }).map((a) => a.join('')),
        (line) => {
          const f = makeShell();
          f.shell.run(line, { interactive: true });
          const g = makeShell();
          g.shell.restore(JSON.parse(JSON.stringify(f.shell.state())));
          expect(g.shell.state()).toEqual(f.shell.state());
        },
      ),
      { numRuns: 200 },
    );
  });
});
