/**
 * `stty` (coreutils) and `tput` (ncurses), as far as a lab needs them: the terminal's size and the
 * settings `stty -a` prints. Both answer from the controlling terminal the shell passes in
 * (`CommandIO.terminal`). stty works on its standard input, so `stty size < /dev/null` fails as on
 * Linux; tput asks stdout, stderr, then stdin, and lets an exported COLUMNS/LINES win, as ncurses does.
 */
import type { CommandHandler, CommandIO, CommandResult } from '../types.ts';

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode: number): CommandResult => ({ stdout: '', stderr, exitCode });

/** What coreutils' stty prints for a fresh pty under a login shell (Debian 12, bash, xterm). */
const STTY_SHORT = 'speed 38400 baud; line = 0;\n-brkint -imaxbel\n';
const sttyAll = (rows: number, cols: number) =>
  `speed 38400 baud; rows ${rows}; columns ${cols}; line = 0;
intr = ^C; quit = ^\\; erase = ^?; kill = ^U; eof = ^D; eol = <undef>; eol2 = <undef>; swtch = <undef>; start = ^Q; stop = ^S;
susp = ^Z; rprnt = ^R; werase = ^W; lnext = ^V; discard = ^O; min = 1; time = 0;
-parenb -parodd -cmspar cs8 -hupcl -cstopb cread -clocal -crtscts
-ignbrk -brkint -ignpar -parmrk -inpck -istrip -inlcr -igncr icrnl ixon -ixoff -iuclc -ixany -imaxbel -iutf8
opost -olcuc -ocrnl onlcr -onocr -onlret -ofill -ofdel nl0 cr0 tab0 bs0 vt0 ff0
isig icanon iexten echo echoe echok -echonl -noflsh -xcase -tostop -echoprt echoctl echoke -flusho -extproc
`;

/** Local and input modes a script may flip (`stty -echo` before reading a password): accepted, no effect. */
const MODES = new Set([
  'echo',
  'icanon',
  'isig',
  'iexten',
  'ixon',
  'onlcr',
  'opost',
  'icrnl',
  'raw',
  'cooked',
]);
const isMode = (a: string) => a === 'sane' || MODES.has(a.replace(/^-/, ''));
const STYLES = new Set(['size', '-a', '--all']);

export const stty: CommandHandler = (argv, io) => {
  const args = argv.slice(1);
  const tty = io.terminal;
  if (!tty?.stdin) return fail("stty: 'standard input': Inappropriate ioctl for device\n", 1);
  if (args.length === 0) return ok(STTY_SHORT);
  const bad = args.find((a) => !STYLES.has(a) && !isMode(a));
  if (bad !== undefined)
    return fail(`stty: invalid argument ‘${bad}’\nTry 'stty --help' for more information.\n`, 1);
  const styles = args.filter((a) => STYLES.has(a));
  if (styles.length === 0) return ok('');
  if (styles.length < args.length || new Set(styles).size > 1)
    return fail('stty: when specifying an output style, modes may not be set\n', 1);
  return ok(
    styles[0] === 'size' ? `${tty.rows} ${tty.cols}\n`.repeat(styles.length) : sttyAll(tty.rows, tty.cols),
  );
};

const TPUT_USAGE = `Usage: tput [options] [command]

Options:
  -S <<       read commands from standard input
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback

Commands:
  clear       clear the screen
  init        initialize the terminal
  reset       reinitialize the terminal
  capname     unlike clear/init/reset, print value for capability "capname"
`;

/** Numeric capabilities of the terminfo entries a lab's TERM may name. */
const NUMBERS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'xterm-256color': { colors: 256, it: 8, pairs: 65536 },
  xterm: { colors: 8, it: 8, pairs: 64 },
  dumb: {},
};

/**
 * ncurses' size: an exported COLUMNS/LINES, else the winsize of the first of stdout, stderr and stdin
 * that is the tty, else terminfo's 80×24 (everything redirected).
 */
function tputSize(io: CommandIO, cap: 'cols' | 'lines'): number {
  const env = Number(io.env[cap === 'cols' ? 'COLUMNS' : 'LINES']);
  if (Number.isInteger(env) && env > 0) return env;
  const tty = io.terminal;
  if (tty && tty.sized && (tty.stdout || tty.stderr || tty.stdin))
    return cap === 'cols' ? tty.cols : tty.rows;
  return cap === 'cols' ? 80 : 24;
}

export const tput: CommandHandler = (argv, io) => {
  let args = argv.slice(1);
  let term = io.env.TERM;
  if (args[0] === '-T') {
    term = args[1];
    args = args.slice(2);
  } else if (args[0]?.startsWith('-T')) {
    term = args[0].slice(2);
    args = args.slice(1);
  }
  if (args.length === 0) return fail(TPUT_USAGE, 2);
  if (!term) return fail('tput: No value for $TERM and no -T specified\n', 2);
  const numbers = NUMBERS[term];
  if (!numbers) return fail(`tput: unknown terminal "${term}"\n`, 3);
  const cap = args[0]!;
  if (cap === 'cols' || cap === 'lines') return ok(`${tputSize(io, cap)}\n`);
  const n = numbers[cap];
  if (n !== undefined) return ok(`${n}\n`);
  return fail(`tput: unknown terminfo capability '${cap}'\n`, 4);
};
