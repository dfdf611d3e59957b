/**
 * The lab's tools beside the main flow: the Tools menu's report download, open-file download and
 * learner name, the keyboard shortcuts, and remembering where the learner works (the progress page's
 * "continue where you left off").
 */
import type { LabUi } from './lab-ui';
import { download, downloadJson, today } from './lab-ui';
import type { HostSession } from './host-session';
import type { LabFiles } from './lab-files';
import { fileDownload } from './file-download';
import { shortcutFor } from './lab-shortcuts';
import { readLearner, writeLearner, LEARNER_STORAGE_KEY } from './learner';
import { LAST_PLACE_KEY } from '../progress/course-standing';

/** Download report: the host builds it (with the name from the field, if any), after pending edits. */
export async function downloadReport(
  ui: LabUi,
  session: Pick<HostSession, 'request'>,
  files: Pick<LabFiles, 'flush'>,
): Promise<void> {
  let report: unknown;
  try {
    await files.flush();
    report = await session.request('report', {
      locale: ui.lang,
      submittedAt: new Date().toISOString(),
      learner: (ui.$('[data-learner]') as HTMLInputElement).value,
    });
  } catch (e) {
    ui.say(ui.t('lab.reportFailed', { reason: e instanceof Error ? e.message : String(e) }));
    return;
  }
  downloadJson(`packetpath-report-${ui.labId}-${today()}.json`, report);
}

/** The file open in the editor, as a download (a capture as its bytes: file-download.ts). */
export function downloadOpenFile(ui: LabUi, files: Pick<LabFiles, 'current' | 'get'>): void {
  const path = files.current;
  const content = path === undefined ? undefined : files.get(path);
  if (path === undefined || content === undefined) return ui.say(ui.t('lab.downloadNothing'));
  const { name, blob } = fileDownload(path, content);
  download(name, blob);
}

/**
 * The optional name for grade reports. Kept site-wide (localStorage), not with a lab's progress: it
 * belongs to the learner, not to a lab, so it is typed once for every lab, survives Reset and "new
 * fault", and needs no change to the saved-progress format. Other tabs pick up a change.
 */
export function wireLearner(ui: LabUi): void {
  const input = ui.$('[data-learner]') as HTMLInputElement;
  input.value = readLearner();
  input.addEventListener('input', () => writeLearner(input.value));
  addEventListener('storage', (e) => {
    if (e.key === LEARNER_STORAGE_KEY && document.activeElement !== input) input.value = e.newValue ?? '';
  });
}

/**
 * Alt+Shift+C checks, Alt+Shift+H gives a hint, Alt+Shift+M toggles full window (listed in the ?
 * popover). Taken in the capture phase, before the terminal turns them into Meta sequences, while
 * the focus is in this lab (or it is in full window).
 */
export function wireShortcuts(ui: LabUi, maximized: () => boolean): void {
  document.addEventListener(
    'keydown',
    (e) => {
      const action = shortcutFor(e);
      if (!action) return;
      if (!ui.root.contains(document.activeElement) && !maximized()) return;
      e.preventDefault();
      e.stopPropagation();
      ui.$(`[data-action="${action}"]`).click();
    },
    { capture: true },
  );
}

/**
 * Where the learner last worked: the page and its lab, for the progress page's "continue where you
 * left off" (a lab such as the sandbox is embedded in several chapters; this is the one they used).
 */
export function rememberPlace(labId: string): void {
  try {
    localStorage.setItem(LAST_PLACE_KEY, JSON.stringify({ labId, path: location.pathname }));
  } catch {
    // storage off: the progress page links the lab's first chapter instead
  }
}
