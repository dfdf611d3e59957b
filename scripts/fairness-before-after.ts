/**
 * How many fairness cases (labs/NN-x/fairness.yaml) a version of the labs' checks grades wrong: an
 * alternative that fails a check, or a near miss that passes every check. Runs today's cases against
 * the lab.yaml files of a commit, on the current engine (so engine fixes are not counted):
 *
 *   npm exec -- node scripts/fairness-before-after.ts f628730   # the checks before issue 22
 *   npm exec -- node scripts/fairness-before-after.ts HEAD
 */
import { cpSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { engine } from '../src/grader/index.ts';
import { evaluateChecks } from '../src/grader/evaluate.ts';
import { listLabDirs, loadFairnessFromDir, loadLabFromDir } from '../src/grader/node/load-lab.ts';
import { playCase } from '../src/grader/fairness.ts';
import { historyOf } from '../src/grader/lab-runtime.ts';
import { correctAnswers } from '../src/grader/validate.ts';
import { resolveVariant } from '../src/grader/variants.ts';
const base = process.argv[2]!;
const root = join(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'fair-before-'));
let total = 0,
  wrongAll = 0;
for (const dir of listLabDirs(join(root, 'labs'))) {
  const id = dir.split('/').pop()!;
  const copy = join(tmp, id);
  cpSync(dir, copy, { recursive: true });
  if (base !== 'HEAD')
    writeFileSync(join(copy, 'lab.yaml'), execSync(`git -C ${root} show ${base}:labs/${id}/lab.yaml`));
  const loaded = loadLabFromDir(copy);
  const fair = loadFairnessFromDir(dir)!;
  const wrong: string[] = [];
  for (const c of [...fair.alternatives, ...fair.nearMisses]) {
    const lab = c.variant ? resolveVariant(loaded, c.variant) : loaded;
    try {
      const { cluster, journal } = playCase(lab, engine, c.steps);
      const rs = evaluateChecks(
        lab,
        cluster,
        { history: historyOf(journal), quizAnswers: { ...correctAnswers(lab.lab.checks), ...c.quiz } },
        { engine, revealHidden: true },
      );
      const allPass = rs.every((r) => r.status === 'pass');
      if ('fails' in c ? allPass : !allPass)
        wrong.push(
          `${'fails' in c ? 'accepted' : 'rejected'}:${c.id}${
            'fails' in c
              ? ''
              : ' (' +
                rs
                  .filter((r) => r.status !== 'pass')
                  .map((r) => r.id)
                  .join(',') +
                ')'
          }`,
        );
    } catch (e) {
      wrong.push(`error:${c.id}:${(e as Error).message.slice(0, 60)}`);
    }
    total++;
  }
  wrongAll += wrong.length;
  console.log(`${id}: ${wrong.length} wrong ${wrong.join(' ')}`);
}
console.log(`total ${total} cases, ${wrongAll} graded wrong`);
rmSync(tmp, { recursive: true, force: true });
