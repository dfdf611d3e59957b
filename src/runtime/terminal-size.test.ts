// The lab terminal's size through the worker protocol: `resize` reaches the shell as a pty's winsize
// (`$COLUMNS`, `stty size`, `tput cols`), a restored lab takes the size sent again, and kubectl prints
// the same whatever the width. Real kubectl v1.35 does the same: under a 60- and a 200-column pty
// (`script -qc "stty cols N; kubectl get --help"`) its help is byte-identical, option descriptions on
// one tab-indented line of up to 422 characters, and `get` never cuts a table to the terminal.
import { describe, expect, it } from 'vitest';
import { workerHarness } from './test-host.ts';

async function sandbox() {
  const h = workerHarness();
  await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' }, seed: 1 });
  return h;
}

describe('resize', () => {
  it(
    'reaches the shell: COLUMNS, stty size and tput cols answer the size sent',
    { timeout: 60_000 },
    async () => {
      const h = await sandbox();
      await h.request('resize', { cols: 132, rows: 41 });
      const r = await h.request('exec', { line: 'echo "$COLUMNS $LINES"; stty size; tput cols' });
      expect(r.stdout).toBe('132 41\n41 132\n132\n');
      await h.request('resize', { cols: 85, rows: 30 });
      expect((await h.request('exec', { line: 'stty size' })).stdout).toBe('30 85\n');
    },
  );

  it('kubectl prints the same table and help at any width', { timeout: 60_000 }, async () => {
    // Two labs that see the same lines: only the terminal's width differs.
    const at = async (cols: number) => {
      const h = await sandbox();
      await h.request('resize', { cols, rows: 24 });
      const lines = [
        'kubectl create deployment web --image=nginx --replicas=2',
        'kubectl get pods -o wide',
        'kubectl get --help',
        'kubectl describe deployment web',
      ];
      const out: string[] = [];
      for (const line of lines) out.push((await h.request('exec', { line })).stdout);
      return out;
    };
    const narrow = await at(40);
    expect(await at(250)).toEqual(narrow);
    expect(narrow[1]).toMatch(
      /NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES/,
    );
  });

  it('ignores a size no terminal has', { timeout: 60_000 }, async () => {
    const h = await sandbox();
    await h.request('resize', { cols: 100, rows: 30 });
    await h.request('resize', { cols: 0, rows: 5000 });
    expect((await h.request('exec', { line: 'stty size' })).stdout).toBe('30 100\n');
  });
});
