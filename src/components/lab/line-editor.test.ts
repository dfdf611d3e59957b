import { describe, expect, it } from 'vitest';
import { LineEditor, columns, commonPrefix, layout, neutralise } from './line-editor.ts';

const at = (text: string, cursor = text.length) => {
  const e = new LineEditor();
  e.set(text, cursor);
  return e;
};

describe('LineEditor (bash emacs bindings)', () => {
  it.each([
    {
      name: 'Ctrl+A',
      op: (e: LineEditor) => e.home(),
      text: 'kubectl get',
      cursor: 5,
      want: ['kubectl get', 0],
    },
    {
      name: 'Ctrl+E',
      op: (e: LineEditor) => e.end(),
      text: 'kubectl get',
      cursor: 2,
      want: ['kubectl get', 11],
    },
    {
      name: 'Ctrl+U',
      op: (e: LineEditor) => e.killToStart(),
      text: 'kubectl get pods',
      cursor: 12,
      want: ['pods', 0],
    },
    {
      name: 'Ctrl+K',
      op: (e: LineEditor) => e.killToEnd(),
      text: 'kubectl get pods',
      cursor: 7,
      want: ['kubectl', 7],
    },
    {
      name: 'Ctrl+W',
      op: (e: LineEditor) => e.killWordBack(),
      text: 'kubectl get pods -o wide',
      cursor: 24,
      want: ['kubectl get pods -o ', 20],
    },
    {
      name: 'Ctrl+W over spaces',
      op: (e: LineEditor) => e.killWordBack(),
      text: 'kubectl get  ',
      cursor: 13,
      want: ['kubectl ', 8],
    },
    {
      name: 'Alt+B',
      op: (e: LineEditor) => e.wordLeft(),
      text: 'kubectl get-pods',
      cursor: 16,
      want: ['kubectl get-pods', 12],
    },
    {
      name: 'Alt+F',
      op: (e: LineEditor) => e.wordRight(),
      text: 'kubectl get',
      cursor: 0,
      want: ['kubectl get', 7],
    },
    { name: 'Backspace', op: (e: LineEditor) => e.backspace(), text: 'abc', cursor: 2, want: ['ac', 1] },
    { name: 'Delete', op: (e: LineEditor) => e.deleteForward(), text: 'abc', cursor: 1, want: ['ac', 1] },
    {
      name: 'Home on a continuation line',
      op: (e: LineEditor) => e.home(),
      text: 'cat <<EOF\nhello',
      cursor: 13,
      want: ['cat <<EOF\nhello', 10],
    },
  ])('$name', ({ op, text, cursor, want }) => {
    const e = at(text, cursor);
    op(e);
    expect([e.text, e.cursor]).toEqual(want);
  });

  it('yanks what Ctrl+K killed', () => {
    const e = at('kubectl get pods', 7);
    e.killToEnd();
    e.end();
    e.yank();
    expect(e.text).toBe('kubectl get pods');
  });

  it('walks the history and comes back to the draft', () => {
    const e = new LineEditor(['kubectl get nodes', 'kubectl get pods']);
    e.insert('kub');
    expect(e.previous()).toBe(true);
    expect(e.text).toBe('kubectl get pods');
    e.previous();
    expect(e.text).toBe('kubectl get nodes');
    expect(e.previous()).toBe(false);
    e.next();
    e.next();
    expect(e.text).toBe('kub');
    expect(e.next()).toBe(false);
  });

  it('remembers like HISTCONTROL=ignoreboth', () => {
    const e = new LineEditor();
    for (const l of ['ls', 'ls', '   ', ' secret', 'cat <<EOF\nx\nEOF\n']) e.remember(l);
    expect(e.history).toEqual(['ls', 'cat <<EOF\nx\nEOF']);
  });
});

describe('layout', () => {
  it('wraps at the column count and places continuation lines after "> "', () => {
    const g = layout('abcdef\nxy', 4, 2, 8);
    expect(g.position(0)).toEqual({ row: 0, col: 4 });
    expect(g.position(4)).toEqual({ row: 1, col: 0 });
    expect(g.position(7)).toEqual({ row: 2, col: 2 });
    expect(g.rows).toBe(3);
  });

  it('puts the cursor on the next row when the text fills the last one exactly', () => {
    expect(layout('abcd', 4, 2, 8).position(4)).toEqual({ row: 1, col: 0 });
  });
});

describe('helpers', () => {
  it('finds the common prefix of completions', () => {
    expect(commonPrefix(['deploy', 'deployment', 'deployments'])).toBe('deploy');
    expect(commonPrefix([])).toBe('');
  });

  it('lays candidates out in columns, down then across', () => {
    expect(columns(['a', 'bb', 'c', 'd'], 8)).toBe('a   c\nbb  d');
  });

  it('neutralises escape sequences and control characters from engine output', () => {
    expect(neutralise('web\x1b]0;pwned\x07 ok\x1b[31mred\r\n')).toBe('web^[]0;pwned^G ok\x1b[31mred\n');
    expect(neutralise('tab\tand\nnewline')).toBe('tab\tand\nnewline');
    expect(neutralise('\x9b31m')).toBe('M-^[31m');
  });
});
