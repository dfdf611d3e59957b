#!/usr/bin/env node
/**
 * Captures terminal-size.json, the goldens of terminal-size.test.ts: each line run by Debian's bash
 * (interactive, checkwinsize), coreutils' stty and ncurses' tput on a real pty (util-linux `script`)
 * sized 132 columns × 40 rows, TERM=xterm-256color; stdout and stderr as the terminal shows them.
 *
 *   node src/engine/shell/testdata/capture-terminal-size.mjs
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LINES = [
  'echo "$COLUMNS x $LINES"',
  'stty size',
  'tput cols; tput lines',
  'echo "$(tput cols) $(stty size)"',
  'stty size | cat',
  'echo x | stty size; echo "status $?"',
  'stty size < /dev/null; echo "status $?"',
  'tput cols > cols.txt; cat cols.txt',
  'tput lines 2>/dev/null > lines.txt; cat lines.txt',
  'env | grep -c COLUMNS',
  'COLUMNS=50 tput cols',
  'tput -T xterm-256color cols',
  'tput colors; tput -T xterm colors',
  'tput foo; echo "status $?"',
  'tput; echo "status $?"',
  'TERM= tput cols; echo "status $?"',
  'tput -T vt999 cols; echo "status $?"',
  'stty',
  'stty -a',
  'stty -echo; echo "status $?"; stty echo',
  'stty bogus; echo "status $?"',
  'stty size -a; echo "status $?"',
];

const dir = mkdtempSync(join(tmpdir(), 'pp-term-'));
const cases = [];
try {
  for (const line of LINES) {
    const script = join(dir, 'case.sh');
    writeFileSync(script, `stty cols 132 rows 40\ncd ${JSON.stringify(dir)}\n${line}\n`);
    const out = execFileSync('script', ['-qc', `bash --norc --noprofile -i ${script}`, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: dir, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      encoding: 'utf8',
    });
    cases.push({ line, output: out.replace(/\r\n/g, '\n') });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(
  new URL('./terminal-size.json', import.meta.url),
  JSON.stringify({ cols: 132, rows: 40, cases }, null, 2) + '\n',
);
console.log(`${cases.length} cases`);
