/**
 * Hostile input: `__proto__`, `constructor` and `prototype` keys in manifests, labels, annotations, data
 * and flags. No prototype pollution, and where the real API server accepts such a key (a ConfigMap data
 * key matches `[-._a-zA-Z0-9]+`; a label key must start with an alphanumeric, so `__proto__` is refused
 * but `constructor` is fine) it round-trips as data. Each case was a defect found by the fuzz suite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createCluster, type Cluster } from '../../src/engine/index.ts';
import { engine, openSession, parseReport, regradeReport, ReportError } from '../../src/grader/index.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';

function cluster(files: Record<string, string> = {}): Cluster {
  return createCluster(undefined, { seed: 1, files });
}

function polluted(): unknown {
  return (Object.prototype as Record<string, unknown>).polluted ?? ({} as Record<string, unknown>).polluted;
}

afterEach(() => {
  expect(polluted()).toBeUndefined();
});

describe('prototype keys in manifests', () => {
  it('a ConfigMap data key named __proto__ is stored and printed as data (-o yaml, -o json)', () => {
    const c = cluster({
      'cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\ndata: {__proto__: a, constructor: b}\n',
    });
    expect(c.execSync('kubectl create -f cm.yaml').stdout).toBe('configmap/d created\n');
    expect(c.execSync('kubectl get cm d -o yaml').stdout).toContain(
      'data:\n  __proto__: a\n  constructor: b\n',
    );
    const json = JSON.parse(c.execSync('kubectl get cm d -o json').stdout) as { data: object };
    expect(Object.keys(json.data)).toEqual(['__proto__', 'constructor']);
  });

  it('kubectl create configmap --from-literal=__proto__=x keeps the key', () => {
    const c = cluster();
    expect(c.execSync('kubectl create cm f --from-literal=__proto__=x').exitCode).toBe(0);
    expect(c.execSync("kubectl get cm f -o jsonpath='{.data}'").stdout).toBe('{"__proto__":"x"}');
  });

  it('apply twice with constructor/__proto__/valueOf keys merges them as data, last-applied included', () => {
    const c = cluster({
      'a.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata: {__proto__: a, constructor: b}\n',
    });
    expect(c.execSync('kubectl apply -f a.yaml').stdout).toBe('configmap/ap created\n');
    c.files.write(
      'a.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap\ndata: {__proto__: a2, constructor: b2, valueOf: c}\n',
    );
    expect(c.execSync('kubectl apply -f a.yaml').stdout).toBe('configmap/ap configured\n');
    const out = c.execSync('kubectl get cm ap -o yaml').stdout;
    expect(out).toContain('data:\n  __proto__: a2\n  constructor: b2\n  valueOf: c\n');
    expect(out).toContain('"data":{"__proto__":"a2","constructor":"b2","valueOf":"c"}');
  });

  it('a label key __proto__ is refused like the API server does; constructor is a valid key', () => {
    const c = cluster({
      'p.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p\n  labels: {__proto__: x}\n',
      'q.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: q\n  labels: {constructor: "1"}\n',
    });
    expect(c.execSync('kubectl apply -f p.yaml').stderr).toMatch(
      /^The ConfigMap "p" is invalid: metadata.labels: Invalid value: "__proto__": name part must consist of/,
    );
    expect(c.execSync('kubectl apply -f q.yaml').exitCode).toBe(0);
    expect(c.execSync('kubectl get cm q --show-labels --no-headers').stdout).toMatch(/constructor=1\n$/);
  });

  it('top-level __proto__/constructor fields are unknown fields (strict decoding), not prototypes', () => {
    const c = cluster({
      'f.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: f\n__proto__: {polluted: yes}\nconstructor: {prototype: {polluted: yes}}\n',
    });
    expect(c.execSync('kubectl apply -f f.yaml').stderr).toBe(
      'Error from server (BadRequest): error when creating "f.yaml": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "__proto__", unknown field "constructor"\n',
    );
  });
});

describe('prototype keys in kubectl label/annotate', () => {
  it('removing a label named like an Object.prototype member is not "modify and remove"', () => {
    const c = cluster();
    c.execSync('kubectl create cm e --from-literal=a=b');
    expect(c.execSync('kubectl label cm e constructor-')).toEqual({
      stdout: 'label "constructor" not found.\nconfigmap/e not labeled\n',
      stderr: '',
      exitCode: 0,
    });
    expect(c.execSync('kubectl annotate cm e valueOf-')).toMatchObject({ exitCode: 0, stderr: '' });
  });

  it('setting label constructor= does not see Object.prototype.constructor as an existing value', () => {
    const c = cluster();
    c.execSync('kubectl create cm e --from-literal=a=b');
    expect(c.execSync('kubectl label cm e constructor=x')).toEqual({
      stdout: 'configmap/e labeled\n',
      stderr: '',
      exitCode: 0,
    });
  });
});

describe('prototype keys in annotations, grade reports', () => {
  it('annotations named constructor and prototype round-trip as data', () => {
    const c = cluster();
    c.execSync('kubectl create cm e --from-literal=a=b');
    expect(c.execSync('kubectl annotate cm e constructor=x prototype=y').exitCode).toBe(0);
    expect(c.execSync("kubectl get cm e -o jsonpath='{.metadata.annotations}'").stdout).toBe(
      '{"constructor":"x","prototype":"y"}',
    );
  });

  it('a learner file named __proto__ survives the report round trip: an honest report is not flagged', () => {
    const loaded = loadLabFromDir(join(import.meta.dirname, '../../labs/00-sandbox'));
    const s = openSession(loaded);
    s.writeFile('__proto__', 'a');
    s.writeFile('constructor', 'b');
    s.solve();
    const r = s.report({
      locale: 'en',
      startedAt: '2026-11-29T10:00:00Z',
      submittedAt: '2026-11-29T10:00:00Z',
    });
    const back = parseReport(JSON.stringify(r));
    expect(Object.keys(back.submission.files).sort()).toEqual(Object.keys(r.submission.files).sort());
    expect(back.submission.files['__proto__']).toBe('a');
    expect(regradeReport(loaded, back, { engine }).flags).toEqual([]);
  });

  it("prototype keys in a report's answers, results and snapshot pollute nothing", () => {
    const text =
      '{"format":"packetpath-grade-report","version":1,"__proto__":{"polluted":1},' +
      '"lab":{"id":"x","version":1,"contentHash":"h","constructor":{"prototype":{"polluted":1}}},' +
      '"locale":"en","startedAt":"2026-11-29T10:00:00Z","submittedAt":"2026-11-29T10:00:00Z",' +
      '"score":{"passed":0,"total":0,"percent":0},"results":[],' +
      '"submission":{"journal":[],"files":{},"quizAnswers":{"__proto__":["polluted"]},"snapshot":{"__proto__":{"polluted":1}}}}';
    expect(() => parseReport(text)).toThrow(ReportError);
  });
});
