/**
 * The terminal's size as the shell reports it: bash's COLUMNS/LINES, `stty`, `tput`. Goldens from
 * Debian's bash, coreutils and ncurses on a real pty (testdata/capture-terminal-size.mjs).
 */
import { describe, expect, it } from 'vitest';
import goldens from './testdata/terminal-size.json' with { type: 'json' };
import { Shell } from './shell.ts';
import { LabFiles } from './lab-files.ts';

const shell = () => new Shell({ resolve: () => undefined, files: new LabFiles({}), tick: () => {} });

/** What the terminal shows: both streams in the order they were written. */
function shown(s: Shell, line: string): string {
  const r = s.run(line, { interactive: true });
  return r.output ? r.output.map((c) => c.text).join('') : r.stdout + r.stderr;
}

describe('a terminal of 132 × 40', () => {
  for (const { line, output } of goldens.cases)
    it(line, () => {
      const s = shell();
      s.setTerminalSize({ cols: goldens.cols, rows: goldens.rows });
      expect(shown(s, line)).toBe(output);
    });
});

describe('resizing', () => {
  it('updates COLUMNS, stty and tput at once', () => {
    const s = shell();
    s.setTerminalSize({ cols: 120, rows: 30 });
    expect(shown(s, 'echo $COLUMNS; stty size; tput cols')).toBe('120\n30 120\n120\n');
    s.setTerminalSize({ cols: 85, rows: 20 });
    expect(shown(s, 'echo $COLUMNS $LINES; tput lines')).toBe('85 20\n20\n');
  });

  it('a command substitution reads the stdin it is given, as in bash', () => {
    expect(shown(shell(), 'echo hi | { x=$(cat); echo "got $x"; }')).toBe('got hi\n');
  });

  it('ignores sizes no terminal has', () => {
    const s = shell();
    s.setTerminalSize({ cols: 100, rows: 30 });
    for (const bad of [0, -1, 1.5, Number.NaN, 100_000]) s.setTerminalSize({ cols: bad, rows: bad });
    expect(shown(s, 'stty size')).toBe('30 100\n');
  });

  it('before any size: no COLUMNS, tput falls back to terminfo, stty reads a 80×24 pty', () => {
    const s = shell();
    expect(shown(s, 'echo "[$COLUMNS]"; tput cols')).toBe('[]\n80\n');
  });

  it('without a terminal (a check runs the line): stty has none, tput answers terminfo', () => {
    const s = shell();
    s.setTerminalSize({ cols: 132, rows: 40 });
    const r = s.run('stty size; tput cols');
    expect(r.stderr).toBe("stty: 'standard input': Inappropriate ioctl for device\n");
    expect(r.stdout).toBe('80\n');
  });
});
