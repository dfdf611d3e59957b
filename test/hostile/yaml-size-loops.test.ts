/**
 * Hostile input: YAML alias bombs at every parse site, 10 MB inputs, 10,000-deep nesting, huge
 * heredocs and endless loops. Each ends with the real tool's error (or the shell's bash-like limit
 * message) after a bounded amount of work; nothing throws, nothing hangs.
 */
import { describe, expect, it } from 'vitest';
import {
  createCluster,
  parseClusterConfig,
  ClusterConfigError,
  MAX_FILE_BYTES,
} from '../../src/engine/index.ts';
import { parseKubeProxyConfiguration } from '../../src/engine/dataplane/proxy/kube-proxy-config.ts';
import { MAX_INPUT_CHARS, MAX_LOOP_ITERATIONS, MAX_SLEEP_SECONDS } from '../../src/engine/shell/limits.ts';
import { LabError, parseLab, parseReport, ReportError } from '../../src/grader/index.ts';
import { diagnosticsFor } from '../../src/runtime/diagnostics.ts';

/** "Billion laughs": 9 levels of 9 aliases, 9^9 strings if expanded. */
function aliasBomb(head: string): string {
  const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
  let out = `${head}a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n`;
  for (let i = 1; i < levels.length; i++) {
    const p = levels[i - 1]!;
    out += `${levels[i]}: &${levels[i]} [${Array(9).fill(`*${p}`).join(',')}]\n`;
  }
  return out;
}
const CM_HEAD = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\n';
const DEEP = 10_000;

function cluster(files: Record<string, string> = {}) {
  return createCluster(undefined, { seed: 1, files });
}

describe('YAML alias bombs', () => {
  it("kubectl apply -f answers with go-yaml's resource-exhaustion error", () => {
    const c = cluster({ 'bomb.yaml': aliasBomb(CM_HEAD) });
    expect(c.execSync('kubectl apply -f bomb.yaml')).toEqual({
      stdout: '',
      stderr:
        'error: error parsing bomb.yaml: error converting YAML to JSON: yaml: document contains excessive aliasing\n',
      exitCode: 1,
    });
  });

  it('the editor diagnostics of a bomb file return without expanding it', () => {
    const text = aliasBomb(CM_HEAD);
    expect(() =>
      diagnosticsFor(text, 'The ConfigMap "lol" is invalid: data.a: Invalid value: "lol": must be a string'),
    ).not.toThrow();
  });

  it('lab.yaml: a LabError naming the file', () => {
    expect(() => parseLab('labs/x/lab.yaml', aliasBomb('id: x\n'))).toThrow(LabError);
    expect(() => parseLab('labs/x/lab.yaml', aliasBomb('id: x\n'))).toThrow(/^labs\/x\/lab\.yaml: .*alias/i);
  });

  it('a kind cluster config and the kube-proxy ConfigMap', () => {
    expect(() => parseClusterConfig(aliasBomb('kind: Cluster\n'))).toThrow(ClusterConfigError);
    const r = parseKubeProxyConfiguration(aliasBomb('kind: KubeProxyConfiguration\n'));
    expect(r.ok).toBe(false);
  });

  it('a grade report replaying a bomb: the journal step fails like kubectl, the report is graded', () => {
    // Reports are JSON (no aliases); a bomb can only ride in a journal file, which replays through kubectl.
    const c = cluster();
    c.files.write('b.yaml', aliasBomb(CM_HEAD));
    expect(c.execSync('cat b.yaml | kubectl apply -f -').stderr).toMatch(
      /^error: error parsing STDIN: error converting YAML to JSON: yaml: document contains excessive aliasing\n$/,
    );
  });
});

describe('10 MB inputs', () => {
  const TEN_MB = 10 * 1024 * 1024;

  it("a 4 MB manifest: the API server's 3 MiB request limit, as kubectl prints it", () => {
    const big = `${CM_HEAD}data:\n  x: "${'a'.repeat(4 * 1024 * 1024)}"\n`;
    const c = cluster({ 'big.yaml': big });
    expect(c.execSync('kubectl apply -f big.yaml').stderr).toBe(
      'Error from server (RequestEntityTooLarge): error when creating "big.yaml": Request entity too large: limit is 3145728\n',
    );
    expect(c.execSync('kubectl create configmap big --from-file=big.yaml').stderr).toBe(
      'error: failed to create configmap: Request entity too large: limit is 3145728\n',
    );
  });

  it('a file over 10 MB is refused by the file store (editor save or redirect), not kept', () => {
    const c = cluster();
    expect(MAX_FILE_BYTES).toBe(TEN_MB);
    expect(c.files.write('huge.yaml', 'a'.repeat(TEN_MB + 1))).toBe('huge.yaml: File too large');
    expect(c.execSync('cat huge.yaml').stderr).toBe('cat: huge.yaml: No such file or directory\n');
  });

  it('a 10 MB line or heredoc: the shell refuses it in one message', () => {
    const c = cluster();
    const r = c.execSync(`cat > h.txt <<EOF\n${'x'.repeat(TEN_MB)}\nEOF`);
    expect(r).toEqual({
      stdout: '',
      stderr: `packetpath: input longer than ${MAX_INPUT_CHARS} characters\n`,
      exitCode: 2,
    });
  });

  it('a 10 MB grade report is parsed or rejected with one line', () => {
    const text = JSON.stringify({ format: 'packetpath-grade-report', version: 1, pad: 'x'.repeat(TEN_MB) });
    expect(() => parseReport(text)).toThrow(ReportError);
  });
});

describe('10,000-deep nesting', () => {
  const flow = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;

  it.each([
    ['YAML flow sequences', `${CM_HEAD}data: ${flow}\n`],
    ['YAML flow maps', `${CM_HEAD}x: ${'{a: '.repeat(DEEP)}1${'}'.repeat(DEEP)}\n`],
    ['JSON', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${flow}}`],
  ])('kubectl apply -f of %s: a parse error, no stack overflow', (_n, text) => {
    const c = cluster({ 'deep.yaml': text });
    const r = c.execSync('kubectl apply -f deep.yaml');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: error parsing deep\.yaml: /);
    expect(r.stderr).not.toMatch(/Maximum call stack|internal error/);
  });

  it('lab.yaml', () => {
    expect(() => parseLab('labs/x/lab.yaml', `id: ${flow}\n`)).toThrow(LabError);
  });

  it.each([
    ['a result message', (deep: string) => report(deep, '1')],
    ['the snapshot', (deep: string) => report('1', deep)],
  ])('a grade report with 10,000-deep JSON in %s: one ReportError line, no stack overflow', (_n, make) => {
    const deep = `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;
    expect(() => parseReport(make(deep))).toThrow(
      new ReportError('malformed grade report: nested deeper than 200 levels'),
    );
  });
});

/** A report's JSON text built as a string: JSON.stringify itself overflows on 10,000 levels. */
function report(params: string, snapshot: string): string {
  return `{"format":"packetpath-grade-report","version":1,"lab":{"id":"x","version":1,"contentHash":"sha256:0"},"locale":"en","startedAt":"2026-11-29T10:00:00Z","submittedAt":"2026-11-29T10:00:00Z","score":{"passed":0,"total":0,"percent":0},"results":[{"id":"c","type":"resource","hidden":false,"status":"pass","observed":{"key":"k","params":{"p":${params}}}}],"submission":{"journal":[],"files":{},"quizAnswers":{},"snapshot":{"d":${snapshot}}}}`;
}

describe('huge heredocs and endless loops', () => {
  it('a 900 KB heredoc is written whole', () => {
    const c = cluster();
    const body = 'x'.repeat(900 * 1024);
    expect(c.execSync(`cat > h.txt <<EOF\n${body}\nEOF`).exitCode).toBe(0);
    expect(c.execSync('wc -c h.txt').stdout.trim()).toBe(`${body.length + 1} h.txt`);
  });

  it.each([
    ['while true; do :; done'],
    ['while :; do echo y; done'],
    ['until false; do true; done'],
    ['for i in $(seq 1 100000); do :; done'],
    ['while true; do while true; do :; done; done'],
    ['while true; do sleep 3600; done'],
  ])('%s stops at the loop limit with one message', (line) => {
    const r = cluster().execSync(line);
    expect(r.stderr).toBe(`packetpath: stopped: a loop ran more than ${MAX_LOOP_ITERATIONS} times\n`);
    expect(r.exitCode).toBe(1);
  });

  it("kubectl wait --timeout=1000h gives up after the simulated-wait cap, with kubectl's timeout error", () => {
    // Found by hand while fuzzing: waiting stepped through the whole timeout (21 s of CPU for 1000 h).
    const c = cluster();
    c.execSync('kubectl create deployment web --image=nginx');
    const before = c.clock.now();
    const r = c.execSync("kubectl wait --for=jsonpath='{.status.replicas}'=5 deploy/web --timeout=1000h");
    expect(r.stderr).toBe('error: timed out waiting for the condition on deployments.apps/web\n');
    expect(c.clock.now() - before).toBeLessThanOrEqual((MAX_SLEEP_SECONDS + 60) * 1000);
  });

  it('a variable doubled in a loop stops at the pipe limit (found by hand: it ran into "internal error")', () => {
    const r = cluster().execSync(
      'x=$(printf "%01000000d" 1); for i in $(seq 1 30); do x="$x$x"; done; echo ${#x}',
    );
    expect(r.stderr).toBe('packetpath: stopped: a variable held more than 16 MiB\n');
    expect(r.stdout).toBe('');
  });

  it('one word expanded past what JavaScript can hold is a limit message, not an internal error', () => {
    const word = '${x}'.repeat(40);
    const r = cluster().execSync(`x=$(printf "%016000000d" 1); echo "${word}" | wc -c`);
    expect(r.stderr).toMatch(/^packetpath: stopped: /);
    expect(r.stderr).not.toContain('internal error');
  });

  it('eval recursion stops at the nesting limit', () => {
    const r = cluster().execSync(`x='eval "$x"'; eval "$x"`);
    expect(r.stderr).toMatch(/^packetpath: stopped: scripts nested more than \d+ deep\n$/);
  });

  it('sh -c recursion stops at the nesting limit', () => {
    const c = cluster({ 'r.sh': 'sh r.sh\n' });
    const r = c.execSync('sh r.sh');
    expect(r.stderr).toMatch(/packetpath: stopped: commands nested more than \d+ deep\n$/);
  });

  it('a loop printing forever is cut at the output limit or the loop limit', () => {
    const r = cluster().execSync(
      'while true; do cat /etc/services 2>/dev/null; echo yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy; done',
    );
    expect(r.stdout.length).toBeLessThanOrEqual(1024 * 1024 + 100);
    expect(r.stderr).toMatch(/packetpath: stopped: /);
  });

  it("shell functions (not simulated) answer with bash's syntax error, not a hang", () => {
    const r = cluster().execSync('f() { f; }; f');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^bash: syntax error near unexpected token/);
  });
});
