/**
 * The instructor page's grader, in a Web Worker so a big cohort never freezes the page. It holds
 * every bundled lab (fetched once when it starts, so grading works offline after), re-grades report
 * texts with the grader (formats/grade-texts.ts) and makes every download the CLI makes, in the
 * CLI's own formats. Nothing leaves the browser.
 */
import { strToU8, zipSync } from 'fflate';
import { engine, labContentHash, type Locale, type LoadedLab } from '../../grader/index.ts';
import { cohortLab, gradebook, type Cohort } from '../../grader/formats/cohort.ts';
import {
  canvasCsv,
  checksCsv,
  classroomCsv,
  gradescopeArray,
  gradescopeFolders,
  moodleCsv,
} from '../../grader/formats/gradebook.ts';
import { gradeReportTexts, type ReportText } from '../../grader/formats/grade-texts.ts';
import { cohortHtml, cohortSections } from '../../grader/formats/report-html.ts';
import { parseRoster, RosterError, type Roster } from '../../grader/formats/roster.ts';
import { reportsFromZip, ZipError } from '../../grader/formats/zip-reports.ts';
import { cohortCsv, cohortJson } from '../../runtime/node-cli/grade-output.ts';
import { labIds, loadBundledLab } from '../../runtime/labs.ts';
import type { GradeRequest, GradeResponse, WorkerMessage } from './messages.ts';

const labs = new Map<string, LoadedLab>();
const ready = Promise.all(
  labIds().map(async (id) => {
    labs.set(id, await loadBundledLab(id));
  }),
);

const post = (m: WorkerMessage) => postMessage(m);

/** The lab most reports name (an instructor drops one lab's folder; a stray report is then invalid). */
function labOf(texts: readonly ReportText[]): string | undefined {
  const counts = new Map<string, number>();
  for (const t of texts) {
    const m = /"lab"\s*:\s*\{\s*"id"\s*:\s*"([a-z0-9-]{1,63})"/.exec(t.text.slice(0, 400));
    if (m) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function downloads(
  cohort: Cohort,
  roster: Roster | undefined,
  locale: Locale,
  points: number,
  loaded: LoadedLab,
) {
  const opts = { locale, points };
  const book = gradebook(cohort, roster);
  const moodle = moodleCsv(cohort, book, opts);
  const classroom = classroomCsv(book, opts);
  const rows = cohort.entries.map((e) => ({ ...e, recordedPercent: undefined }));
  const folders: Record<string, Uint8Array> = {};
  for (const [name, text] of gradescopeFolders(cohort, book, opts)) folders[name] = strToU8(text);
  const id = cohort.lab.id;
  return {
    warnings: [...book.warnings, ...moodle.warnings, ...classroom.warnings],
    files: [
      { format: 'html', name: `${id}-cohort.html`, type: 'text/html', data: cohortHtml(cohort, locale) },
      { format: 'canvas', name: `${id}-canvas.csv`, type: 'text/csv', data: canvasCsv(cohort, book, opts) },
      { format: 'moodle', name: `${id}-moodle.csv`, type: 'text/csv', data: moodle.text },
      { format: 'classroom', name: `${id}-classroom.csv`, type: 'text/csv', data: classroom.text },
      { format: 'gradescope', name: `${id}-gradescope.zip`, type: 'application/zip', data: zipSync(folders) },
      {
        format: 'gradescope-json',
        name: `${id}-gradescope.json`,
        type: 'application/json',
        data: gradescopeArray(cohort, book, opts),
      },
      { format: 'checks', name: `${id}-checks.csv`, type: 'text/csv', data: checksCsv(cohort, opts) },
      {
        format: 'csv',
        name: `${id}-cohort.csv`,
        type: 'text/csv',
        data: cohortCsv(
          rows,
          cohort.lab.checks.map((c) => c.id),
        ),
      },
      {
        format: 'json',
        name: `${id}-cohort.json`,
        type: 'application/json',
        data: cohortJson(
          rows,
          { id, version: loaded.lab.version, contentHash: labContentHash(loaded) },
          locale,
        ),
      },
    ],
  };
}

async function grade(req: GradeRequest): Promise<GradeResponse> {
  await ready;
  const problems: string[] = [];
  const texts: ReportText[] = [];
  for (const f of req.files) {
    if (f.name.toLowerCase().endsWith('.zip')) {
      try {
        const zip = reportsFromZip(f.bytes, f.name);
        problems.push(...zip.problems);
        texts.push(...zip.files.map((z) => ({ name: `${f.name}:${z.name}`, text: z.text })));
      } catch (e) {
        problems.push(e instanceof ZipError ? e.message : `${f.name}: ${String(e)}`);
      }
    } else if (f.name.toLowerCase().endsWith('.json')) {
      texts.push({ name: f.name, text: new TextDecoder().decode(f.bytes) });
    }
  }
  let roster: Roster | undefined;
  if (req.roster) {
    try {
      roster = parseRoster(req.roster.text, req.roster.name);
    } catch (e) {
      return { kind: 'error', message: e instanceof RosterError ? e.message : String(e) };
    }
  }
  if (texts.length === 0) return { kind: 'error', message: 'no-reports', problems };
  const id = req.lab || labOf(texts);
  const loaded = id ? labs.get(id) : undefined;
  if (!loaded) return { kind: 'error', message: 'no-lab', problems };
  const entries = gradeReportTexts(loaded, texts, engine, (done) =>
    post({ kind: 'progress', done, total: texts.length }),
  );
  const cohort: Cohort = { lab: cohortLab(loaded), entries };
  const { warnings, files } = downloads(cohort, roster, req.locale, req.points, loaded);
  return {
    kind: 'graded',
    lab: id!,
    sections: cohortSections(cohort, req.locale, 3),
    problems: [...problems, ...entries.flatMap((e) => e.problems.map((p) => `${e.file}: ${p}`))],
    warnings,
    files,
  };
}

addEventListener('message', (event: MessageEvent<GradeRequest>) => {
  void grade(event.data).then(
    (r) => post({ kind: 'result', result: r }),
    (e: unknown) =>
      post({
        kind: 'result',
        result: { kind: 'error', message: e instanceof Error ? e.message : String(e) },
      }),
  );
});
void ready.then(() =>
  post({
    kind: 'ready',
    labs: [...labs.keys()].sort(),
    files: [self.location.href, ...performance.getEntriesByType('resource').map((e) => e.name)],
  }),
);
