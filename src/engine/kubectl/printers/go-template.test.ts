/**
 * `-o go-template=…` against kubectl v1.35: every case of testdata/go-template-goldens.json was
 * captured from the real binary (client-side `create deployment --dry-run=client`, no cluster) by
 * scripts/capture-go-template-goldens.mjs.
 */
import { describe, expect, it } from 'vitest';
import goldens from '../testdata/go-template-goldens.json' with { type: 'json' };
import { makeKubectl } from '../test-helpers.ts';

interface Case {
  template: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

describe('kubectl -o go-template (text/template + kubectl funcs, v1.35 goldens)', () => {
  it.each((goldens.cases as Case[]).map((c) => ({ name: c.template, ...c })))('$name', (c) => {
    const r = makeKubectl().run(
      `create deployment web --image=nginx --replicas=2 --dry-run=client -o 'go-template=${c.template.replace(/'/g, `'"'"'`)}'`,
    );
    expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual({
      stdout: c.stdout,
      stderr: c.stderr,
      exitCode: c.exitCode,
    });
  });

  it('-o template= is the same printer; lists print once for all items', () => {
    const k = makeKubectl();
    expect(k.run(`create cm x --dry-run=client -o template='{{.kind}}'`).stdout).toBe('ConfigMap');
    k.run('create cm a');
    k.run('create cm b');
    expect(k.run(`get cm -o go-template='{{.kind}}:{{range .items}}{{.metadata.name}} {{end}}'`).stdout).toBe(
      'List:a b ',
    );
  });

  it('an empty template is the generic printer error', () => {
    expect(makeKubectl().run('create cm x --dry-run=client -o go-template=').stderr).toBe(
      'error: template format specified but no template given\n',
    );
  });
});
