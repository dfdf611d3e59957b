/**
 * Readline on xterm.js: xterm only renders and reports keystrokes, so echo, editing, history, Tab
 * completion and pastes happen here. Each keystroke edits the LineEditor and redraws the input from
 * the prompt down; output from the host is neutralised before it is written.
 *
 * Keys: ←/→, Home/End, Ctrl+A/E/B/F, Alt+B/F (words), Backspace, Delete, Ctrl+D (delete, or `exit` on
 * an empty line), Ctrl+U/K/W/Y, Ctrl+C (abandon the line or stop waiting for a command), Ctrl+L
 * (clear), ↑/↓ (history), Tab (complete; twice lists the candidates), Enter (run, or continue an
 * incomplete line with `> `). Pastes arrive bracketed and are inserted whole; a paste that ends with a
 * newline runs as one block. Escape then Tab leaves the terminal (Tab alone completes).
 */
import type { Terminal } from '@xterm/xterm';
import type { Completion } from '../../runtime/protocol';
import { LineEditor, columns, commonPrefix, layout, neutralise } from './line-editor';

export interface ReadlineHost {
  complete(line: string, cursor: number): Promise<Completion>;
  incomplete(text: string): Promise<boolean>;
  /** Runs an accepted line; resolves when its output has been written. The signal fires on Ctrl+C. */
  run(text: string, signal: AbortSignal): Promise<void>;
  historyChanged(history: readonly string[]): void;
}

const CONTINUATION = '> ';

/** Colours our own prompt (bash's default Debian PS1 colours); the text itself is neutralised. */
export function colourPrompt(prompt: string): string {
  const safe = neutralise(prompt);
  const m = /^([^@\s]+@[^:\s]+):([^$#]*)([$#] ?)$/.exec(safe);
  if (!m) return safe;
  return `\x1b[1;32m${m[1]}\x1b[0m:\x1b[1;34m${m[2]}\x1b[0m${m[3]}`;
}

export class Readline {
  readonly editor: LineEditor;
  private prompt = '$ ';
  private promptText = '$ ';
  /** Row of the cursor, counted from the prompt's row, after the last redraw. */
  private cursorRow = 0;
  private active = false;
  private busy: AbortController | undefined;
  private chain: Promise<void> = Promise.resolve();
  private lastKeyWasTab = false;
  private escapePending = false;
  private pasting: string | undefined;
  /** Set while a pty host (WebContainer `jsh`) does its own line editing: keystrokes go straight to it. */
  private passthrough: ((data: string) => void) | undefined;

  constructor(
    private readonly term: Terminal,
    private readonly host: ReadlineHost,
    history: string[] = [],
  ) {
    this.editor = new LineEditor(history);
    term.attachCustomKeyEventHandler((event) => this.keyFilter(event));
    term.onData((data) => this.receive(data));
    // Bracketed paste: pastes arrive between ESC[200~ and ESC[201~, so they are never taken for typing.
    term.write('\x1b[?2004h');
  }

  setPrompt(prompt: string): void {
    this.promptText = neutralise(prompt);
    this.prompt = colourPrompt(prompt);
  }

  /** Shows the prompt and starts taking input. */
  start(): void {
    this.editor.reset();
    this.cursorRow = 0;
    this.active = true;
    this.render();
  }

  /** Whether the prompt is up and accepting input (tests and the bench wait for it). */
  get ready(): boolean {
    return this.active && this.busy === undefined;
  }

  /** Writes host output (already text) safely. */
  print(text: string): void {
    if (text) this.term.write(neutralise(text).replace(/\n/g, '\r\n'));
  }

  /**
   * Prints a notice (the watchdog's) without losing the input being typed: below the input, then a
   * fresh prompt with the same text and cursor, as bash prints a job notice. While a command runs
   * the notice is just output; the prompt comes back when the command ends.
   */
  notify(text: string): void {
    const body = text.endsWith('\n') ? text : text + '\n';
    if (!this.active || this.busy) {
      this.print(body);
      return;
    }
    this.moveToEnd();
    this.term.write('\r\n');
    this.print(body);
    this.cursorRow = 0;
    this.render();
  }

  /** Types a line as if the learner had (the Solution button uses it) and runs it. */
  async submit(line: string): Promise<void> {
    await this.enqueue(async () => {
      this.editor.set(line);
      this.render();
      await this.accept();
    });
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(task).catch((e: unknown) => {
      this.print(`\n${e instanceof Error ? e.message : String(e)}\n`);
    });
    return this.chain;
  }

  /** Lets Escape-then-Tab move focus out of the terminal instead of completing. */
  private keyFilter(event: KeyboardEvent): boolean {
    if (event.type !== 'keydown' || this.passthrough) return true;
    if (event.key === 'Escape') {
      this.escapePending = true;
      return false;
    }
    if (event.key === 'Tab' && this.escapePending) {
      this.escapePending = false;
      return false; // xterm ignores it; the browser moves focus
    }
    if (event.key !== 'Shift') this.escapePending = false;
    return true;
  }

  /** Hands every keystroke to a pty (or, with undefined, takes line editing back). */
  setPassthrough(forward: ((data: string) => void) | undefined): void {
    this.passthrough = forward;
    this.active = forward === undefined;
  }

  private receive(data: string): void {
    if (this.passthrough) {
      this.passthrough(data);
      return;
    }
    // Ctrl+C while a command runs: stop waiting for it at once.
    if (this.busy && data === '\x03') {
      this.busy.abort();
      return;
    }
    void this.enqueue(() => this.handle(data));
  }

  private async handle(data: string): Promise<void> {
    if (!this.active) return;
    let rest = data;
    while (rest.length > 0) {
      if (this.pasting !== undefined) {
        const end = rest.indexOf('\x1b[201~');
        if (end === -1) {
          this.pasting += rest;
          return;
        }
        const text = this.pasting + rest.slice(0, end);
        this.pasting = undefined;
        rest = rest.slice(end + 6);
        await this.paste(text);
        continue;
      }
      if (rest.startsWith('\x1b[200~')) {
        this.pasting = '';
        rest = rest.slice(6);
        continue;
      }
      const m =
        /^(\x1b\[[0-9;]*[~A-Za-z]|\x1bO[A-Za-z]|\x1b[\x7fbfdBFD]|[\x00-\x1f\x7f]|[^\x00-\x1f\x7f]+)/.exec(
          rest,
        );
      const token = m ? m[0] : rest[0]!;
      rest = rest.slice(token.length);
      await this.key(token);
    }
  }

  private async key(token: string): Promise<void> {
    const e = this.editor;
    const wasTab = this.lastKeyWasTab;
    this.lastKeyWasTab = token === '\t';
    switch (token) {
      case '\r':
      case '\n':
        return this.enter();
      case '\t':
        return this.complete(wasTab);
      case '\x7f':
      case '\b':
        e.backspace();
        break;
      case '\x1b[3~':
        e.deleteForward();
        break;
      case '\x04':
        if (e.text === '') {
          e.set('exit');
          this.render();
          return this.accept();
        }
        e.deleteForward();
        break;
      case '\x01':
      case '\x1b[H':
      case '\x1bOH':
      case '\x1b[1~':
        e.home();
        break;
      case '\x05':
      case '\x1b[F':
      case '\x1bOF':
      case '\x1b[4~':
        e.end();
        break;
      case '\x02':
      case '\x1b[D':
      case '\x1bOD':
        e.left();
        break;
      case '\x06':
      case '\x1b[C':
      case '\x1bOC':
        e.right();
        break;
      case '\x1bb':
      case '\x1b[1;5D':
      case '\x1b[1;3D':
        e.wordLeft();
        break;
      case '\x1bf':
      case '\x1b[1;5C':
      case '\x1b[1;3C':
        e.wordRight();
        break;
      case '\x15':
        e.killToStart();
        break;
      case '\x0b':
        e.killToEnd();
        break;
      case '\x17':
      case '\x1b\x7f':
        e.killWordBack();
        break;
      case '\x19':
        e.yank();
        break;
      case '\x1b[A':
      case '\x1bOA':
      case '\x10':
        if (!e.previous()) return;
        break;
      case '\x1b[B':
      case '\x1bOB':
      case '\x0e':
        if (!e.next()) return;
        break;
      case '\x03':
        this.moveToEnd();
        this.term.write('^C\r\n');
        e.reset();
        this.cursorRow = 0;
        break;
      case '\x0c':
        this.term.write('\x1b[H\x1b[2J\x1b[3J');
        this.cursorRow = 0;
        break;
      default:
        if (token.startsWith('\x1b') || /^[\x00-\x1f]$/.test(token)) return; // unbound key
        e.insert(token);
    }
    this.render();
  }

  private async paste(raw: string): Promise<void> {
    const text = raw.replace(/\r\n?/g, '\n').replace(/\t/g, '    ');
    const runNow = text.endsWith('\n');
    this.editor.insert(runNow ? text.replace(/\n+$/, '') : text);
    this.render();
    if (runNow && !(await this.host.incomplete(this.editor.text))) await this.accept();
  }

  private async enter(): Promise<void> {
    const text = this.editor.text;
    if (text.trim() !== '' && (await this.host.incomplete(text))) {
      this.editor.set(text + '\n');
      this.render();
      return;
    }
    await this.accept();
  }

  /** Runs the current input and shows a fresh prompt afterwards. */
  private async accept(): Promise<void> {
    const text = this.editor.text;
    this.moveToEnd();
    this.term.write('\r\n');
    this.cursorRow = 0;
    this.editor.remember(text);
    this.host.historyChanged(this.editor.history);
    this.editor.reset();
    if (text.trim() !== '') {
      const controller = new AbortController();
      this.busy = controller;
      try {
        await this.host.run(text, controller.signal);
      } catch (err) {
        if (controller.signal.aborted) this.term.write('^C\r\n');
        else this.print(`${err instanceof Error ? err.message : String(err)}\n`);
      } finally {
        this.busy = undefined;
      }
    }
    this.render();
  }

  private async complete(second: boolean): Promise<void> {
    const e = this.editor;
    const before = e.text;
    const cursor = e.cursor;
    const c = await this.host.complete(before, cursor);
    if (e.text !== before || e.cursor !== cursor) return; // typed on meanwhile
    const word = before.slice(c.from, c.to);
    if (c.candidates.length === 1) {
      const only = c.candidates[0]!;
      const atEnd = c.to >= before.length || before[c.to] === ' ';
      e.replace(c.from, c.to, only + (atEnd && !only.endsWith('/') && !only.endsWith('=') ? ' ' : ''));
    } else if (c.candidates.length > 1) {
      const prefix = commonPrefix(c.candidates);
      if (prefix.length > word.length) e.replace(c.from, c.to, prefix);
      else if (second) {
        this.moveToEnd();
        this.term.write(
          '\r\n' + neutralise(columns(c.candidates, this.term.cols)).replace(/\n/g, '\r\n') + '\r\n',
        );
        this.cursorRow = 0;
      } else {
        this.term.write('\x07');
        this.lastKeyWasTab = true;
        return;
      }
    } else {
      this.term.write('\x07');
      return;
    }
    this.render();
  }

  private geometry() {
    const promptWidth = [...this.promptText].length;
    return layout(this.editor.text, promptWidth, CONTINUATION.length, Math.max(1, this.term.cols));
  }

  /** Puts the terminal cursor after the input, so output starts below it. */
  private moveToEnd(): void {
    const g = this.geometry();
    const end = g.position(this.editor.text.length);
    const down = end.row - this.cursorRow;
    this.term.write((down > 0 ? `\x1b[${down}B` : '') + '\r' + (end.col > 0 ? `\x1b[${end.col}C` : ''));
    this.cursorRow = end.row;
  }

  /** Redraws prompt and input from the prompt's row, then places the cursor. */
  private render(): void {
    if (!this.active) return;
    const g = this.geometry();
    const text = this.editor.text;
    let out = '\r' + (this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : '') + '\x1b[J';
    out += this.prompt + neutralise(text).replace(/\n/g, '\r\n' + CONTINUATION);
    const end = g.position(text.length);
    // Text that ends exactly at the right margin leaves xterm in "pending wrap": step onto the next row.
    if (end.col === 0 && end.row > 0 && !text.endsWith('\n')) out += ' \r';
    const at = g.position(this.editor.cursor);
    const up = end.row - at.row;
    out += (up > 0 ? `\x1b[${up}A` : '') + '\r' + (at.col > 0 ? `\x1b[${at.col}C` : '');
    this.cursorRow = at.row;
    this.term.write(out);
  }
}
