/**
 * `<pp-course-progress>`: fills the course progress page (CourseProgress.astro) from the saved
 * progress in this browser (the labs' IndexedDB records, lab/progress.ts): each lab's status and
 * percent of checks passed, the capstone's variant (named once it is solved, as the lab itself does),
 * a link to the lab worked on last, and export/import of every lab's progress as one file.
 */
import { ProgressStore, buildExport, parseExport } from '../lab/progress';
import { downloadJson, fmt } from '../lab/lab-ui';
import { LAST_PLACE_KEY, continuePath, recordsById, standing, type CourseLab } from './course-standing';

export type { CourseLab };

export class PpCourseProgress extends HTMLElement {
  private readonly store = new ProgressStore();
  private t: (key: string, params?: Record<string, string | number>) => string = (k) => k;

  connectedCallback(): void {
    const strings = JSON.parse(this.dataset.strings ?? '{}') as Record<string, string>;
    this.t = (key, params) => fmt(strings[key] ?? key, params);
    const file = this.querySelector<HTMLInputElement>('[data-import-file]')!;
    this.querySelector('[data-export]')!.addEventListener('click', () => void this.exportAll());
    this.querySelector('[data-import]')!.addEventListener('click', () => file.click());
    file.addEventListener('change', () => {
      const chosen = file.files?.[0];
      file.value = '';
      if (chosen) void chosen.text().then((text) => this.importText(text));
    });
    void this.render();
  }

  private say(text: string): void {
    this.querySelector('[data-summary]')!.textContent = text;
  }

  async render(): Promise<void> {
    let raw: unknown[];
    try {
      raw = await this.store.all();
    } catch {
      this.say(this.t('progress.storageOff'));
      return;
    }
    const records = recordsById(raw);
    const labs = JSON.parse(this.dataset.labs ?? '[]') as CourseLab[];
    const byId = new Map(labs.map((l) => [l.id, l]));
    let done = 0;
    let last: { id: string; href: string; title: string; at: string } | undefined;
    for (const row of this.querySelectorAll<HTMLTableRowElement>('tr[data-lab]')) {
      const lab = byId.get(row.dataset.lab!);
      if (!lab) continue;
      const s = standing(lab, records.get(lab.id));
      row.dataset.state = s.status;
      row.querySelector('[data-status]')!.textContent = this.t(
        s.status === 'done'
          ? 'progress.done'
          : s.status === 'in-progress'
            ? 'progress.inProgress'
            : 'progress.notStarted',
      );
      const bar = row.querySelector('progress')!;
      bar.max = Math.max(s.total, 1);
      bar.value = s.passed;
      row.querySelector('[data-percent]')!.textContent = this.t('progress.percent', {
        passed: s.passed,
        total: s.total,
        percent: s.percent,
      });
      const variant = row.querySelector('[data-variant]');
      if (variant)
        variant.textContent = s.variant
          ? s.variant.revealed
            ? this.t('progress.variantRevealed', { title: s.variant.title })
            : this.t('progress.variantHidden')
          : '';
      if (s.status === 'done') done++;
      if (s.updatedAt && (!last || s.updatedAt > last.at))
        last = { id: lab.id, href: row.dataset.href!, title: lab.title, at: s.updatedAt };
    }
    this.say(this.t('progress.summary', { done, total: labs.length }));
    const cont = this.querySelector<HTMLElement>('[data-continue]')!;
    cont.replaceChildren();
    if (last) {
      const a = document.createElement('a');
      a.href = continuePath(last.id, readPlace(), last.href);
      a.textContent = this.t('progress.continue', { lab: last.title });
      cont.append(a);
    } else {
      cont.textContent = this.t('progress.nothingYet');
    }
    cont.hidden = false;
    this.dataset.ready = 'true';
  }

  private async exportAll(): Promise<void> {
    const records = await this.store.all().catch(() => []);
    downloadJson(`packetpath-progress-${new Date().toISOString().slice(0, 10)}.json`, buildExport(records));
  }

  private async importText(text: string): Promise<void> {
    try {
      const entries = parseExport(text);
      for (const { record } of entries) await this.store.put(record as Record<string, unknown>);
      await this.render();
      this.say(this.t('progress.imported', { count: entries.length }));
    } catch (e) {
      this.say(this.t('progress.importFailed', { reason: e instanceof Error ? e.message : String(e) }));
    }
  }
}

function readPlace(): string | null {
  try {
    return localStorage.getItem(LAST_PLACE_KEY);
  } catch {
    return null;
  }
}

export function defineCourseProgress(): void {
  if (!customElements.get('pp-course-progress'))
    customElements.define('pp-course-progress', PpCourseProgress);
}
