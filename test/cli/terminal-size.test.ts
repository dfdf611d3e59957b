/**
 * `packetpath shell` on a real terminal (a pty from util-linux `script`, sized 97×33): the shell knows
 * the terminal's size as bash would (`$COLUMNS`), and `stty size` and `tput cols` answer it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const NODE = existsSync(join(ROOT, 'node_modules/.bin/node'))
  ? join(ROOT, 'node_modules/.bin/node')
  : process.execPath;
const SCRIPT = '/usr/bin/script';

describe.skipIf(!existsSync(SCRIPT))('packetpath shell on a pty', () => {
  it('reports the terminal size to the shell', { timeout: 60_000 }, async () => {
    const child = spawn(
      SCRIPT,
      ['-qc', `stty cols 97 rows 33; ${NODE} ${join(ROOT, 'bin/packetpath.mjs')} shell`, '/dev/null'],
      { env: { ...process.env, TERM: 'xterm' } },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const until = async (re: RegExp) => {
      const deadline = Date.now() + 45_000;
      while (!re.test(out.replace(/\r/g, ''))) {
        if (Date.now() > deadline) throw new Error(`never saw ${re}: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(/learner@packetpath:~\$ /);
    child.stdin.write('stty size; tput cols; echo "c=$COLUMNS"\n');
    await until(/^c=\d+$/m);
    child.stdin.write('exit\n');
    child.stdin.end();
    await new Promise((r) => child.on('close', r));
    const lines = out.replace(/\r/g, '').split('\n');
    expect(lines).toContain('33 97');
    expect(lines).toContain('97');
    expect(lines).toContain('c=97');
  });
});
