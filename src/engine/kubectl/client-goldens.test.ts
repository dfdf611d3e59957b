/**
 * Replays the client-side cases captured from a real kubectl (testdata/client-goldens.json, written by
 * testdata/capture.mjs from kubectl v1.33.1 with no cluster). Only cases that never reach a server are
 * compared. Known differences of the target version (v1.35) are applied to the golden, not to our
 * output: a zero creationTimestamp is no longer printed (kubernetes#130989, v1.34).
 */
import { describe, expect, it } from 'vitest';
import goldens from './testdata/client-goldens.json' with { type: 'json' };
import { makeKubectl } from './test-helpers.ts';

interface Case {
  args: string[];
  stdout: string;
  stderr: string;
  exitCode: number;
}

function toV135(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/^\s*creationTimestamp: null$/.test(l))
    .join('\n')
    .replace(/,\n(\s*)"creationTimestamp": null/g, '')
    .replace(/"creationTimestamp": null,\n\s*/g, '')
    .replace(/kubectl\.1\.33/g, 'kubectl');
}

const cases = (goldens.cases as Case[]).filter(
  (c) =>
    !/connection to the server|current-context is not set/.test(c.stderr) &&
    c.args[0] !== 'version' &&
    !(c.args[0] === 'config'),
);

describe('client-side behaviour matches the real kubectl', () => {
  it.each(cases.map((c) => ({ name: c.args.join(' '), ...c })))('kubectl $name', (c) => {
    const k = makeKubectl();
    const r = k.run(c.args.map((a) => (a.includes(' ') ? `'${a}'` : a)).join(' '));
    expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual({
      stdout: toV135(c.stdout),
      stderr: toV135(c.stderr),
      exitCode: c.exitCode,
    });
  });
});
