/**
 * `packetpath`, the simulated cluster on the command line (bin/packetpath.mjs → main()).
 *
 *   packetpath shell [--cluster FILE] [--lab ID [--variant ID]] [--seed N]   an interactive prompt (readline)
 *   packetpath exec --state FILE [--cluster FILE] [--seed N] -- 'LINE'
 *
 * `exec` keeps the cluster in FILE (a cluster snapshot as JSON): created from the cluster definition
 * on first use, restored and saved around each line, so separate invocations act on one cluster.
 * Files are the real working directory (see disk-files.ts). Usage errors exit 2; unreadable state or
 * cluster files exit 1 with `packetpath: cannot read …`; nothing ends in a stack trace.
 */
import { readFileSync, existsSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write.ts';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import {
  createCluster,
  needsMoreInput,
  outputOf,
  parseClusterConfig,
  restoreCluster,
  type ServedCluster,
  type ClusterHandle,
  type ClusterConfig,
  type ExecResult,
} from '../../engine/index.ts';
import { DiskLabFiles } from './disk-files.ts';
import { parseArgs, parseSeed, UsageError, type ParsedArgs } from './args.ts';
import { runGrade } from './grade.ts';
import { runLab } from './lab.ts';
import { runScorm } from './scorm.ts';
import { runExport } from './live/export.ts';
import { loadLabFromDir } from '../../grader/node/load-lab.ts';
import { labForLearner, startLab } from '../../grader/index.ts';
import { isLabCommand, LabShell } from './lab-shell.ts';
import { isLocaleArg, type Locale } from './grade-deps.ts';
import type { LoadedLab } from '../../grader/lab-schema.ts';
import { withStateLock } from './serve/state-file.ts';

export interface CliIO {
  readonly cwd: string;
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** stdin is a terminal: show prompts and offer line editing. */
  readonly isTTY: boolean;
}

export const USAGE = `Packet Path: a simulated Kubernetes cluster for learning cluster networking.

Usage:
  packetpath shell [--cluster FILE] [--seed N]
  packetpath shell --lab ID [--variant ID | --seed N] [--locale en|pt-BR] [--report FILE] [--learner NAME]
  packetpath exec --state FILE [--cluster FILE] [--seed N] -- 'LINE'
  packetpath serve --kubeconfig FILE [--cluster FILE | --lab ID] [--state FILE] [--port N]
  packetpath grade LAB REPORT... | DIR [--format F --out FILE] [--roster FILE] [--html FILE] [--locale L]
  packetpath grade --kubeconfig FILE LAB [--variant ID | --seed N]
  packetpath export LAB DIR [--variant ID | --seed N] [--locale en|pt-BR]
  packetpath lab validate [ID...] [--labs DIR]
  packetpath scorm LAB... --out FILE.zip [--locale en|pt-BR] [--title TEXT]
  packetpath help

Commands:
  shell   Open an interactive prompt on a new cluster (Tab completes, Ctrl+D leaves). With --lab, the
          lab's steps come first, and these lines drive the lab instead of the shell:
            lab steps      the lab's steps
            lab check      run the checks, explained as in the browser
            lab quiz       the lab's questions; lab quiz QUESTION CHOICE... answers one
            lab hint       the next hint
            lab solution   the solution, after a confirmation, then an offer to run it
  exec    Run one shell line against the cluster kept in --state FILE (created on first use),
          print its output and exit with its exit code.
  serve   Serve the cluster's Kubernetes API on https://127.0.0.1 so your own kubectl (or any
          Kubernetes client) drives it; writes a kubeconfig for it. With --state, the cluster is
          the one exec uses: both see every change.
  grade   Re-grade learners' reports by replaying them (instructors): a table on stdout, and files for
          a gradebook (packetpath grade --help lists the formats). With --kubeconfig, grade a live
          cluster (kind, or packetpath serve) with the lab's checks, run with your kubectl.
  export  Write a lab for a real cluster: a kind config, its start manifests, setup.sh, and a
          verify.sh that runs the lab's checks with kubectl.
  lab     Check lab folders: schema, start state fails, solution passes (packetpath lab --help).
  scorm   Package labs as a SCORM 1.2 zip for an LMS: each lab grades in the learner's browser and
          reports its score (cmi.core.score.raw, lesson_status) with no server.

Flags:
  --cluster FILE   kind Cluster definition (YAML, with an optional packetpath: block)
  --lab ID         start from a lab's cluster and files
  --variant ID     with --lab, for a lab with variants (17-capstone): play this variant
  --seed N         seed for the cluster's random choices (default 1): same seed, same cluster;
                   with --lab, for a lab with variants: the seed that draws the variant
  --locale L       with --lab, the language of the steps, checks and report (en or pt-BR; default en)
  --report FILE    with --lab, write the grade report the browser downloads when the session ends
  --learner NAME   with --report, the name your instructor knows you by
  --state FILE     where exec (and serve) keep the cluster between invocations
  --kubeconfig FILE  (serve) where to write the kubeconfig for the server
  --port N         (serve) the port on 127.0.0.1 (default: a free one)
  --clock MODE     (serve) wall (default: simulated time follows real time) or frozen (time moves
                   only while a watch waits, for comparing outputs)

Files: relative paths (kubectl apply -f, cat, ls, >) are the current directory.
`;

class CliFailure extends Error {}

/** The repository's labs/ folder (the CLI ships with the course's labs). */
const LABS_DIR = fileURLToPath(new URL('../../../labs/', import.meta.url));

/** A lab of labs/ by id, or undefined when there is none; a broken lab.yaml is a CliFailure. */
export function findLab(id: string): LoadedLab | undefined {
  if (!/^[a-z0-9][-a-z0-9]*$/.test(id)) return undefined;
  const dir = join(LABS_DIR, id);
  if (!existsSync(join(dir, 'lab.yaml'))) return undefined;
  try {
    return loadLabFromDir(dir);
  } catch (e) {
    throw new CliFailure(`cannot load lab ${id}: ${(e as Error).message}`);
  }
}

function readClusterConfig(file: string | undefined, cwd: string): ClusterConfig | undefined {
  if (file === undefined) return undefined;
  try {
    return parseClusterConfig(readFileSync(resolvePath(cwd, file), 'utf8'));
  } catch (e) {
    throw new CliFailure(`cannot read cluster file ${file}: ${reason(e)}`);
  }
}

function reason(e: unknown): string {
  const err = e as { code?: string; message?: string };
  if (err.code === 'ENOENT') return 'no such file or directory';
  if (err.code === 'EACCES') return 'permission denied';
  if (err.code === 'EISDIR') return 'is a directory';
  return (err.message ?? String(e)).replace(/\s+/g, ' ').trim();
}

/** The lab a `--lab ID` session plays, with the seed that drew its variant (labs with variants). */
interface LabPick {
  readonly loaded: LoadedLab;
  readonly drawSeed: number;
  /** The variant came from `--variant`, not from a seed. */
  readonly pickedByHand: boolean;
}

function pickLab(labId: string, args: ParsedArgs): LabPick {
  const lab = findLab(labId);
  if (!lab) throw new CliFailure(`no lab named ${labId}`);
  const variant = args.flags.get('variant');
  const seed = parseSeed(args.flags.get('seed'));
  if (variant !== undefined && seed !== undefined)
    throw new UsageError('give --variant or --seed, not both: the seed draws the variant');
  try {
    const loaded = labForLearner(lab, { ...(variant !== undefined ? { variant } : {}), seed: seed ?? 1 });
    return { loaded, drawSeed: seed ?? 1, pickedByHand: variant !== undefined };
  } catch (e) {
    throw new CliFailure((e as Error).message);
  }
}

/**
 * A new cluster for `exec`. With `--lab ID` it is the lab's start state (its cluster, seed, setup
 * lines) and its start files live in memory, so trying a lab never writes into your folder;
 * otherwise the files are the working directory's.
 */
function newCluster(args: ParsedArgs, io: CliIO): ServedCluster {
  const labId = args.flags.get('lab');
  if (labId !== undefined) {
    const { loaded } = pickLab(labId, args);
    try {
      return startLab(loaded);
    } catch (e) {
      throw new CliFailure((e as Error).message);
    }
  }
  if (args.flags.has('variant')) throw new UsageError('--variant needs --lab ID');
  const config = readClusterConfig(args.flags.get('cluster'), io.cwd);
  return createCluster(config, {
    seed: parseSeed(args.flags.get('seed')) ?? 1,
    files: new DiskLabFiles(io.cwd),
  });
}

async function runExec(args: ParsedArgs, io: CliIO): Promise<number> {
  const stateFile = args.flags.get('state');
  if (stateFile === undefined) throw new UsageError('exec needs --state FILE');
  if (args.rest.length === 0)
    throw new UsageError("exec needs a line to run: packetpath exec --state FILE -- 'LINE'");
  parseSeed(args.flags.get('seed'));
  const path = resolvePath(io.cwd, stateFile);
  const result = withStateLock(path, () => execLocked(args, io, path, stateFile));
  print(io, result);
  return result.exitCode;
}

/** exec's read-run-write of the state file, under its lock (packetpath serve may share the file). */
function execLocked(args: ParsedArgs, io: CliIO, path: string, stateFile: string): ExecResult {
  let cluster: ServedCluster;
  if (existsSync(path)) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new CliFailure(`cannot read state file ${stateFile}: ${reason(e)}`);
    }
    try {
      cluster = restoreCluster(text, { files: new DiskLabFiles(io.cwd) });
    } catch (e) {
      throw new CliFailure(`cannot read state file ${stateFile}: ${reason(e)}`);
    }
  } else cluster = newCluster(args, io);
  const result = cluster.execSync(args.rest.join(' '), { interactive: false });
  try {
    writeFileAtomic(path, `${JSON.stringify(cluster.snapshot())}\n`);
  } catch (e) {
    throw new CliFailure(`cannot write state file ${stateFile}: ${reason(e)}`);
  }
  return result;
}

async function runServe(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.rest.length > 0) throw new UsageError(`serve takes no arguments (got "${args.rest[0]}")`);
  const kubeconfig = args.flags.get('kubeconfig');
  if (kubeconfig === undefined)
    throw new UsageError('serve needs --kubeconfig FILE (where to write the kubeconfig)');
  const portText = args.flags.get('port') ?? '0';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    throw new UsageError(`invalid value "${portText}" for --port: must be a port number (0-65535)`);
  const clock = args.flags.get('clock') ?? 'wall';
  if (clock !== 'wall' && clock !== 'frozen')
    throw new UsageError(`invalid value "${clock}" for --clock: must be wall or frozen`);
  const stateFile = args.flags.get('state');
  const statePath = stateFile === undefined ? undefined : resolvePath(io.cwd, stateFile);
  let cluster: ServedCluster;
  if (statePath !== undefined && existsSync(statePath)) {
    try {
      cluster = restoreCluster(readFileSync(statePath, 'utf8'), { files: new DiskLabFiles(io.cwd) });
    } catch (e) {
      throw new CliFailure(`cannot read state file ${stateFile}: ${reason(e)}`);
    }
  } else cluster = newCluster(args, io);
  try {
    // Loaded on demand: the PKI libraries cost start-up time the other commands should not pay.
    const { serveCluster } = await import('./serve/command.ts');
    return await serveCluster(cluster, {
      port: Number(portText),
      kubeconfig: resolvePath(io.cwd, kubeconfig),
      stateFile: statePath,
      clock,
      files: new DiskLabFiles(io.cwd),
      out: (t) => void io.stdout.write(t),
    });
  } catch (e) {
    throw new CliFailure(`cannot serve: ${reason(e)}`);
  }
}

/** A line's output on the real streams, in the order it was written (a terminal interleaves them). */
function print(io: CliIO, r: ExecResult): void {
  for (const chunk of outputOf(r)) (chunk.stream === 'stdout' ? io.stdout : io.stderr).write(chunk.text);
}

/** What the prompt drives: a plain cluster, or a lab session (see lab-shell.ts). */
interface ShellTarget {
  prompt(): string;
  exec(line: string): ExecResult;
  completions(line: string): [string[], string];
  /** A line the target handles itself (`lab …`); returns what to print, or undefined for the shell. */
  intercept(line: string): string | undefined;
  /** A question the next line answers (`lab solution`'s confirmation), shown instead of the prompt. */
  question(): string | undefined;
  /** Called once when the prompt closes (writes `--report`); returns what to print. */
  finish(): string;
  /** The terminal's size, for the shell (`$COLUMNS`, `stty size`, `tput cols`). */
  resize(cols: number, rows: number): void;
}

function clusterTarget(cluster: ClusterHandle): ShellTarget {
  return {
    prompt: () => cluster.prompt(),
    exec: (line) => cluster.execSync(line, { interactive: true }),
    completions: (line) => {
      const c = cluster.complete(line, line.length);
      return [[...c.candidates], line.slice(c.start, c.end)];
    },
    intercept: () => undefined,
    question: () => undefined,
    finish: () => '',
    resize: (cols, rows) => cluster.resize(cols, rows),
  };
}

async function labTarget(labId: string, args: ParsedArgs, io: CliIO): Promise<ShellTarget> {
  const pick = pickLab(labId, args);
  const locale = parseLocale(args.flags.get('locale'));
  const reportFile = args.flags.get('report');
  const learner = args.flags.get('learner');
  // A folder that is not there is said now, not after the learner's whole session.
  if (reportFile !== undefined && !existsSync(dirname(resolvePath(io.cwd, reportFile))))
    throw new CliFailure(`cannot write report ${reportFile}: no such file or directory`);
  const lab = new LabShell(pick.loaded, { locale, drawSeed: pick.drawSeed });
  let prompt: string;
  try {
    prompt = (await lab.start()).prompt;
  } catch (e) {
    throw new CliFailure((e as Error).message);
  }
  // The steps come first, as the lab's page shows them above the terminal; piped input gets only the
  // output of its lines (`lab steps` prints them on demand).
  if (io.isTTY) io.stdout.write(`${lab.steps()}\n`);
  return {
    prompt: () => prompt,
    exec: (line) => {
      const r = lab.session.exec(line);
      prompt = r.prompt;
      return r;
    },
    completions: (line) => {
      const c = lab.session.complete(line, line.length);
      return [[...c.candidates], line.slice(c.from, c.to)];
    },
    intercept: (line) => {
      if (lab.waitingForAnswer) return lab.answer(line);
      return isLabCommand(line) ? lab.command(line) : undefined;
    },
    question: () => lab.question,
    resize: (cols, rows) => lab.session.resize(cols, rows),
    finish: () => {
      if (reportFile === undefined) return '';
      const path = resolvePath(io.cwd, reportFile);
      try {
        writeFileAtomic(path, lab.report(learner, new Date().toISOString(), pick.pickedByHand));
      } catch (e) {
        throw new CliFailure(`cannot write report ${reportFile}: ${reason(e)}`);
      }
      return lab.reportWritten(reportFile);
    },
  };
}

function parseLocale(value: string | undefined): Locale {
  if (value === undefined) return 'en';
  if (!isLocaleArg(value)) throw new UsageError(`invalid value "${value}" for --locale: must be en or pt-BR`);
  return value;
}

async function runShell(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.rest.length > 0) throw new UsageError(`shell takes no arguments (got "${args.rest[0]}")`);
  const labId = args.flags.get('lab');
  if (labId === undefined) {
    for (const flag of ['report', 'learner', 'locale'])
      if (args.flags.has(flag)) throw new UsageError(`--${flag} needs --lab ID`);
  }
  const target = labId !== undefined ? await labTarget(labId, args, io) : clusterTarget(newCluster(args, io));
  // On a terminal (a tty.WriteStream has columns and rows), the shell gets its size, and every change.
  const tty = io.stdout as Writable & { columns?: number; rows?: number };
  const sendSize = () => {
    if (io.isTTY && tty.columns !== undefined && tty.rows !== undefined) target.resize(tty.columns, tty.rows);
  };
  sendSize();
  io.stdout.on('resize', sendSize);
  const status = await new Promise<number>((resolve) => {
    let pending = '';
    let status = 0;
    const rl = createInterface({
      input: io.stdin,
      output: io.isTTY ? io.stdout : undefined,
      terminal: io.isTTY,
      historySize: 1000,
      prompt: target.prompt(),
      completer: (line: string): [string[], string] => target.completions(line),
    });
    const prompt = () => {
      const question = target.question();
      // Piped, a question is output like any other (a transcript shows what was asked).
      if (question !== undefined && !io.isTTY) io.stdout.write(`${question.trimEnd()}\n`);
      rl.setPrompt(question ?? (pending === '' ? target.prompt() : CONTINUATION_PROMPT));
      if (io.isTTY) rl.prompt();
    };
    rl.on('line', (line) => {
      if (pending === '') {
        const own = target.intercept(line);
        if (own !== undefined) {
          io.stdout.write(own);
          return prompt();
        }
      }
      pending = pending === '' ? line : `${pending}\n${line}`;
      if (needsMoreInput(pending)) return prompt();
      const text = pending;
      pending = '';
      const r = target.exec(text);
      if (r.clear && io.isTTY) io.stdout.write('\x1b[H\x1b[2J\x1b[3J');
      print(io, r);
      status = r.exitCode;
      if (r.logout) return rl.close();
      prompt();
    });
    rl.on('close', () => {
      if (pending !== '') {
        const r = target.exec(pending);
        print(io, r);
        status = r.exitCode;
      }
      if (io.isTTY) io.stdout.write('\n');
      resolve(status);
    });
    prompt();
  });
  io.stdout.off('resize', sendSize);
  const done = target.finish();
  if (done !== '') io.stderr.write(done);
  return status;
}

/** The prompt bash shows while a line is incomplete (PS2), as the engine's shell does. */
const CONTINUATION_PROMPT = '> ';

export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  // `grade` and `lab` (issue 6, src/runtime/node-cli/grade.ts, lab.ts) parse their own flags.
  const subIO = {
    cwd: io.cwd,
    out: (t: string) => void io.stdout.write(t),
    err: (t: string) => void io.stderr.write(t),
  };
  if (argv[0] === 'grade') return runGrade(argv.slice(1), subIO);
  if (argv[0] === 'lab') return runLab(argv.slice(1), subIO);
  if (argv[0] === 'scorm') return runScorm(argv.slice(1), subIO);
  if (argv[0] === 'export') return runExport(argv.slice(1), subIO);
  try {
    const args = parseArgs(argv);
    if (args.help || args.command === 'help' || (args.command === undefined && argv.length === 0)) {
      if (args.command === undefined && argv.length === 0) {
        io.stderr.write(USAGE);
        return 2;
      }
      io.stdout.write(USAGE);
      return 0;
    }
    if (args.command === 'exec') return await runExec(args, io);
    if (args.command === 'shell') return await runShell(args, io);
    if (args.command === 'serve') return await runServe(args, io);
    throw new UsageError(`missing command`);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`packetpath: ${e.message}\nRun 'packetpath --help' for usage.\n`);
      return 2;
    }
    if (e instanceof CliFailure) {
      io.stderr.write(`packetpath: ${e.message}\n`);
      return 1;
    }
    io.stderr.write(`packetpath: internal error: ${reason(e)}\n`);
    return 1;
  }
}
