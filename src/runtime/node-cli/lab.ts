/**
 * `packetpath lab validate [ID...] [--labs DIR]`: for every lab given (all of `labs/` by default), the
 * schema holds, the cluster boots, the start state fails at least one check, the solution passes every
 * check, and every text exists in both languages. Prints one line per problem; exit status 1 when any
 * lab has an error (warnings do not fail).
 */
import { basename, resolve } from 'node:path';
import { listLabDirs, loadFairnessFromDir, loadLabFromDir } from '../../grader/node/load-lab.ts';
import { engine, validateFairness, validateLab, type FairnessCounts } from './grade-deps.ts';
import { processIO, type CliIO } from './grade-io.ts';
import { resolveLabDir } from './grade.ts';

const USAGE = 'usage: packetpath lab validate [ID...] [--labs DIR]\n';

export interface LabReport {
  readonly dir: string;
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
  /** The lab's fairness cases and how many were graded otherwise than intended. */
  readonly fairness?: FairnessCounts;
}

/**
 * Validates one lab folder, its fairness cases (fairness.yaml: other right answers pass, near misses
 * fail naming their mistake) included; schema errors come back as errors, never as a throw.
 */
export function validateLabDir(dir: string): LabReport {
  try {
    const loaded = loadLabFromDir(dir);
    const lab = validateLab(loaded, engine);
    const fairness = loadFairnessFromDir(dir);
    if (!fairness)
      return {
        dir,
        errors: [
          ...lab.errors,
          'fairness.yaml: no such file (every lab carries alternative solutions and near misses)',
        ],
        warnings: lab.warnings,
      };
    const fair = validateFairness(loaded, fairness, engine);
    return { dir, errors: [...lab.errors, ...fair.errors], warnings: lab.warnings, fairness: fair.counts };
  } catch (e) {
    return { dir, errors: (e as Error).message.split('\n'), warnings: [] };
  }
}

function countsText(c: FairnessCounts | undefined): string {
  if (!c) return '';
  const wrong = c.wrong ? `, ${c.wrong} graded wrong` : '';
  return ` [${c.alternatives} alternatives, ${c.nearMisses} near misses${wrong}]`;
}

export function runLab(argv: readonly string[], io: CliIO = processIO): number {
  const [sub, ...rest] = argv;
  if (sub !== 'validate') {
    io.err(
      sub === undefined || sub === '-h' || sub === '--help'
        ? USAGE
        : `packetpath lab: unknown subcommand "${sub}"\n${USAGE}`,
    );
    return sub === undefined || sub === '-h' || sub === '--help' ? 0 : 2;
  }
  let labsDir = 'labs';
  const ids: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--labs' || a.startsWith('--labs=')) {
      const v = a.includes('=') ? a.slice(7) : rest[++i];
      if (!v) {
        io.err(`packetpath lab validate: --labs needs a value\n${USAGE}`);
        return 2;
      }
      labsDir = v;
    } else if (a.startsWith('-')) {
      io.err(`packetpath lab validate: unknown flag: ${a}\n${USAGE}`);
      return 2;
    } else ids.push(a);
  }
  const dirs =
    ids.length > 0
      ? ids.map((id) => resolveLabDir(id, io.cwd, labsDir))
      : listLabDirs(resolve(io.cwd, labsDir));
  if (dirs.length === 0) {
    io.err(`packetpath lab validate: no labs found in ${labsDir}\n`);
    return 2;
  }
  let failed = 0;
  for (const dir of dirs) {
    const r = validateLabDir(dir);
    const name = basename(dir);
    for (const w of r.warnings) io.err(`${name}: warning: ${w}\n`);
    for (const e of r.errors) io.err(`${name}: ${e.startsWith(dir) ? e.slice(dir.length + 1) : e}\n`);
    io.out(
      `${r.errors.length === 0 ? 'ok     ' : 'FAILED '} ${name}${r.errors.length ? ` (${r.errors.length} problems)` : ''}${countsText(r.fairness)}\n`,
    );
    if (r.errors.length > 0) failed++;
  }
  io.out(`${dirs.length - failed} of ${dirs.length} labs valid\n`);
  return failed > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.filename === resolve(process.argv[1])) {
  process.exitCode = runLab(process.argv.slice(2));
}
