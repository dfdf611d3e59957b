import { describe, expect, it } from 'vitest';
import { workerHarness } from './test-host.ts';
import {
  PROTOCOL_VERSION,
  outputChunks,
  type ExecOutput,
  type HostState,
  type Params,
  type RequestType,
} from './protocol.ts';

/** The shared harness, its answers untyped: these tests pick the fields they look at. */
function harness() {
  const h = workerHarness();
  return {
    ...h,
    request: <T extends RequestType>(type: T, params: Params<T>) => h.request(type, params) as Promise<never>,
  };
}

describe('worker host handler', () => {
  it('says hello with the protocol version and its terminal mode', async () => {
    const h = harness();
    expect(await h.request('hello', {})).toEqual({
      version: PROTOCOL_VERSION,
      host: 'worker',
      terminal: 'line',
    });
  });

  it('loads the sandbox lab with its texts, start files and a prompt', async () => {
    const h = harness();
    const r = (await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } })) as {
      lab: { id: string; hints: unknown[]; title: { en: string } };
      files: Record<string, string>;
      prompt: string;
    };
    expect(r.lab.id).toBe('00-sandbox');
    expect(r.lab.hints).toHaveLength(3);
    expect(r.lab.title.en).toBe('Sandbox');
    expect(Object.keys(r.files)).toEqual(['web.yaml']);
    expect(r.prompt).toBe('learner@packetpath:~$ ');
  });

  it('refuses an unknown lab with a code', async () => {
    const h = harness();
    await expect(h.request('load', { labId: '99-nope', start: { kind: 'fresh' } })).rejects.toMatchObject({
      code: 'no-lab',
    });
  });

  it('runs lines, completes words and tells incomplete input', async () => {
    const h = harness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    const out = (await h.request('exec', { line: 'kubectl apply -f web.yaml' })) as {
      stdout: string;
      exitCode: number;
    };
    expect(out).toMatchObject({ stdout: 'deployment.apps/web created\n', exitCode: 0 });
    expect(await h.request('complete', { line: 'kubectl get dep', cursor: 15 })).toEqual({
      candidates: ['deploy', 'deployment', 'deployments'],
      from: 12,
      to: 15,
    });
    expect(await h.request('incomplete', { text: 'cat <<EOF > a.yaml' })).toBe(true);
    expect(await h.request('incomplete', { text: 'kubectl get pods' })).toBe(false);
  });

  it('echoes shell-made file changes but not the UI’s own writes', async () => {
    const h = harness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    await h.request('writeFile', { path: 'web.yaml', content: 'x: 1\n' });
    expect(h.events()).toEqual([]);
    await h.request('exec', { line: 'echo "a: b" > notes.yaml' });
    expect(h.events()).toEqual([{ type: 'file', path: 'notes.yaml', content: 'a: b\n' }]);
  });

  it('moves a lab through its state: same files, same journal, same next output', async () => {
    const a = harness();
    await a.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    await a.request('exec', { line: 'kubectl apply -f web.yaml' });
    await a.request('writeFile', { path: 'web.yaml', content: 'changed: true\n' });
    const state = (await a.request('state', {})) as HostState;
    expect(state.journal).toEqual([
      { run: 'kubectl apply -f web.yaml' },
      { write: 'web.yaml', content: 'changed: true\n' },
    ]);
    const b = harness();
    const loaded = (await b.request('load', {
      labId: '00-sandbox',
      start: { kind: 'state', state: JSON.parse(JSON.stringify(state)) },
    })) as {
      files: Record<string, string>;
      history: string[];
    };
    expect(loaded.files['web.yaml']).toBe('changed: true\n');
    expect(loaded.history).toEqual(['kubectl apply -f web.yaml']);
    const next = 'kubectl get pods';
    expect(await b.request('exec', { line: next })).toEqual(await a.request('exec', { line: next }));
  });

  it('replays a journal (the migration path) to the same cluster', async () => {
    const a = harness();
    await a.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    await a.request('exec', { line: 'kubectl apply -f web.yaml' });
    const state = (await a.request('state', {})) as HostState;
    const b = harness();
    await b.request('load', { labId: '00-sandbox', start: { kind: 'replay', journal: state.journal } });
    const line = 'kubectl get deploy,rs,pods';
    expect(await b.request('exec', { line })).toEqual(await a.request('exec', { line }));
  });

  it('answers a damaged snapshot with snapshot-invalid', async () => {
    const h = harness();
    const bad = {
      snapshot: { format: 'nope' },
      journal: [],
      quizAnswers: {},
      startedAt: '',
    } as unknown as HostState;
    await expect(
      h.request('load', { labId: '00-sandbox', start: { kind: 'state', state: bad } }),
    ).rejects.toMatchObject({
      code: 'snapshot-invalid',
    });
  });

  it('grades with the grader: nothing at the start, everything after the solution', async () => {
    const h = harness();
    const r = (await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } })) as {
      lab: { solution: { commands: string[]; files: Record<string, string> } };
    };
    const before = (await h.request('check', {})) as { passed: number; total: number };
    expect(before).toMatchObject({ passed: 0, total: 5 });
    for (const [path, content] of Object.entries(r.lab.solution.files))
      await h.request('writeFile', { path, content });
    for (const line of r.lab.solution.commands) await h.request('exec', { line });
    const after = (await h.request('check', {})) as {
      passed: number;
      total: number;
      results: { observed: { en: string; 'pt-BR': string } }[];
    };
    expect(after).toMatchObject({ passed: 5, total: 5 });
    expect(after.results[0]!.observed['pt-BR']).not.toBe(after.results[0]!.observed.en);
    const report = (await h.request('report', { locale: 'en', submittedAt: '2026-11-29T12:00:00Z' })) as {
      format: string;
      score: { passed: number };
    };
    expect(report).toMatchObject({ format: 'packetpath-grade-report', score: { passed: 5 } });
  });

  it('places dry-run errors on the manifest’s lines without touching the cluster', async () => {
    const h = harness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    const before = (await h.request('state', {})) as HostState;
    const text =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: -1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n        - name: c\n          image: nginx\n';
    await h.request('writeFile', { path: 'bad.yaml', content: text });
    const diags = (await h.request('validate', { path: 'bad.yaml' })) as { message: string; line?: number }[];
    expect(diags.length).toBeGreaterThan(0);
    expect(diags.some((d) => d.line === 6 && /replicas/.test(d.message))).toBe(true);
    const after = (await h.request('state', {})) as HostState;
    expect(after.snapshot.clock).toBe(before.snapshot.clock);
    expect(after.snapshot.rng).toEqual(before.snapshot.rng);
  });

  it('drops a request cancelled while queued, answering AbortError', async () => {
    const h = harness();
    h.handler.receive({
      v: PROTOCOL_VERSION,
      kind: 'request',
      id: 100,
      type: 'load',
      params: { labId: '00-sandbox', start: { kind: 'fresh' } },
    });
    h.handler.receive({
      v: PROTOCOL_VERSION,
      kind: 'request',
      id: 101,
      type: 'exec',
      params: { line: 'kubectl apply -f web.yaml' },
    });
    h.handler.receive({ v: PROTOCOL_VERSION, kind: 'cancel', id: 101 });
    await h.handler.idle();
    const r = h.sent.find((m) => m.kind === 'response' && m.id === 101);
    expect(r).toMatchObject({ ok: false, error: { name: 'AbortError', code: 'cancelled' } });
  });

  it('answers a ping at once, ahead of the queued requests (the watchdog heartbeat)', async () => {
    const h = harness();
    h.handler.receive({
      v: PROTOCOL_VERSION,
      kind: 'request',
      id: 200,
      type: 'load',
      params: { labId: '00-sandbox', start: { kind: 'fresh' } },
    });
    h.handler.receive({ v: PROTOCOL_VERSION, kind: 'request', id: 201, type: 'ping', params: {} });
    // Synchronously answered: the load has not finished, the ping is already out.
    expect(h.sent.map((m) => (m.kind === 'response' ? m.id : m.kind))).toEqual([201]);
    await h.handler.idle();
    expect(
      h.sent.filter((m) => m.kind === 'response').map((m) => (m.kind === 'response' ? m.id : 0)),
    ).toEqual([201, 200]);
  });

  it('refuses another protocol version', async () => {
    const h = harness();
    h.handler.receive({ v: 99, kind: 'request', id: 7, type: 'hello', params: {} });
    await h.handler.idle();
    expect(h.sent[0]).toMatchObject({ id: 7, ok: false, error: { code: 'version' } });
  });
});

describe('exec output order through the protocol', () => {
  const LS_NOPE = "ls: cannot access '/nope': No such file or directory\n";

  it('carries both streams in write order, and the chunks survive structured cloning', async () => {
    const h = workerHarness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    const r = await h.request('exec', { line: 'echo a; ls /nope; echo b' });
    expect(structuredClone(r)).toEqual(r);
    expect(outputChunks(r)).toEqual([
      { stream: 'stdout', text: 'a\n' },
      { stream: 'stderr', text: LS_NOPE },
      { stream: 'stdout', text: 'b\n' },
    ]);
    expect([r.stdout, r.stderr]).toEqual(['a\nb\n', LS_NOPE]);
  });

  it("puts kubectl's API warning before its table", async () => {
    const h = workerHarness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' } });
    const r = await h.request('exec', { line: 'kubectl get endpoints' });
    expect(outputChunks(r).map((c) => c.stream)).toEqual(['stderr', 'stdout']);
    expect(outputChunks(r)[0]?.text).toMatch(/^Warning: v1 Endpoints is deprecated/);
  });

  it('reads an answer without chunks as stdout, then stderr', () => {
    const plain: ExecOutput = { stdout: 'out\n', stderr: 'err\n', exitCode: 1, prompt: '$ ' };
    expect(outputChunks(plain)).toEqual([
      { stream: 'stdout', text: 'out\n' },
      { stream: 'stderr', text: 'err\n' },
    ]);
    expect(outputChunks({ ...plain, stdout: '', stderr: '' })).toEqual([]);
  });
});
