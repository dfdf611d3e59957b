/**
 * The cohort report: one HTML page with everything inline (styles, an SVG chart; no script, no font,
 * no request), so it opens from a disk, a mail attachment or an LMS file area, offline. In the
 * instructor's language; check titles and explanations come from the lab in that language too.
 */
import type { Locale } from '../lab-schema.ts';
import type { Cohort } from './cohort.ts';
import { checkStats, type CheckStats } from './gradebook.ts';

const TEXT = {
  en: {
    title: 'Cohort report',
    lab: 'Lab',
    summary: '{reports} reports: {ok} ok, {flagged} flagged, {invalid} invalid. Mean score {mean}.',
    learners: 'Learners',
    report: 'Report',
    learner: 'Learner',
    submitted: 'Submitted',
    score: 'Score',
    variant: 'Variant',
    status: 'Status',
    failing: 'Failing checks',
    passRate: 'Pass rate per check',
    chartLabel: 'Share of graded reports that pass each check',
    mostFailed: 'Checks most learners fail',
    noneFailed: 'Every graded report passes every check.',
    failedBy: 'fails in {failed} of {graded} reports',
    why: 'Most common reason ({count}×):',
    variants: 'Variant spread',
    variantsNone: 'This lab has no variants.',
    reports: 'Reports',
    meanScore: 'Mean score',
    problems: 'Flagged and invalid reports',
    problem: 'Problem',
    problemsNone: 'No report is flagged or invalid.',
    ok: 'ok',
    flagged: 'flagged',
    invalid: 'invalid',
    hidden: 'hidden',
    none: '–',
    generated:
      'Re-graded by replaying each report in the Packet Path grader: the recorded scores are not trusted.',
  },
  'pt-BR': {
    title: 'Relatório da turma',
    lab: 'Lab',
    summary: '{reports} relatórios: {ok} ok, {flagged} sinalizados, {invalid} inválidos. Nota média {mean}.',
    learners: 'Estudantes',
    report: 'Relatório',
    learner: 'Estudante',
    submitted: 'Enviado em',
    score: 'Nota',
    variant: 'Variante',
    status: 'Situação',
    failing: 'Verificações que falham',
    passRate: 'Taxa de acerto por verificação',
    chartLabel: 'Parcela dos relatórios corrigidos que passam em cada verificação',
    mostFailed: 'Verificações em que a turma mais falha',
    noneFailed: 'Todos os relatórios corrigidos passam em todas as verificações.',
    failedBy: 'falha em {failed} de {graded} relatórios',
    why: 'Motivo mais comum ({count}×):',
    variants: 'Distribuição das variantes',
    variantsNone: 'Este lab não tem variantes.',
    reports: 'Relatórios',
    meanScore: 'Nota média',
    problems: 'Relatórios sinalizados e inválidos',
    problem: 'Problema',
    problemsNone: 'Nenhum relatório sinalizado ou inválido.',
    ok: 'ok',
    flagged: 'sinalizado',
    invalid: 'inválido',
    hidden: 'oculta',
    none: '–',
    generated:
      'Corrigido reproduzindo cada relatório no corretor do Packet Path: as notas registradas não são levadas em conta.',
  },
} as const satisfies Record<Locale, Record<string, string>>;
type Key = keyof (typeof TEXT)['en'];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Check titles carry inline `code`, as on the lab page. */
function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--pass:#1a7f37;--fail:#cf222e;--bar:#0969da;--track:#eaeef2}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--pass:#3fb950;--fail:#f85149;--bar:#4493f8;--track:#21262d}}
*{box-sizing:border-box}body{margin:0 auto;max-width:72rem;padding:1.5rem;font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid var(--line);padding-bottom:.3rem}
p.muted,.muted{color:var(--muted)}code{font-family:ui-monospace,monospace;font-size:.9em}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.92rem}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:var(--pass)}.flagged,.invalid{color:var(--fail)}
svg text{fill:var(--fg);font:13px system-ui,sans-serif}svg .track{fill:var(--track)}svg .bar{fill:var(--bar)}
ol.failed li{margin-bottom:.8rem}
`;

function chart(stats: readonly CheckStats[], label: string, t: (k: Key) => string): string {
  const rowH = 28;
  const labelW = 260;
  const barW = 360;
  const height = stats.length * rowH + 8;
  const rows = stats.map((s, i) => {
    const y = i * rowH + 4;
    const rate = s.passRate ?? 0;
    const title = s.title.replace(/`/g, '');
    const name = title.length > 38 ? `${title.slice(0, 37)}…` : title;
    return `<g><title>${escapeHtml(`${title}: ${s.passRate ?? t('none')}%`)}</title><text x="0" y="${y + 17}">${escapeHtml(name)}</text><rect class="track" x="${labelW}" y="${y + 4}" width="${barW}" height="16" rx="3"/><rect class="bar" x="${labelW}" y="${y + 4}" width="${((barW * rate) / 100).toFixed(1)}" height="16" rx="3"/><text x="${labelW + barW + 8}" y="${y + 17}">${s.passRate === undefined ? t('none') : `${s.passRate}%`}</text></g>`;
  });
  return `<svg role="img" aria-label="${escapeHtml(label)}" viewBox="0 0 ${labelW + barW + 60} ${height}" width="100%" style="max-width:${labelW + barW + 60}px">${rows.join('')}</svg>`;
}

/** The report's sections (the instructor page shows these very ones). */
export function cohortSections(cohort: Cohort, locale: Locale, level = 1): string {
  const h = level;
  const h2 = level + 1;
  const t = (k: Key, params: Record<string, string | number> = {}) =>
    (TEXT[locale][k] as string).replace(/\{(\w+)\}/g, (m, n: string) =>
      n in params ? String(params[n]) : m,
    );
  const { lab, entries } = cohort;
  const graded = entries.filter((e) => e.status !== 'invalid' && e.score);
  const mean = graded.length
    ? `${Math.round(graded.reduce((n, e) => n + e.score!.percent, 0) / graded.length)}%`
    : t('none');
  const count = (s: string) => entries.filter((e) => e.status === s).length;
  const titles = new Map(lab.checks.map((c) => [c.id, c.title[locale]]));
  const stats = checkStats(cohort, locale);
  const withVariants = lab.variants.length > 0;

  const learnerRows = entries.map((e) => {
    const failing = e.results
      .filter((r) => r.status !== 'pass')
      .map((r) => inlineCode(titles.get(r.id) ?? r.id));
    return `<tr><td>${escapeHtml(e.file)}</td><td>${escapeHtml(e.learner ?? t('none'))}</td><td>${escapeHtml(e.submittedAt ?? t('none'))}</td><td class="num">${e.score ? `${e.score.percent}% (${e.score.passed}/${e.score.total})` : t('none')}</td>${withVariants ? `<td>${escapeHtml(e.variant ?? t('none'))}</td>` : ''}<td class="${e.status}">${t(e.status)}</td><td>${failing.join('<br>') || t('none')}</td></tr>`;
  });

  const failed = stats
    .filter((s) => s.failed > 0)
    .sort((a, b) => (a.passRate ?? 0) - (b.passRate ?? 0) || b.failed - a.failed)
    .slice(0, 5)
    .map(
      (s) =>
        `<li><strong>${inlineCode(s.title)}</strong>${s.hidden ? ` <span class="muted">(${t('hidden')})</span>` : ''} — ${t('failedBy', { failed: s.failed, graded: s.graded })}${s.topReason ? `<br><span class="muted">${t('why', { count: s.topReason.count })}</span> ${escapeHtml(s.topReason.text)}` : ''}</li>`,
    );

  const variantRows = lab.variants.map((v) => {
    const of = graded.filter((e) => e.variant === v);
    const m = of.length
      ? `${Math.round(of.reduce((n, e) => n + e.score!.percent, 0) / of.length)}%`
      : t('none');
    return `<tr><td>${escapeHtml(v)}</td><td class="num">${entries.filter((e) => e.variant === v).length}</td><td class="num">${m}</td></tr>`;
  });

  const problems = entries
    .filter((e) => e.status !== 'ok')
    .map(
      (e) =>
        `<tr><td>${escapeHtml(e.file)}</td><td>${escapeHtml(e.learner ?? t('none'))}</td><td class="${e.status}">${t(e.status)}</td><td>${e.problems.map(escapeHtml).join('<br>')}</td></tr>`,
    );

  return `<p class="muted">${t('lab')} ${escapeHtml(lab.id)} · v${lab.version}</p>
<h${h}>${t('title')}: ${inlineCode(lab.title[locale])}</h${h}>
<p>${t('summary', { reports: entries.length, ok: count('ok'), flagged: count('flagged'), invalid: count('invalid'), mean })}</p>
<p class="muted">${t('generated')}</p>

<h${h2} id="learners">${t('learners')}</h${h2}>
<div class="scroll" tabindex="0"><table>
<thead><tr><th scope="col">${t('report')}</th><th scope="col">${t('learner')}</th><th scope="col">${t('submitted')}</th><th scope="col" class="num">${t('score')}</th>${withVariants ? `<th scope="col">${t('variant')}</th>` : ''}<th scope="col">${t('status')}</th><th scope="col">${t('failing')}</th></tr></thead>
<tbody>${learnerRows.join('\n')}</tbody>
</table></div>

<h${h2} id="pass-rate">${t('passRate')}</h${h2}>
${chart(stats, t('chartLabel'), t)}

<h${h2} id="most-failed">${t('mostFailed')}</h${h2}>
${failed.length ? `<ol class="failed">${failed.join('\n')}</ol>` : `<p>${t('noneFailed')}</p>`}

<h${h2} id="variants">${t('variants')}</h${h2}>
${withVariants ? `<table><thead><tr><th scope="col">${t('variant')}</th><th scope="col" class="num">${t('reports')}</th><th scope="col" class="num">${t('meanScore')}</th></tr></thead><tbody>${variantRows.join('')}</tbody></table>` : `<p>${t('variantsNone')}</p>`}

<h${h2} id="problems">${t('problems')}</h${h2}>
${problems.length ? `<div class="scroll" tabindex="0"><table><thead><tr><th scope="col">${t('report')}</th><th scope="col">${t('learner')}</th><th scope="col">${t('status')}</th><th scope="col">${t('problem')}</th></tr></thead><tbody>${problems.join('\n')}</tbody></table></div>` : `<p>${t('problemsNone')}</p>`}
`;
}

/** The whole page: the sections above with their styles, nothing else. */
export function cohortHtml(cohort: Cohort, locale: Locale): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(`${TEXT[locale].title}: ${cohort.lab.id}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${cohortSections(cohort, locale)}</main>
</body>
</html>
`;
}
