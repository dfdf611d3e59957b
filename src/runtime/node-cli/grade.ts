/**
 * `packetpath grade LAB REPORT... | DIR [--csv FILE] [--json FILE] [--labs DIR] [--locale en|pt-BR]`
 *
 * Re-grades every report by replaying its journal into a fresh engine (never trusting its recorded
 * score), prints a cohort table and writes CSV/JSON. A malformed or tampered report gets one line on
 * stderr (`packetpath grade: alice.json: content hash mismatch`) and the others are still graded.
 * Exit status: 0 when every report is valid and agrees with its replay, 1 when any report is invalid
 * or flagged, 2 on a usage error or a lab that cannot be loaded.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  createStarter,
  engine,
  flagText,
  isLocaleArg,
  labContentHash,
  parseReport,
  regradeReport,
  ReplayCache,
  type LoadedLab,
  type Locale,
} from './grade-deps.ts';
import { loadLabFromDir } from '../../grader/node/load-lab.ts';
import { processIO, type CliIO } from './grade-io.ts';
import { cohortCsv, cohortJson, cohortTable, type GradedRow } from './grade-output.ts';
import { canonicalJson } from '../../grader/content-hash.ts';

const USAGE =
  'usage: packetpath grade LAB REPORT... | DIR [--csv FILE] [--json FILE] [--labs DIR] [--locale en|pt-BR]\n';
/** Reports bigger than this are refused unread: a real one is a few hundred KB. */
const MAX_REPORT_BYTES = 50 * 1024 * 1024;

interface GradeArgs {
  lab: string;
  inputs: string[];
  csv?: string;
  json?: string;
  labsDir?: string;
  locale: Locale;
}

function parseArgs(argv: readonly string[]): GradeArgs | string {
  const positional: string[] = [];
  const out: Partial<GradeArgs> = { locale: 'en' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (flag === '-h' || flag === '--help') return '';
    if (!flag.startsWith('-') || flag === '-') {
      positional.push(a);
      continue;
    }
    if (!['--csv', '--json', '--labs', '--locale'].includes(flag)) return `unknown flag: ${flag}`;
    const v = inline ?? argv[++i];
    if (v === undefined || v === '') return `${flag} needs a value`;
    if (flag === '--csv') out.csv = v;
    else if (flag === '--json') out.json = v;
    else if (flag === '--labs') out.labsDir = v;
    else if (isLocaleArg(v)) out.locale = v;
    else return '--locale must be en or pt-BR';
  }
  if (positional.length < 2) return 'give a lab and at least one report or folder';
  return { ...(out as GradeArgs), lab: positional[0]!, inputs: positional.slice(1) };
}

/** A lab by id (under ./labs or --labs) or by folder path. */
export function resolveLabDir(lab: string, cwd: string, labsDir?: string): string {
  const asPath = resolve(cwd, lab);
  if (existsSync(join(asPath, 'lab.yaml'))) return asPath;
  return resolve(cwd, labsDir ?? 'labs', lab);
}

/** Report files: the files given, and the *.json files directly inside the folders given. */
function reportFiles(inputs: readonly string[], cwd: string): { path: string; label: string }[] {
  return inputs.flatMap((input) => {
    const p = resolve(cwd, input);
    if (existsSync(p) && statSync(p).isDirectory()) {
      return readdirSync(p)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => ({ path: join(p, f), label: join(input, f) }));
    }
    return [{ path: p, label: input }];
  });
}

function gradeOne(
  loaded: LoadedLab,
  file: { path: string; label: string },
  starter: ReturnType<typeof createStarter>,
  cache: ReplayCache,
  journals: Map<string, string>,
): GradedRow {
  const invalid = (problem: string): GradedRow => ({
    file: file.label,
    learner: undefined,
    submittedAt: undefined,
    status: 'invalid',
    score: undefined,
    recordedPercent: undefined,
    results: [],
    problems: [problem],
    notes: [],
  });
  let text: string;
  try {
    if (statSync(file.path).size > MAX_REPORT_BYTES) return invalid('file too large to be a grade report');
    text = readFileSync(file.path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return invalid(
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message,
    );
  }
  try {
    const report = parseReport(text);
    const g = regradeReport(loaded, report, {
      engine,
      start: starter.start,
      startState: starter.startState,
      cache,
    });
    journals.set(file.label, canonicalJson(report.submission.journal));
    const problems = g.flags.map(flagText);
    return {
      file: file.label,
      learner: report.learner,
      submittedAt: report.submittedAt,
      status: problems.length > 0 ? 'flagged' : 'ok',
      score: g.score,
      recordedPercent: report.score.percent,
      results: g.results,
      problems,
      notes: g.notes,
    };
  } catch (e) {
    return invalid((e as Error).message.split('\n')[0]!);
  }
}

/** Marks reports whose journals are identical to an earlier one: not proof of copying, worth a look. */
function noteDuplicates(rows: GradedRow[], journals: Map<string, string>): GradedRow[] {
  const firstByJournal = new Map<string, string>();
  return rows.map((r) => {
    const key = journals.get(r.file);
    if (key === undefined || r.status === 'invalid') return r;
    const first = firstByJournal.get(key);
    if (first === undefined) {
      firstByJournal.set(key, r.file);
      return r;
    }
    return { ...r, notes: [...r.notes, `same journal as ${first}`] };
  });
}

export function runGrade(argv: readonly string[], io: CliIO = processIO): number {
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
  const starter = createStarter(loaded, engine);
  const files = reportFiles(args.inputs, io.cwd);
  if (files.length === 0) {
    io.err('packetpath grade: no report files found\n');
    return 2;
  }
  const journals = new Map<string, string>();
  const cache = new ReplayCache();
  const rows = noteDuplicates(
    files.map((f) => gradeOne(loaded, f, starter, cache, journals)),
    journals,
  );
  for (const r of rows) {
    for (const p of r.problems) io.err(`packetpath grade: ${r.file}: ${p}\n`);
    for (const n of r.notes) io.err(`packetpath grade: ${r.file}: note: ${n}\n`);
  }
  io.out(cohortTable(rows));
  const checkIds = loaded.lab.checks.map((c) => c.id);
  const labInfo = { id: loaded.lab.id, version: loaded.lab.version, contentHash: labContentHash(loaded) };
  try {
    if (args.csv) writeFileSync(resolve(io.cwd, args.csv), cohortCsv(rows, checkIds));
    if (args.json) writeFileSync(resolve(io.cwd, args.json), cohortJson(rows, labInfo, args.locale));
  } catch (e) {
    io.err(`packetpath grade: ${(e as Error).message}\n`);
    return 2;
  }
  return rows.every((r) => r.status === 'ok') ? 0 : 1;
}

if (process.argv[1] && import.meta.filename === resolve(process.argv[1])) {
  process.exitCode = runGrade(process.argv.slice(2));
}
