/**
 * The instructor page: reports picked, dropped or chosen as a folder (or zips of them) are read in
 * the page and handed to the grading worker; the cohort comes back as the cohort report's own
 * sections and every download. Nothing is uploaded: files go from the disk to the worker.
 */
import type { Download, GradeRequest, GradeResponse, WorkerMessage } from './messages.ts';
import { keepOffline } from './offline.ts';

type Strings = Record<string, string>;

const fill = (t: string, p: Record<string, string | number>) =>
  t.replace(/\{(\w+)\}/g, (m, n: string) => (n in p ? String(p[n]) : m));

export function startInstructorPage(root: HTMLElement): void {
  const s = JSON.parse(root.dataset.strings ?? '{}') as Strings;
  const locale = root.dataset.locale === 'en' ? 'en' : 'pt-BR';
  const q = <T extends HTMLElement>(sel: string) => root.querySelector<T>(sel)!;
  const status = q('[data-status]');
  const results = q('[data-results]');
  const downloads = q('[data-downloads]');
  const problems = q('[data-problems]');
  const labSelect = q<HTMLSelectElement>('[data-lab]');
  const points = q<HTMLInputElement>('[data-points]');
  const rosterInput = q<HTMLInputElement>('[data-roster]');
  let files: File[] = [];

  const worker = new Worker(new URL('./grade-worker.ts', import.meta.url), {
    type: 'module',
    name: 'packetpath-instructor',
  });
  const say = (text: string) => (status.textContent = text);

  const grade = async () => {
    if (files.length === 0) return;
    say(fill(s.reading!, { count: files.length }));
    const request: GradeRequest = {
      files: await Promise.all(
        files.map(async (f) => ({
          name: f.webkitRelativePath || f.name,
          bytes: new Uint8Array(await f.arrayBuffer()),
        })),
      ),
      ...(rosterInput.files?.[0]
        ? { roster: { name: rosterInput.files[0].name, text: await rosterInput.files[0].text() } }
        : {}),
      lab: labSelect.value,
      locale,
      points: Number(points.value) > 0 ? Number(points.value) : 100,
    };
    worker.postMessage(
      request,
      request.files.map((f) => f.bytes.buffer),
    );
  };

  const show = (r: GradeResponse) => {
    problems.replaceChildren();
    downloads.replaceChildren();
    if (r.kind === 'error') {
      results.replaceChildren();
      say(r.message === 'no-reports' ? s.noReports! : r.message === 'no-lab' ? s.noLab! : r.message);
      for (const p of r.problems ?? [])
        problems.append(Object.assign(document.createElement('li'), { textContent: p }));
      return;
    }
    // The grader escaped every text of these sections (report-html.ts): reports cannot inject markup.
    results.innerHTML = r.sections;
    for (const line of [...r.problems, ...r.warnings])
      problems.append(Object.assign(document.createElement('li'), { textContent: line }));
    for (const d of r.files) downloads.append(downloadButton(d));
    say(fill(s.graded!, { lab: r.lab }));
  };

  const downloadButton = (d: Download) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = s[`format.${d.format}`] ?? d.format;
    b.dataset.format = d.format;
    b.addEventListener('click', () => {
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([d.data as BlobPart], { type: d.type }));
      a.download = d.name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    });
    return b;
  };

  worker.addEventListener('message', (e: MessageEvent<WorkerMessage>) => {
    const m = e.data;
    if (m.kind === 'ready') {
      for (const id of m.labs) labSelect.append(new Option(id, id));
      root.dataset.ready = 'true';
      say(s.ready!);
      // Said only once the files are kept: "works offline" must be true when it is read.
      void keepOffline(root.dataset.build ?? 'dev', m.files)
        .then((kept) => {
          root.dataset.offline = kept ? 'ready' : 'unavailable';
          if (kept && status.textContent === s.ready) say(s.offline!);
        })
        .catch(() => (root.dataset.offline = 'unavailable'));
    } else if (m.kind === 'progress') say(fill(s.progress!, { done: m.done, total: m.total }));
    else show(m.result);
  });

  const take = (list: FileList | File[] | null | undefined) => {
    files = [...(list ?? [])].filter((f) => /\.(json|zip)$/i.test(f.name));
    void grade();
  };
  q<HTMLInputElement>('[data-files]').addEventListener('change', (e) =>
    take((e.target as HTMLInputElement).files),
  );
  q<HTMLInputElement>('[data-folder]').addEventListener('change', (e) =>
    take((e.target as HTMLInputElement).files),
  );
  for (const el of [rosterInput, labSelect, points]) el.addEventListener('change', () => void grade());
  const drop = q('[data-drop]');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.dataset.over = 'true';
  });
  drop.addEventListener('dragleave', () => delete drop.dataset.over);
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    delete drop.dataset.over;
    take(e.dataTransfer?.files);
  });
}
