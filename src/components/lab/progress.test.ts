import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPORT_FORMAT, PROGRESS_VERSION, buildExport, classify, parseExport, salvage } from './progress.ts';

const good = {
  version: PROGRESS_VERSION,
  labId: '00-sandbox',
  labVersion: 1,
  files: { 'web.yaml': 'kind: Deployment\n' },
  state: {
    snapshot: { format: 'packetpath-cluster' },
    journal: [{ run: 'kubectl get pods' }],
    quizAnswers: {},
    startedAt: '',
  },
  history: ['kubectl get pods'],
  checks: null,
  hintLevel: 1,
  updatedAt: '2026-11-29T00:00:00Z',
  rev: 3,
};

describe('classify', () => {
  it.each([
    { name: 'nothing stored', raw: undefined, kind: 'none' },
    { name: 'a current record', raw: good, kind: 'ok' },
    { name: 'a record for another lab', raw: { ...good, labId: 'x' }, kind: 'old' },
    {
      name: 'a record from a newer version',
      raw: { ...good, version: PROGRESS_VERSION + 1 },
      kind: 'corrupt',
    },
    {
      name: 'an older record with files and commands',
      raw: { version: 0, files: { 'a.yaml': 'x' }, commands: ['ls'] },
      kind: 'old',
    },
    { name: 'an unversioned record with history', raw: { history: ['kubectl get pods'] }, kind: 'old' },
    { name: 'a damaged current record', raw: { ...good, state: 'garbage', hintLevel: 'x' }, kind: 'old' },
    { name: 'a current record without its rev', raw: { ...good, rev: undefined }, kind: 'old' },
    { name: 'a string', raw: 'garbage', kind: 'corrupt' },
    { name: 'an empty object', raw: {}, kind: 'corrupt' },
  ])('$name → $kind', ({ raw, kind }) => {
    expect(classify(raw, '00-sandbox').kind).toBe(kind);
  });

  it('keeps a salvageable record’s journal for the replay', () => {
    const s = classify({ ...good, hintLevel: 'x' }, '00-sandbox');
    expect(s).toMatchObject({ kind: 'old', journal: [{ run: 'kubectl get pods' }] });
  });
});

describe('salvage', () => {
  it('turns files and command lines into a journal when there is none', () => {
    expect(salvage({ files: { 'a.yaml': 'x' }, history: ['kubectl apply -f a.yaml'] })).toEqual({
      journal: [{ write: 'a.yaml', content: 'x' }, { run: 'kubectl apply -f a.yaml' }],
      history: ['kubectl apply -f a.yaml'],
    });
  });
});

describe('export and import', () => {
  it('round-trips every record', () => {
    const file = buildExport([good], new Date('2026-11-29T10:00:00Z'));
    expect(file).toMatchObject({
      format: EXPORT_FORMAT,
      version: PROGRESS_VERSION,
      exportedAt: '2026-11-29T10:00:00.000Z',
    });
    expect(parseExport(JSON.stringify(file))).toEqual([{ labId: '00-sandbox', record: good }]);
  });

  it.each([
    { name: 'not JSON', text: '{', error: 'not JSON' },
    { name: 'another format', text: '{"format":"x","labs":[]}', error: 'not a progress file' },
    {
      name: 'a newer version',
      text: JSON.stringify({ format: EXPORT_FORMAT, version: 99, labs: [] }),
      error: 'made by a newer version',
    },
  ])('rejects $name', ({ text, error }) => {
    expect(() => parseExport(text)).toThrow(error);
  });
});

describe('migrations: every older record version, from fixtures', () => {
  const fixture = (name: string): unknown =>
    JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')) as unknown;

  it('version 1 (no rev) migrates as it is: every field kept, rev 0', () => {
    const raw = fixture('progress-v1.json') as Record<string, unknown>;
    const s = classify(raw, '00-sandbox');
    if (s.kind !== 'ok') throw new Error(`expected ok, got ${s.kind}`);
    expect(s.progress).toEqual({ ...raw, version: PROGRESS_VERSION, rev: 0 });
  });

  it.each(['progress-v0.json', 'progress-unversioned.json'])(
    '%s (files and commands only) is replayed: files written first, then its commands',
    (name) => {
      const s = classify(fixture(name), '00-sandbox');
      if (s.kind !== 'old') throw new Error(`expected old, got ${s.kind}`);
      expect(s.journal[0]).toEqual({
        write: 'web.yaml',
        content: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n',
      });
      expect(s.journal.slice(1)).toEqual(s.history.map((run) => ({ run })));
      expect(s.history[0]).toBe('kubectl apply -f web.yaml');
    },
  );

  it('an export made by version 1 still imports, and its records migrate', () => {
    const v1 = fixture('progress-v1.json');
    const file = JSON.stringify({ format: EXPORT_FORMAT, version: 1, exportedAt: '', labs: [v1] });
    const [entry] = parseExport(file);
    expect(classify(entry?.record, '00-sandbox').kind).toBe('ok');
  });
});
