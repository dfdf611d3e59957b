/**
 * Programs the shell implements itself because they need the shell or the cluster's clock: the shell
 * programs (`sh`, `bash`: `-c`, a script file, a script on stdin, or a nested interactive shell),
 * `sleep` (advances the simulated clock), `clear`, `which`, and the host's `hostname`, `id`,
 * `whoami` and `ps` (pods get theirs from the command registry).
 */
import type { CommandHandler, CommandResult, ShellFlavour } from './types.ts';
import type { Interpreter } from './interpreter.ts';
import { subshellOf, type Frame } from './session.ts';
import { MAX_SLEEP_SECONDS } from './limits.ts';
import { fileErrorText, resolvePath } from './vfs.ts';

export interface ProgramServices {
  readonly interp: Interpreter;
  tick(ms: number): void;
  /** The flavour a shell program has in the frame's context (`sh` is dash on Ubuntu, ash on busybox). */
  flavourOf(program: string, frame: Frame): ShellFlavour;
  commandPath(name: string, frame: Frame): string | undefined;
}

const SHELL_PROGRAMS = ['sh', 'bash', 'ash', 'dash'];

export function createPrograms(s: ProgramServices): ReadonlyMap<string, CommandHandler> {
  const table = new Map<string, CommandHandler>();

  const shellProgram: CommandHandler = (argv, io) => {
    const cur = s.interp.current();
    if (!cur) return { stdout: '', stderr: '', exitCode: 0 };
    const program = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1);
    const flavour = s.flavourOf(program, cur.rt.frame);
    let script: string | undefined;
    let file: string | undefined;
    // `sh -c CMD NAME ARGS…` makes NAME $0; `sh FILE ARGS…` makes FILE $0.
    let arg0: string | undefined;
    let args: readonly string[] = [];
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '-c') {
        script = argv[i + 1];
        if (script === undefined)
          return { stdout: '', stderr: `${program}: -c: option requires an argument\n`, exitCode: 2 };
        arg0 = argv[i + 2];
        args = argv.slice(i + 3);
        break;
      }
      if (a.startsWith('-') && a !== '-') continue;
      file = a;
      arg0 = a;
      args = argv.slice(i + 1);
      break;
    }
    if (script === undefined && file !== undefined) {
      const read = cur.rt.frame.fs.read(resolvePath(cur.rt.frame.cwd, file));
      if ('error' in read) {
        const prefix = flavour === 'dash' ? `${program}: 0: ` : `${program}: `;
        return {
          stdout: '',
          stderr: `${prefix}${flavour === 'dash' ? `cannot open ${file}: ` : `${file}: `}${fileErrorText(read.error)}\n`,
          exitCode: 127,
        };
      }
      script = read.content;
    }
    const stdin = io.stdin;
    if (script === undefined && stdin === '') {
      if (!io.interactive) return { stdout: '', stderr: '', exitCode: 0 };
      return {
        stdout: '',
        stderr: '',
        exitCode: 0,
        enter: { ...cur.rt.frame.context, shell: program },
      } as CommandResult;
    }
    const source = script ?? stdin;
    return s.interp.runCaptured(cur.rt, script === undefined ? '' : stdin, (sub, subIo) => {
      sub.frame = { ...subshellOf(sub.frame), flavour, args, ...(arg0 === undefined ? {} : { arg0 }) };
      const jobs = s.interp.jobCount();
      const status = s.interp.runSource(source, sub, subIo);
      // Its background children hold the shell's output open: the caller sees their output when they end.
      s.interp.finishJobs(jobs);
      return status;
    });
  };
  for (const name of SHELL_PROGRAMS) table.set(name, shellProgram);

  table.set('sleep', (argv) => {
    const args = argv.slice(1);
    if (args.length === 0)
      return {
        stdout: '',
        stderr: "sleep: missing operand\nTry 'sleep --help' for more information.\n",
        exitCode: 1,
      };
    let seconds = 0;
    for (const a of args) {
      const m = /^(\d+\.?\d*|\.\d+)([smhd]?)$/.exec(a);
      if (!m)
        return {
          stdout: '',
          stderr: `sleep: invalid time interval ‘${a}’\nTry 'sleep --help' for more information.\n`,
          exitCode: 1,
        };
      seconds += Number(m[1]) * ({ '': 1, s: 1, m: 60, h: 3600, d: 86400 } as Record<string, number>)[m[2]!]!;
    }
    const capped = Math.min(seconds, MAX_SLEEP_SECONDS);
    s.tick(Math.round(capped * 1000));
    const note =
      capped < seconds
        ? `packetpath: sleep stopped after ${MAX_SLEEP_SECONDS} seconds of simulated time\n`
        : '';
    return { stdout: '', stderr: note, exitCode: 0 };
  });

  table.set('clear', () => ({ stdout: '', stderr: '', exitCode: 0, clear: true }));

  table.set('which', (argv) => {
    const cur = s.interp.current();
    let out = '';
    let status = 0;
    for (const name of argv.slice(1).filter((a) => !a.startsWith('-'))) {
      const path = cur ? s.commandPath(name, cur.rt.frame) : undefined;
      if (path === undefined) status = 1;
      else out += `${path}\n`;
    }
    return { stdout: out, stderr: '', exitCode: argv.length < 2 ? 1 : status };
  });

  table.set('hostname', () => ({
    stdout: `${s.interp.current()?.rt.frame.hostname ?? 'localhost'}\n`,
    stderr: '',
    exitCode: 0,
  }));
  table.set('whoami', () => ({
    stdout: `${s.interp.current()?.rt.frame.user ?? 'root'}\n`,
    stderr: '',
    exitCode: 0,
  }));
  table.set('id', () => {
    const user = s.interp.current()?.rt.frame.user ?? 'root';
    const id = user === 'root' ? 0 : 1000;
    return {
      stdout: `uid=${id}(${user}) gid=${id}(${user}) groups=${id}(${user})\n`,
      stderr: '',
      exitCode: 0,
    };
  });
  table.set('ps', () => ({
    stdout: '    PID TTY          TIME CMD\n   4242 pts/0    00:00:00 bash\n   4301 pts/0    00:00:00 ps\n',
    stderr: '',
    exitCode: 0,
  }));
  return table;
}
