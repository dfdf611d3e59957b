/**
 * The editing half of the terminal's readline, with no terminal in it: a line (possibly several, for
 * heredocs and pastes), a cursor, the kill buffer and the history walk. Emacs key bindings as bash
 * has them. Pure, so it is tested without a browser.
 */

const isWordChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);

export class LineEditor {
  text = '';
  cursor = 0;
  private killed = '';
  /** Position in history while walking it; history.length = the line being edited. */
  private index: number;
  private draft = '';

  constructor(public history: string[] = []) {
    this.index = history.length;
  }

  reset(): void {
    this.text = '';
    this.cursor = 0;
    this.index = this.history.length;
    this.draft = '';
  }

  set(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = Math.max(0, Math.min(cursor, text.length));
  }

  insert(s: string): void {
    this.set(this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor), this.cursor + s.length);
  }

  /** Replaces [from, to) and puts the cursor after the replacement. */
  replace(from: number, to: number, s: string): void {
    this.set(this.text.slice(0, from) + s + this.text.slice(to), from + s.length);
  }

  backspace(): void {
    if (this.cursor > 0) this.replace(this.cursor - 1, this.cursor, '');
  }

  deleteForward(): void {
    if (this.cursor < this.text.length)
      this.set(this.text.slice(0, this.cursor) + this.text.slice(this.cursor + 1), this.cursor);
  }

  left(): void {
    this.cursor = Math.max(0, this.cursor - 1);
  }

  right(): void {
    this.cursor = Math.min(this.text.length, this.cursor + 1);
  }

  /** Ctrl+A / Home: start of the current line (of a multi-line text). */
  home(): void {
    this.cursor = this.text.lastIndexOf('\n', this.cursor - 1) + 1;
  }

  /** Ctrl+E / End. */
  end(): void {
    const nl = this.text.indexOf('\n', this.cursor);
    this.cursor = nl === -1 ? this.text.length : nl;
  }

  wordLeft(): void {
    let i = this.cursor;
    while (i > 0 && !isWordChar(this.text[i - 1])) i--;
    while (i > 0 && isWordChar(this.text[i - 1])) i--;
    this.cursor = i;
  }

  wordRight(): void {
    let i = this.cursor;
    while (i < this.text.length && !isWordChar(this.text[i])) i++;
    while (i < this.text.length && isWordChar(this.text[i])) i++;
    this.cursor = i;
  }

  /** Ctrl+U: kill from the start of the line to the cursor. */
  killToStart(): void {
    const start = this.text.lastIndexOf('\n', this.cursor - 1) + 1;
    this.killed = this.text.slice(start, this.cursor);
    this.replace(start, this.cursor, '');
  }

  /** Ctrl+K: kill from the cursor to the end of the line. */
  killToEnd(): void {
    const nl = this.text.indexOf('\n', this.cursor);
    const end = nl === -1 ? this.text.length : nl;
    this.killed = this.text.slice(this.cursor, end);
    this.replace(this.cursor, end, '');
  }

  /** Ctrl+W: kill the whitespace-delimited word before the cursor (bash's unix-word-rubout). */
  killWordBack(): void {
    let i = this.cursor;
    while (i > 0 && /\s/.test(this.text[i - 1]!)) i--;
    while (i > 0 && !/\s/.test(this.text[i - 1]!)) i--;
    this.killed = this.text.slice(i, this.cursor);
    this.replace(i, this.cursor, '');
  }

  /** Ctrl+Y: yank the last kill. */
  yank(): void {
    if (this.killed) this.insert(this.killed);
  }

  /** Up: the previous history entry (the edited line is kept as a draft). */
  previous(): boolean {
    if (this.index === 0) return false;
    if (this.index === this.history.length) this.draft = this.text;
    this.index--;
    this.set(this.history[this.index] ?? '');
    return true;
  }

  /** Down: the next history entry, then back to the draft. */
  next(): boolean {
    if (this.index >= this.history.length) return false;
    this.index++;
    this.set(this.index === this.history.length ? this.draft : (this.history[this.index] ?? ''));
    return true;
  }

  /** Records an accepted line (bash's HISTCONTROL=ignoreboth: no blanks, no immediate repeats). */
  remember(line: string, max = 1000): void {
    const entry = line.replace(/\n+$/, '');
    if (entry.trim() !== '' && !/^\s/.test(entry) && this.history[this.history.length - 1] !== entry) {
      this.history.push(entry);
      if (this.history.length > max) this.history.splice(0, this.history.length - max);
    }
    this.index = this.history.length;
  }
}

/** The longest common prefix of some strings. */
export function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0]!;
  for (const w of words) {
    let i = 0;
    while (i < prefix.length && i < w.length && prefix[i] === w[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}

/** Where each offset of a (multi-line) input lands on screen, given the prompt widths and the columns. */
export function layout(
  text: string,
  promptWidth: number,
  continuationWidth: number,
  cols: number,
): { position(offset: number): { row: number; col: number }; rows: number } {
  const lines = text.split('\n');
  const starts: number[] = [];
  let row = 0;
  let offset = 0;
  const lineRow: number[] = [];
  lines.forEach((line, i) => {
    starts.push(offset);
    lineRow.push(row);
    const width = (i === 0 ? promptWidth : continuationWidth) + line.length;
    row += i === lines.length - 1 ? Math.floor(width / cols) + 1 : Math.max(1, Math.ceil(width / cols));
    offset += line.length + 1;
  });
  return {
    rows: row,
    position(at: number) {
      let i = lines.length - 1;
      while (i > 0 && starts[i]! > at) i--;
      const x = (i === 0 ? promptWidth : continuationWidth) + (at - starts[i]!);
      return { row: lineRow[i]! + Math.floor(x / cols), col: x % cols };
    },
  };
}

/** Lays candidates out in columns, as bash lists completions. */
export function columns(words: readonly string[], width: number): string {
  const cell = Math.max(...words.map((w) => w.length)) + 2;
  const perRow = Math.max(1, Math.floor(width / cell));
  const rows = Math.ceil(words.length / perRow);
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = '';
    for (let c = 0; c < perRow; c++) {
      const w = words[c * rows + r];
      if (w !== undefined) line += w.padEnd(cell);
    }
    out.push(line.trimEnd());
  }
  return out.join('\n');
}

/**
 * Makes text from the engine safe to write to the terminal: it may carry names a learner typed
 * (`kubectl create ns $'\e]0;x\a'`), and xterm would obey escape sequences in them. Control
 * characters other than newline and tab are shown in caret notation (`^[`), as `cat -v` does. Colours
 * (SGR, `ESC [ … m`) pass: they only style text, and a file or log that carries them shows as it would
 * in a real terminal; cursor, screen, title, clipboard and hyperlink sequences never do.
 */
export function neutralise(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]{0,32}m|[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g, (c) => {
    if (c.length > 1) return c;
    const code = c.charCodeAt(0);
    if (c === '\r') return '';
    if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
    if (code === 0x7f) return '^?';
    return `M-^${String.fromCharCode(code - 0x80 + 64)}`;
  });
}

/**
 * A filter for the WebContainer's pty stream, which needs its cursor and screen controls (the shell
 * there edits lines itself) but never the string sequences: OSC (title changes, OSC 8 hyperlinks,
 * OSC 52 clipboard writes), DCS, SOS, PM and APC, 7-bit or C1. Those are dropped whole, even when a
 * sequence is split across chunks (the filter keeps its state between calls).
 */
export function createPtyFilter(): (chunk: string) => string {
  // 'text', 'esc' (after ESC), 'string' (inside a string sequence), 'string-esc' (ESC inside one).
  let state: 'text' | 'esc' | 'string' | 'string-esc' = 'text';
  const starts = new Set([']', 'P', 'X', '^', '_']);
  const c1Starts = new Set(['\x9d', '\x90', '\x98', '\x9e', '\x9f']);
  return (chunk) => {
    let out = '';
    for (const ch of chunk) {
      switch (state) {
        case 'text':
          if (ch === '\x1b') state = 'esc';
          else if (c1Starts.has(ch)) state = 'string';
          else out += ch;
          break;
        case 'esc':
          if (starts.has(ch)) state = 'string';
          else {
            out += '\x1b' + ch;
            state = 'text';
          }
          break;
        case 'string':
          // BEL or ST (ESC \ or C1 0x9c) ends it; a string may not span forever, CAN/SUB abort it.
          if (ch === '\x07' || ch === '\x9c' || ch === '\x18' || ch === '\x1a') state = 'text';
          else if (ch === '\x1b') state = 'string-esc';
          break;
        case 'string-esc':
          state = ch === '\\' ? 'text' : 'string';
          break;
      }
    }
    return out;
  };
}
