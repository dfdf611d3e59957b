/**
 * A lab inside an LMS: the page a SCORM package opens (see node-cli/scorm.ts). The lab runs in the
 * same session class as the site's Web Worker (lab-session.ts), on the page's own thread (a package
 * is one static page an LMS serves from wherever it unpacks it); each command is followed by the
 * checks, whose score goes to the LMS through the SCORM 1.2 API, with the learner's journal and quiz
 * answers in cmi.suspend_data so that coming back replays where they left off (progress.ts: what is
 * kept when a long session outgrows the 4,096 characters SCORM 1.2 allows, and the learner is told).
 */
import en from '../../i18n/en.json' with { type: 'json' };
import ptBR from '../../i18n/pt-BR.json' with { type: 'json' };
import { labForLearner, MAX_DRAW_SEED, score, type LoadedLab } from '../../grader/index.ts';
import { sha256Hex } from '../../grader/content-hash.ts';
import { LabSession } from '../lab-session.ts';
import type { CheckSummary, LabInfo } from '../protocol.ts';
import { decodeProgress, encodeProgress, type Kept } from './progress.ts';
import { findApi, ScormSession } from './scorm-api.ts';

type Locale = 'en' | 'pt-BR';
type UiKey = Extract<keyof typeof en, `lab.${string}`>;
const UI: Readonly<Record<Locale, Readonly<Record<UiKey, string>>>> = { en, 'pt-BR': ptBR };

const $ = <T extends HTMLElement>(sel: string): T => {
  const el = document.querySelector<T>(sel);
  if (!el) throw new Error(`missing ${sel}`);
  return el;
};

/** A learner's seed from their LMS id, so each learner meets their own variant, the same every visit. */
function seedFor(studentId: string): number {
  return studentId === ''
    ? 0
    : Number.parseInt(sha256Hex(`scorm\n${studentId}`).slice(0, 8), 16) % MAX_DRAW_SEED;
}

function inline(text: string): DocumentFragment {
  // `code` spans, as the lab page shows them; everything else is text.
  const frag = document.createDocumentFragment();
  text.split(/(`[^`]+`)/).forEach((part) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) {
      const code = document.createElement('code');
      code.textContent = part.slice(1, -1);
      frag.append(code);
    } else frag.append(part);
  });
  return frag;
}

type Translate = (k: UiKey, p?: Record<string, string | number>) => string;

/** The lab's questions, each a fieldset of radios (or checkboxes) and an Answer button. */
function renderQuizzes(
  lab: LabInfo,
  locale: Locale,
  t: Translate,
  given: Readonly<Record<string, readonly string[]>>,
  answer: (id: string, choices: string[]) => void,
): void {
  const box = $('#quiz');
  const quizzes = lab.checks.flatMap((c) => (c.quiz ? [{ id: c.id, quiz: c.quiz }] : []));
  box.hidden = quizzes.length === 0;
  for (const { id, quiz } of quizzes) {
    const form = document.createElement('form');
    form.dataset.quiz = id;
    const set = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.append(inline(quiz.question[locale].trim()));
    if (quiz.multiple) legend.append(` ${t('lab.quizMultiple')}`);
    set.append(legend);
    for (const choice of quiz.choices) {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = quiz.multiple ? 'checkbox' : 'radio';
      input.name = id;
      input.value = choice.id;
      input.checked = given[id]?.includes(choice.id) ?? false;
      label.append(input, ' ', inline(choice.text[locale].trim()));
      set.append(label);
    }
    const go = document.createElement('button');
    go.type = 'submit';
    go.textContent = t('lab.quizAnswer');
    set.append(go);
    form.append(set);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const picked = [...form.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value);
      if (picked.length === 0) {
        $('#status').textContent = t('lab.quizPick');
        return;
      }
      answer(id, picked);
    });
    box.append(form);
  }
}

async function main(): Promise<void> {
  const locale: Locale = document.documentElement.lang === 'pt-BR' ? 'pt-BR' : 'en';
  const t = (k: UiKey, p: Record<string, string | number> = {}) =>
    UI[locale][k].replace(/\{(\w+)\}/g, (m, n: string) => (n in p ? String(p[n]) : m));
  const data = JSON.parse($('#packetpath-lab').textContent ?? '') as LoadedLab;
  const scorm = new ScormSession(findApi(window));
  scorm.initialize();
  const seed = seedFor(scorm.studentId);
  const loaded = labForLearner(data, { seed });
  const session = new LabSession(
    loaded,
    () => {},
    () => new Date().toISOString(),
    seed,
  );
  const saved = decodeProgress(scorm.suspendData);
  const result = await session.load(saved ? { kind: 'replay', journal: saved.journal } : { kind: 'fresh' });
  const lab = result.lab;
  for (const [id, choices] of Object.entries(saved?.quizAnswers ?? {})) {
    try {
      session.answer(id, choices);
    } catch {
      // A question the lab no longer asks, or a choice it no longer offers: that answer is not kept.
    }
  }
  /** Checks passed in an earlier session whose commands did not fit in cmi.suspend_data: they still count. */
  const passedBefore = new Set(saved?.passed ?? []);

  $('#lab-title').textContent = lab.title[locale];
  $('#lab-summary').replaceChildren(inline(lab.summary[locale]));
  const steps = $('#lab-steps');
  for (const s of lab.steps) {
    const li = document.createElement('li');
    li.append(inline(s[locale].trim()));
    steps.append(li);
  }
  const out = $<HTMLPreElement>('#terminal-output');
  const prompt = $('#terminal-prompt');
  const input = $<HTMLInputElement>('#terminal-input');
  prompt.textContent = result.prompt;
  const print = (text: string) => {
    out.textContent += text;
    out.scrollTop = out.scrollHeight;
  };
  // A session whose commands did not fit comes back as its files and the checks it had passed.
  const commandsDropped = passedBefore.size > 0 && !saved?.journal.some((step) => 'run' in step);
  if (saved) print(`${t(commandsDropped ? 'lab.restoredFiles' : 'lab.restored')}\n`);
  renderQuizzes(lab, locale, t, session.state().quizAnswers, (id, choices) => {
    session.answer(id, choices);
    checks();
  });

  let told: Kept = 'all';
  /** Says once, in the status line, what the LMS could not keep (never a silent loss). */
  const tellKept = (kept: Kept) => {
    if (kept === told) return;
    told = kept;
    if (kept !== 'all')
      $('#status').textContent = t(kept === 'files' ? 'lab.progressFilesOnly' : 'lab.progressAnswersOnly');
  };

  const checks = (): CheckSummary => {
    const summary = session.check();
    const list = $('#check-list');
    list.replaceChildren();
    for (const r of summary.results) {
      const li = document.createElement('li');
      const passed = r.status === 'pass';
      li.dataset.state = passed ? 'passed' : 'failed';
      const title = document.createElement('span');
      title.append(inline(r.title[locale]));
      const state = document.createElement('strong');
      state.textContent = ` ${passed ? t('lab.checkPassed') : t('lab.checkFailed')}`;
      li.append(title, state);
      if (!passed) {
        const why = document.createElement('div');
        why.className = 'why';
        why.textContent = [r.observed[locale], r.hop?.[locale]].filter(Boolean).join(' — ');
        li.append(why);
      }
      list.append(li);
    }
    const s = score(summary.results);
    const all = summary.total > 0 && summary.passed === summary.total;
    $('#check-summary').textContent = all
      ? t('lab.checkAllPassed')
      : t('lab.checkSummary', { passed: summary.passed, total: summary.total, percent: s.percent });
    const passedNow = summary.results.filter((r) => r.status === 'pass').map((r) => r.id);
    const counted = score(
      summary.results.map((r) => ({ status: passedBefore.has(r.id) ? ('pass' as const) : r.status })),
    );
    const state = session.state();
    const progress = encodeProgress(
      {
        journal: state.journal,
        quizAnswers: state.quizAnswers,
        passed: [...passedBefore],
        files: session.files(),
        startFiles: lab.startFiles,
      },
      passedNow,
    );
    tellKept(progress.kept);
    scorm.report(
      { percent: counted.percent, allPassed: counted.total > 0 && counted.passed === counted.total },
      progress.text,
    );
    return summary;
  };

  const run = (line: string) => {
    print(`${prompt.textContent} ${line}\n`);
    const r = session.exec(line);
    if (r.clear) out.textContent = '';
    print(r.output ? r.output.map((c) => c.text).join('') : r.stdout + r.stderr);
    prompt.textContent = r.prompt;
    checks();
  };

  $<HTMLFormElement>('#terminal').addEventListener('submit', (e) => {
    e.preventDefault();
    const line = input.value;
    input.value = '';
    if (line.trim() !== '') run(line);
  });

  let hintLevel = 0;
  $('#hint').addEventListener('click', () => {
    const box = $('#hints');
    if (hintLevel >= lab.hints.length) {
      $('#status').textContent = t('lab.noMoreHints');
      return;
    }
    hintLevel++;
    const li = document.createElement('li');
    li.append(
      `${t('lab.hintN', { n: hintLevel, total: lab.hints.length })}: `,
      inline(lab.hints[hintLevel - 1]![locale]),
    );
    box.append(li);
    box.hidden = false;
  });

  $('#solution').addEventListener('click', () => {
    if (!window.confirm(t('lab.solutionConfirm'))) return;
    const box = $('#solution-box');
    box.replaceChildren();
    const h = document.createElement('h3');
    h.textContent = t('lab.solutionHeading');
    const pre = document.createElement('pre');
    pre.textContent = lab.solution.commands.join('\n');
    const files = Object.keys(lab.solution.files);
    const p = document.createElement('p');
    p.textContent = files.length ? `${t('lab.solutionFiles')} ${files.join(', ')}` : '';
    const go = document.createElement('button');
    go.type = 'button';
    go.textContent = t('lab.solutionRun');
    go.addEventListener('click', () => {
      for (const [path, content] of Object.entries(lab.solution.files)) session.writeFile(path, content);
      for (const line of lab.solution.commands) run(line);
    });
    box.append(h, p, pre, go);
    box.hidden = false;
  });

  $('#check').addEventListener('click', () => {
    const s = checks();
    $('#status').textContent =
      s.passed === s.total
        ? t('lab.checkAllPassed')
        : t('lab.checkSummary', { passed: s.passed, total: s.total, percent: score(s.results).percent });
  });

  const report = () => session.report(locale, new Date().toISOString(), scorm.studentName || undefined);
  $('#report').addEventListener('click', () => {
    const blob = new Blob([`${JSON.stringify(report(), null, 2)}\n`], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `packetpath-report-${lab.id}.json`;
    a.click();
    URL.revokeObjectURL(a.href);
  });

  window.addEventListener('pagehide', () => scorm.finish());
  // For tests and for an instructor's console: the report the Download button makes.
  Object.assign(window, { packetpathReport: report });
  checks();
  document.body.dataset.ready = 'true';
  input.focus();
}

void main().catch((e: unknown) => {
  const status = document.querySelector('#status');
  if (status) status.textContent = `The lab could not start: ${e instanceof Error ? e.message : String(e)}`;
});
