/**
 * `packetpath grade LAB REPORT... | DIR [--format F --out FILE] [--roster FILE] [--html FILE] [--csv FILE]
 *   [--json FILE] [--points N] [--assignment NAME] [--labs DIR] [--locale en|pt-BR] [--jobs N]`
 *
 * Re-grades every report by replaying its journal into a fresh engine (never trusting its recorded
 * score), prints a cohort table and writes CSV/JSON. A malformed or tampered report gets one line on
 * stderr (`packetpath grade: alice.json: content hash mismatch`) and the others are still graded.
 * Exit status: 0 when every report is valid and agrees with its replay, 1 when any report is invalid
 * or flagged, 2 on a usage error or a lab that cannot be loaded. Large cohorts are graded in `--jobs`
 * threads (default: one per CPU), this one and `--jobs - 1` workers. Every file is written whole or not
 * at all (a temporary file, then a rename); a bad roster stops before anything is graded.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { availableParallelism } from 'node:os';
import { isMainThread, Worker } from 'node:worker_threads';
import { join, relative, resolve } from 'node:path';
import { isLocaleArg, labContentHash, type LoadedLab, type Locale } from './grade-deps.ts';
import { gradeLoaded, type GradedFile, type ReportFile } from './grade-files.ts';
import { loadLabFromDir } from '../../grader/node/load-lab.ts';
import { processIO, type CliIO } from './grade-io.ts';
import { cohortCsv, cohortJson, cohortTable, type GradedRow } from './grade-output.ts';
import { planOutputs, writePlan, WriteError } from './grade-write.ts';
import { cohortLab } from '../../grader/formats/cohort.ts';
import { gradeLive } from './live/grade-live.ts';
import { MAX_ZIP_TOTAL, reportsFromZip, ZipError } from '../../grader/formats/zip-reports.ts';
import { MAX_ROSTER_BYTES, parseRoster, RosterError, type Roster } from '../../grader/formats/roster.ts';

const USAGE = `usage: packetpath grade LAB REPORT... | DIR [flags]

  --format F --out FILE   a gradebook file: gradescope (a folder of LEARNER/results.json, or FILE.json
                          for one array), canvas, moodle, classroom, checks (one row per check), csv, json
  --roster FILE           CSV with a name column and any of email, username, id, sis_user_id,
                          sis_login_id, section: maps the names in the reports to LMS identities
  --html FILE             a self-contained cohort report (table, pass rate per check, what fails most)
  --csv FILE, --json FILE the cohort as CSV and JSON (every report, graded or not)
  --points N              what passing every check is worth in the gradebook (default 100)
  --assignment NAME       the gradebook column (Canvas: "Name (id)" as its export spells it)
  --labs DIR              where labs live (default ./labs)
  --locale en|pt-BR       language of titles, explanations and the HTML report (default en)
  --jobs N                grading threads (default: one per CPU)

packetpath grade --kubeconfig FILE LAB grades a live cluster instead (packetpath grade --kubeconfig x --help).
`;

export const FORMATS = ['gradescope', 'canvas', 'moodle', 'classroom', 'checks', 'csv', 'json'] as const;
export type Format = (typeof FORMATS)[number];
const isFormat = (v: string): v is Format => (FORMATS as readonly string[]).includes(v);

interface GradeArgs {
  lab: string;
  inputs: string[];
  csv?: string;
  json?: string;
  html?: string;
  format?: Format;
  out?: string;
  roster?: string;
  points?: number;
  assignment?: string;
  labsDir?: string;
  locale: Locale;
  jobs: number;
}

const VALUE_FLAGS = [
  '--csv',
  '--json',
  '--html',
  '--format',
  '--out',
  '--roster',
  '--points',
  '--assignment',
  '--labs',
  '--locale',
  '--jobs',
];

function parseArgs(argv: readonly string[]): GradeArgs | string {
  const positional: string[] = [];
  const out: Partial<GradeArgs> = { locale: 'en', jobs: availableParallelism() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (flag === '-h' || flag === '--help') return '';
    if (!flag.startsWith('-') || flag === '-') {
      positional.push(a);
      continue;
    }
    if (!VALUE_FLAGS.includes(flag)) return `unknown flag: ${flag}`;
    const v = inline ?? argv[++i];
    if (v === undefined || v === '') return `${flag} needs a value`;
    if (flag === '--csv') out.csv = v;
    else if (flag === '--json') out.json = v;
    else if (flag === '--html') out.html = v;
    else if (flag === '--out') out.out = v;
    else if (flag === '--roster') out.roster = v;
    else if (flag === '--assignment') out.assignment = v;
    else if (flag === '--labs') out.labsDir = v;
    else if (flag === '--format') {
      if (!isFormat(v)) return `unknown format "${v}" (formats: ${FORMATS.join(', ')})`;
      out.format = v;
    } else if (flag === '--points') {
      if (!/^\d{1,6}(\.\d{1,2})?$/.test(v) || Number(v) === 0) return '--points must be a positive number';
      out.points = Number(v);
    } else if (flag === '--jobs') {
      if (!/^[1-9]\d{0,2}$/.test(v)) return '--jobs must be a number from 1 to 999';
      out.jobs = Number(v);
    } else if (isLocaleArg(v)) out.locale = v;
    else return '--locale must be en or pt-BR';
  }
  if (out.format !== undefined && out.out === undefined) return `--format ${out.format} needs --out FILE`;
  if (out.out !== undefined && out.format === undefined) return '--out needs --format F';
  if (positional.length < 2) return 'give a lab and at least one report or folder';
  return { ...(out as GradeArgs), lab: positional[0]!, inputs: positional.slice(1) };
}

/** A text file no bigger than `max` bytes (a roster), read whole. */
function readTextFile(path: string, max: number, label: string): string {
  if (statSync(path).size > max) throw new RosterError(`${label}: too large to be a roster`);
  return readFileSync(path, 'utf8');
}

/** An fs error in a few words, as coreutils says them. */
function errorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'ENOTEMPTY') return 'folder exists and is not empty';
  return (e as Error).message;
}

/** A lab by id (under ./labs or --labs) or by folder path. */
export function resolveLabDir(lab: string, cwd: string, labsDir?: string): string {
  const asPath = resolve(cwd, lab);
  if (existsSync(join(asPath, 'lab.yaml'))) return asPath;
  return resolve(cwd, labsDir ?? 'labs', lab);
}

/**
 * Report files: the files given, the *.json files directly inside the folders given, and the *.json
 * entries of the zips given (an LMS's "download all submissions"), read within bounds (zip-reports.ts)
 * into a private temporary folder under safe names, so no entry name ever reaches the filesystem.
 */
function reportFiles(
  inputs: readonly string[],
  cwd: string,
  scratch: () => string,
): { files: ReportFile[]; problems: string[] } {
  const problems: string[] = [];
  const files = inputs.flatMap((input): ReportFile[] => {
    const p = resolve(cwd, input);
    if (existsSync(p) && statSync(p).isDirectory()) {
      return readdirSync(p)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => ({ path: join(p, f), label: join(input, f) }));
    }
    if (!input.toLowerCase().endsWith('.zip') || !existsSync(p)) return [{ path: p, label: input }];
    if (statSync(p).size > MAX_ZIP_TOTAL) {
      problems.push(`${input}: larger than ${MAX_ZIP_TOTAL / 1024 / 1024 / 1024} GB: not read`);
      return [];
    }
    try {
      const zip = reportsFromZip(readFileSync(p), input);
      problems.push(...zip.problems);
      const dir = scratch();
      return zip.files.map((f, i) => {
        const path = join(dir, `${String(i).padStart(5, '0')}.json`);
        writeFileSync(path, f.text);
        return { path, label: `${input}:${f.name}` };
      });
    } catch (e) {
      problems.push(e instanceof ZipError ? e.message : `${input}: ${(e as Error).message}`);
      return [];
    }
  });
  return { files, problems };
}

/** Marks reports whose journals are identical to an earlier one: not proof of copying, worth a look. */
function noteDuplicates(graded: readonly GradedFile[]): GradedRow[] {
  const firstByJournal = new Map<string, string>();
  return graded.map(({ row: r, journal: key }) => {
    if (key === undefined || r.status === 'invalid') return r;
    const first = firstByJournal.get(key);
    if (first === undefined) {
      firstByJournal.set(key, r.file);
      return r;
    }
    return { ...r, notes: [...r.notes, `same journal as ${first}`] };
  });
}

/** Below this many reports, starting workers costs more than it saves. */
const MIN_PER_WORKER = 40;

/**
 * Grades in `jobs` threads when the cohort is big enough: this thread, which has the lab and the
 * engine loaded already, and `jobs - 1` worker threads that each load them once. Every thread takes
 * every n-th file, so slow and fast reports spread evenly. Results come back in file order.
 */
async function gradeAll(
  labDir: string,
  loaded: LoadedLab,
  files: readonly ReportFile[],
  jobs: number,
): Promise<GradedFile[]> {
  const threads = Math.min(jobs, Math.floor(files.length / MIN_PER_WORKER));
  if (threads <= 1) return gradeLoaded(loaded, files);
  const slices = Array.from({ length: threads }, (_, w) => files.filter((_, i) => i % threads === w));
  const workers = slices.slice(1).map(
    (slice) =>
      new Promise<GradedFile[]>((done, fail) => {
        const worker = new Worker(new URL('./grade-worker.ts', import.meta.url), {
          workerData: { labDir, files: slice },
        });
        worker.once('message', (m: GradedFile[]) => done(m));
        worker.once('error', fail);
        worker.once('exit', (code) => code !== 0 && fail(new Error(`grading worker exited with ${code}`)));
      }),
  );
  // The workers start loading while this thread grades its own slice (their messages wait for it).
  const own = gradeLoaded(loaded, slices[0]!);
  const parts = [own, ...(await Promise.all(workers))];
  return files.map((_, i) => parts[i % threads]![Math.floor(i / threads)]!);
}

export async function runGrade(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  // A live cluster instead of reports (live/grade-live.ts).
  if (argv.some((a) => a === '--kubeconfig' || a.startsWith('--kubeconfig='))) return gradeLive(argv, io);
  let tmp: string | undefined;
  try {
    return await gradeCohort(argv, io, () => (tmp ??= mkdtempSync(join(tmpdir(), 'packetpath-zip-'))));
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

async function gradeCohort(argv: readonly string[], io: CliIO, scratch: () => string): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    if (args) io.err(`packetpath grade: ${args}\n`);
    io.err(USAGE);
    return args ? 2 : 0;
  }
  let loaded: LoadedLab;
  try {
    loaded = loadLabFromDir(resolveLabDir(args.lab, io.cwd, args.labsDir));
  } catch (e) {
    io.err(`packetpath grade: ${(e as Error).message.split('\n').join('\npacketpath grade: ')}\n`);
    return 2;
  }
  let roster: Roster | undefined;
  if (args.roster !== undefined) {
    try {
      roster = parseRoster(
        readTextFile(resolve(io.cwd, args.roster), MAX_ROSTER_BYTES, args.roster),
        args.roster,
      );
    } catch (e) {
      io.err(
        `packetpath grade: ${e instanceof RosterError ? e.message : `${args.roster}: ${errorText(e)}`}\n`,
      );
      return 2;
    }
  }
  const labDir = resolveLabDir(args.lab, io.cwd, args.labsDir);
  const { files, problems: inputProblems } = reportFiles(args.inputs, io.cwd, scratch);
  for (const p of inputProblems) io.err(`packetpath grade: ${p}\n`);
  if (files.length === 0) {
    io.err('packetpath grade: no report files found\n');
    return 2;
  }
  let rows: GradedRow[];
  try {
    rows = noteDuplicates(await gradeAll(labDir, loaded, files, args.jobs));
  } catch (e) {
    io.err(`packetpath grade: ${(e as Error).message}\n`);
    return 2;
  }
  for (const r of rows) {
    for (const p of r.problems) io.err(`packetpath grade: ${r.file}: ${p}\n`);
    for (const n of r.notes) io.err(`packetpath grade: ${r.file}: note: ${n}\n`);
  }
  io.out(cohortTable(rows));
  const lab = cohortLab(loaded);
  const checkIds = lab.checks.map((c) => c.id);
  const labInfo = { id: loaded.lab.id, version: loaded.lab.version, contentHash: labContentHash(loaded) };
  const { plan, warnings } = planOutputs(
    io.cwd,
    { lab, entries: rows },
    roster,
    args,
    {
      locale: args.locale,
      ...(args.points !== undefined ? { points: args.points } : {}),
      ...(args.assignment !== undefined ? { assignment: args.assignment } : {}),
    },
    () => cohortCsv(rows, checkIds),
    () => cohortJson(rows, labInfo, args.locale),
  );
  for (const w of warnings) io.err(`packetpath grade: ${w}\n`);
  try {
    writePlan(plan);
  } catch (e) {
    const target = e instanceof WriteError ? relative(io.cwd, e.target) || '.' : 'output';
    io.err(`packetpath grade: cannot write ${target}: ${errorText(e instanceof WriteError ? e.cause : e)}\n`);
    return 2;
  }
  return rows.every((r) => r.status === 'ok') && inputProblems.length === 0 ? 0 : 1;
}

if (isMainThread && process.argv[1] && import.meta.filename === resolve(process.argv[1])) {
  process.exitCode = await runGrade(process.argv.slice(2));
}
