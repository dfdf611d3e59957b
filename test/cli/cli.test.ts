/**
 * The `packetpath` CLI as a learner runs it: spawned with the project's Node 24 (type stripping runs
 * the TypeScript sources), in a scratch working directory that is the CLI's files view.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/packetpath.mjs');
/** npm puts the pinned Node 24 first on PATH; a bare `vitest` may run under an older system Node. */
const NODE = existsSync(join(ROOT, 'node_modules/.bin/node'))
  ? join(ROOT, 'node_modules/.bin/node')
  : process.execPath;

function cli(args: string[], opts: { cwd?: string; input?: string } = {}) {
  const r = spawnSync(NODE, [BIN, ...args], {
    cwd: opts.cwd ?? scratch(),
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

/** Runs the CLI with stdout and stderr on one file, as a terminal gets them: the bytes in write order. */
function cliMerged(args: string[], opts: { cwd?: string; input?: string } = {}): string {
  const cwd = opts.cwd ?? scratch();
  const path = join(mkdtempSync(join(tmpdir(), 'packetpath-out-')), 'out.txt');
  const fd = openSync(path, 'w');
  try {
    spawnSync(NODE, [BIN, ...args], {
      cwd,
      input: opts.input ?? '',
      stdio: ['pipe', fd, fd],
      timeout: 60_000,
    });
  } finally {
    closeSync(fd);
  }
  return readFileSync(path, 'utf8');
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'packetpath-cli-'));
}

describe('packetpath exec', { timeout: 60_000 }, () => {
  it('keeps one cluster across invocations in the state file', () => {
    const cwd = scratch();
    const created = cli(
      ['exec', '--state', 'st.json', '--', 'kubectl create deployment web --image=nginx --replicas=2'],
      { cwd },
    );
    expect(created).toEqual({ stdout: 'deployment.apps/web created\n', stderr: '', code: 0 });
    const pods = cli(['exec', '--state', 'st.json', '--', 'kubectl get pods --no-headers | wc -l'], { cwd });
    expect(pods).toEqual({ stdout: '2\n', stderr: '', code: 0 });
    const again = cli(
      [
        'exec',
        '--state',
        'st.json',
        '--',
        'kubectl',
        'get',
        'deploy',
        'web',
        '-o',
        "jsonpath='{.spec.replicas}'",
      ],
      { cwd },
    );
    expect(again.stdout).toBe('2');
    expect(JSON.parse(readFileSync(join(cwd, 'st.json'), 'utf8')).format).toBe('packetpath-cluster');
  });

  it('keeps a background port-forward running into the next exec, until its pod goes away', () => {
    const cwd = scratch();
    const exec = (line: string) => cli(['exec', '--state', 's.json', '--', line], { cwd });
    expect(
      exec('kubectl create deployment web --image=nginx && kubectl rollout status deploy/web').code,
    ).toBe(0);
    expect(exec('kubectl port-forward deploy/web 18080:80 >/dev/null 2>&1 &')).toEqual({
      stdout: '',
      stderr: '',
      code: 0,
    });
    const curl = 'curl -s -o /dev/null -w "%{http_code}" localhost:18080';
    expect(exec(curl)).toEqual({ stdout: '200', stderr: '', code: 0 });
    // The forward's pod is deleted: kubectl lost its stream and exited, nothing listens on the port
    // any more (curl: (7) Failed to connect), also in the exec after.
    expect(exec('kubectl delete pod -l app=web >/dev/null').code).toBe(0);
    expect(exec(curl)).toEqual({ stdout: '000', stderr: '', code: 7 });
  });

  it('is deterministic: the same seed names the same pods', () => {
    const run = () => {
      const cwd = scratch();
      cli(['exec', '--state', 's.json', '--seed', '7', '--', 'kubectl create deployment web --image=nginx'], {
        cwd,
      });
      return cli(['exec', '--state', 's.json', '--', 'kubectl get pods -o name'], { cwd }).stdout;
    };
    const first = run();
    expect(first).toMatch(/^pod\/web-[a-z0-9]+-[a-z0-9]{5}\n$/);
    expect(run()).toBe(first);
  });

  it('reads and writes the working directory', () => {
    const cwd = scratch();
    writeFileSync(
      join(cwd, 'pod.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bb\nspec:\n  containers:\n  - name: bb\n    image: busybox\n    command: ["sleep", "3600"]\n',
    );
    expect(cli(['exec', '--state', 'st.json', '--', 'kubectl apply -f pod.yaml'], { cwd })).toEqual({
      stdout: 'pod/bb created\n',
      stderr: '',
      code: 0,
    });
    expect(
      cli(['exec', '--state', 'st.json', '--', 'kubectl get pod bb -o name > out.txt; ls'], { cwd }).stdout,
    ).toBe('out.txt\npod.yaml\nst.json\n');
    expect(readFileSync(join(cwd, 'out.txt'), 'utf8')).toBe('pod/bb\n');
    expect(
      cli(['exec', '--state', 'st.json', '--', 'kubectl exec bb -- cat /etc/resolv.conf'], { cwd }).stdout,
    ).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
  });

  it("exits with the line's exit code and prints its stderr", () => {
    const cwd = scratch();
    expect(cli(['exec', '--state', 'st.json', '--', 'nosuch'], { cwd })).toEqual({
      stdout: '',
      stderr: 'bash: nosuch: command not found\n',
      code: 127,
    });
    expect(cli(['exec', '--state', 'st.json', '--', 'grep x /dev/null'], { cwd }).code).toBe(1);
    expect(cli(['exec', '--state', 'st.json', '--', 'echo "open'], { cwd })).toEqual({
      stdout: '',
      stderr:
        'bash: unexpected EOF while looking for matching `"\'\nbash: syntax error: unexpected end of file\n',
      code: 2,
    });
  });

  it.each([
    {
      name: 'not JSON',
      content: 'garbage',
      message: `packetpath: cannot read state file st.json: invalid snapshot: Unexpected token 'g', "garbage" is not valid JSON\n`,
    },
    {
      name: 'foreign JSON',
      content: '{"kind":"Pod"}',
      message:
        'packetpath: cannot read state file st.json: invalid snapshot: not a Packet Path cluster snapshot\n',
    },
    {
      name: 'a newer version',
      content: '{"format":"packetpath-cluster","version":99}',
      message:
        'packetpath: cannot read state file st.json: unsupported snapshot version 99 (this engine reads versions 1 to 3)\n',
    },
  ])('refuses a state file that is $name', ({ content, message }) => {
    const cwd = scratch();
    writeFileSync(join(cwd, 'st.json'), content);
    expect(cli(['exec', '--state', 'st.json', '--', 'kubectl get pods'], { cwd })).toEqual({
      stdout: '',
      stderr: message,
      code: 1,
    });
    expect(readFileSync(join(cwd, 'st.json'), 'utf8')).toBe(content);
  });
});

describe('usage errors', { timeout: 60_000 }, () => {
  const hint = "Run 'packetpath --help' for usage.\n";
  it.each([
    { args: ['frobnicate'], stderr: `packetpath: unknown command "frobnicate"\n${hint}` },
    { args: ['--frob'], stderr: `packetpath: unknown flag: --frob\n${hint}` },
    { args: ['exec', '--bogus', 'x'], stderr: `packetpath: unknown flag for "exec": --bogus\n${hint}` },
    { args: ['exec', '--', 'ls'], stderr: `packetpath: exec needs --state FILE\n${hint}` },
    {
      args: ['exec', '--state', 's.json'],
      stderr: `packetpath: exec needs a line to run: packetpath exec --state FILE -- 'LINE'\n${hint}`,
    },
    { args: ['exec', '--state'], stderr: `packetpath: flag needs an argument: --state\n${hint}` },
    {
      args: ['shell', '--seed', 'abc'],
      stderr: `packetpath: invalid value "abc" for --seed: must be a whole number\n${hint}`,
    },
  ])('packetpath $args', ({ args, stderr }) => {
    expect(cli(args)).toEqual({ stdout: '', stderr, code: 2 });
  });

  it('prints the usage for --help and help, and on stderr with exit 2 when called bare', () => {
    const help = cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("packetpath exec --state FILE [--cluster FILE] [--seed N] -- 'LINE'");
    expect(cli(['help']).stdout).toBe(help.stdout);
    expect(cli([])).toEqual({ stdout: '', stderr: help.stdout, code: 2 });
  });

  it('reports unreadable cluster definitions and unknown labs', () => {
    const cwd = scratch();
    writeFileSync(join(cwd, 'c.yaml'), 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nbogus: 1\n');
    expect(cli(['shell', '--cluster', 'c.yaml'], { cwd })).toEqual({
      stdout: '',
      stderr: 'packetpath: cannot read cluster file c.yaml: unknown field "bogus" in cluster config\n',
      code: 1,
    });
    expect(cli(['shell', '--cluster', 'none.yaml'], { cwd })).toEqual({
      stdout: '',
      stderr: 'packetpath: cannot read cluster file none.yaml: no such file or directory\n',
      code: 1,
    });
    expect(cli(['shell', '--lab', 'nope'])).toEqual({
      stdout: '',
      stderr: 'packetpath: no lab named nope\n',
      code: 1,
    });
  });
});

describe('packetpath shell driven through stdin', { timeout: 60_000 }, () => {
  it('runs lines, follows sessions, joins continued lines and exits with the last status', () => {
    const input = [
      'kubectl run bb --image=busybox -- sleep 3600',
      'kubectl exec -it bb -- sh',
      'hostname',
      'cat <<EOF',
      'in a heredoc',
      'EOF',
      'exit',
      'echo "two',
      'lines"',
      'false',
    ].join('\n');
    expect(cli(['shell'], { input: `${input}\n` })).toEqual({
      stdout: 'pod/bb created\nbb\nin a heredoc\ntwo\nlines\n',
      stderr: '',
      code: 1,
    });
  });

  it('uses a k3s cluster from --cluster', () => {
    const cwd = scratch();
    writeFileSync(
      join(cwd, 'k3s.yaml'),
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
    );
    const r = cli(['shell', '--cluster', 'k3s.yaml'], { cwd, input: 'kubectl get nodes -o name\n' });
    expect(r).toEqual({ stdout: 'node/k3s-agent1\nnode/k3s-agent2\nnode/k3s-server\n', stderr: '', code: 0 });
  });

  it('starts a lab with --lab: its cluster, setup and start files, without touching the folder', () => {
    const cwd = scratch();
    const r = cli(['shell', '--lab', '04-empty-endpoints'], {
      cwd,
      input: 'ls\nkubectl get svc api -n shop -o jsonpath={.spec.selector.app}\n',
    });
    // labs/04-empty-endpoints: start/ holds api-service.yaml and shop.yaml; the Service selects a label
    // no pod has (app=api-server), which is the fault the lab starts with.
    expect(r).toEqual({ stdout: 'api-service.yaml  shop.yaml\napi-server', stderr: '', code: 0 });
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('stdout and stderr in the order they were written', { timeout: 60_000 }, () => {
  const LS_NOPE = "ls: cannot access '/nope': No such file or directory\n";

  // bash 5.2.15: `bash -c 'echo a; ls /nope; echo b' 2>&1` prints a, the ls error, then b.
  it('exec interleaves the two streams as bash does', () => {
    const cwd = scratch();
    expect(cliMerged(['exec', '--state', 'st.json', '--', 'echo a; ls /nope; echo b'], { cwd })).toBe(
      `a\n${LS_NOPE}b\n`,
    );
  });

  it("shell prints kubectl's warning before its table, and each line's output before the next", () => {
    const out = cliMerged(['shell'], { input: 'ls /nope; echo after\nkubectl get endpoints\n' });
    const warning = 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n';
    const head = `${LS_NOPE}after\n${warning}NAME `;
    expect(out.slice(0, head.length)).toBe(head);
  });
});
