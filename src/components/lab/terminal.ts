/**
 * The xterm.js terminal: DOM renderer, screen-reader mode, fit to its box, colours that follow
 * Starlight's light/dark theme (contrast checked against each background).
 */
import { Terminal, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';

const LIGHT: ITheme = {
  background: '#ffffff',
  foreground: '#1f2328',
  cursor: '#1f2328',
  cursorAccent: '#ffffff',
  selectionBackground: '#b6d6fd',
  black: '#1f2328',
  red: '#b3141b',
  green: '#116329',
  yellow: '#7d4e00',
  blue: '#0550ae',
  magenta: '#8250df',
  cyan: '#0a6577',
  white: '#59636e',
  brightBlack: '#59636e',
  brightRed: '#a40e26',
  brightGreen: '#116329',
  brightYellow: '#7d4e00',
  brightBlue: '#0550ae',
  brightMagenta: '#6e40c9',
  brightCyan: '#0a6577',
  brightWhite: '#1f2328',
};

const DARK: ITheme = {
  background: '#17181c',
  foreground: '#e6edf3',
  cursor: '#e6edf3',
  cursorAccent: '#17181c',
  selectionBackground: '#264f78',
  black: '#8b949e',
  red: '#ff7b72',
  green: '#56d364',
  yellow: '#e3b341',
  blue: '#79c0ff',
  magenta: '#d2a8ff',
  cyan: '#56d4dd',
  white: '#e6edf3',
  brightBlack: '#8b949e',
  brightRed: '#ffa198',
  brightGreen: '#7ee787',
  brightYellow: '#f2cc60',
  brightBlue: '#a5d6ff',
  brightMagenta: '#e2c5ff',
  brightCyan: '#b3f0ff',
  brightWhite: '#ffffff',
};

export function isDark(): boolean {
  return document.documentElement.dataset.theme === 'dark';
}

export const TERMINAL_FONT_PX = 14;
/**
 * In full window at 1280 px this gives the terminal ≥ 132 columns: `kubectl get pods -o wide` with
 * ContainerCreating pods is 128 wide (its header pads STATUS to that word), and a row that wraps
 * stops being a table.
 */
export const TERMINAL_FONT_PX_WIDE = 12;

export interface LabTerminal {
  readonly term: Terminal;
  fit(): void;
  setDark(dark: boolean): void;
  /** Font size in px, then a fit: full window uses a smaller one so wide tables fit one row. */
  setFontSize(px: number): void;
  dispose(): void;
}

export function createTerminal(
  container: HTMLElement,
  strings: { promptLabel: string; tooMuchOutput: string },
): LabTerminal {
  Terminal.strings.promptLabel = strings.promptLabel;
  Terminal.strings.tooMuchOutput = strings.tooMuchOutput;
  const term = new Terminal({
    screenReaderMode: true,
    convertEol: false,
    cursorBlink: true,
    fontSize: TERMINAL_FONT_PX,
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
    scrollback: 5000,
    theme: isDark() ? DARK : LIGHT,
    allowProposedApi: false,
  });
  const fitAddon = new FitAddon();
  term.loadAddon(fitAddon);
  term.open(container);
  const fit = () => {
    if (container.offsetWidth > 0 && container.offsetHeight > 0) {
      try {
        fitAddon.fit();
      } catch {
        // not laid out yet
      }
    }
  };
  const observer = new ResizeObserver(() => fit());
  observer.observe(container);
  fit();
  return {
    term,
    fit,
    setDark: (dark) => {
      term.options.theme = dark ? DARK : LIGHT;
    },
    setFontSize: (px) => {
      term.options.fontSize = px;
      fit();
    },
    dispose: () => {
      observer.disconnect();
      term.dispose();
    },
  };
}
