// cmi.suspend_data holds 4,096 characters in SCORM 1.2 (ADL SCORM 1.2 RTE, table 3.4.2: CMIString4096).
// A long session keeps what matters and says what it dropped; nothing is ever silently lost.
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { JournalStep } from '../protocol.ts';
import { decodeProgress, encodeProgress, filesAsSteps, SUSPEND_DATA_MAX } from './progress.ts';

/** Text that deflate cannot shrink much: a seeded pseudo-random hex string. */
function noise(chars: number, seed: number): string {
  let x = seed;
  let out = '';
  while (out.length < chars) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += x.toString(16).padStart(8, '0');
  }
  return out.slice(0, chars);
}

describe('SCORM progress in cmi.suspend_data', () => {
  it('keeps a short session whole, answers included', () => {
    const journal: JournalStep[] = [
      { write: 'a.yaml', content: 'x: 1\n' },
      { run: 'kubectl apply -f a.yaml' },
    ];
    const e = encodeProgress(
      { journal, quizAnswers: { q: ['b'] }, passed: [], files: { 'a.yaml': 'x: 1\n' }, startFiles: {} },
      ['c1'],
    );
    expect(e.kept).toBe('all');
    expect(e.text.length).toBeLessThanOrEqual(SUSPEND_DATA_MAX);
    expect(decodeProgress(e.text)).toEqual({ journal, quizAnswers: { q: ['b'] }, passed: [] });
  });

  it('keeps the files, answers and passed checks of a long session, and says the commands were dropped', () => {
    const journal: JournalStep[] = [
      { write: 'policy.yaml', content: 'v1\n' },
      ...Array.from({ length: 400 }, (_, i) => ({ run: `curl -s http://api/${noise(24, i)}` })),
      { write: 'policy.yaml', content: 'kind: NetworkPolicy\n' },
      { remove: 'old.yaml' },
    ];
    const e = encodeProgress(
      {
        journal,
        quizAnswers: { q: ['a'] },
        passed: [],
        // The files now: policy.yaml saved from the editor, out.txt written by a command, old.yaml removed.
        files: { 'policy.yaml': 'kind: NetworkPolicy\n', 'out.txt': 'hello\n' },
        startFiles: { 'policy.yaml': 'v1\n', 'old.yaml': 'x\n' },
      },
      ['traffic', 'looked'],
    );
    expect(e.kept).toBe('files');
    expect(e.text.length).toBeLessThanOrEqual(SUSPEND_DATA_MAX);
    expect(decodeProgress(e.text)).toEqual({
      journal: [
        { write: 'policy.yaml', content: 'kind: NetworkPolicy\n' },
        { write: 'out.txt', content: 'hello\n' },
        { remove: 'old.yaml' },
      ],
      quizAnswers: { q: ['a'] },
      passed: ['looked', 'traffic'],
    });
  });

  it('keeps the answers and passed checks when even the files do not fit', () => {
    const journal: JournalStep[] = [
      { write: 'big.yaml', content: noise(20_000, 7) },
      { run: 'kubectl apply -f big.yaml' },
    ];
    const files = { 'big.yaml': noise(20_000, 7) };
    const e = encodeProgress(
      { journal, quizAnswers: { q: ['a'] }, passed: ['earlier'], files, startFiles: {} },
      ['now'],
    );
    expect(e.kept).toBe('answers');
    expect(e.text.length).toBeLessThanOrEqual(SUSPEND_DATA_MAX);
    expect(decodeProgress(e.text)).toEqual({
      journal: [],
      quizAnswers: { q: ['a'] },
      passed: ['earlier', 'now'],
    });
  });

  it('carries checks passed in a trimmed session into the next save', () => {
    const e = encodeProgress(
      { journal: [{ run: 'ls' }], quizAnswers: {}, passed: ['earlier'], files: {}, startFiles: {} },
      [],
    );
    expect(e.kept).toBe('all');
    expect(decodeProgress(e.text)?.passed).toEqual(['earlier']);
  });

  it('reads the journal-only format of earlier packages, and nothing else', () => {
    // What packages before quiz answers wrote: the journal alone, deflated.
    const z1 = `z1:${btoa(String.fromCharCode(...deflateSync(strToU8('[{"run":"ls"}]'))))}`;
    expect(decodeProgress(z1)).toEqual({ journal: [{ run: 'ls' }], quizAnswers: {}, passed: [] });
    expect(decodeProgress('')).toBeUndefined();
    expect(decodeProgress('z2:not base64!')).toBeUndefined();
    expect(decodeProgress('something an LMS put there')).toBeUndefined();
  });

  it('turns the files into steps from the start files: added, changed, removed', () => {
    expect(filesAsSteps({ a: '1', b: 'same', c: 'new' }, { a: '0', b: 'same', gone: 'x' })).toEqual([
      { write: 'a', content: '1' },
      { write: 'c', content: 'new' },
      { remove: 'gone' },
    ]);
  });
});
