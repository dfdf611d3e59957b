/**
 * The SCORM 1.2 run-time API as a lab sees it (SCORM 1.2 Run-Time Environment, §3.2–3.3): find the
 * LMS's `API` object in a parent frame or the opener, `LMSInitialize("")` once, `LMSSetValue` the
 * score and status, `LMSCommit("")` after each change, `LMSFinish("")` when the learner leaves. The
 * calls return the strings "true"/"false"; a missing API (the page opened on its own) is no error:
 * the lab still works, nothing is reported.
 */
import { SUSPEND_DATA_MAX } from './progress.ts';

export interface Scorm12Api {
  LMSInitialize(arg: ''): string;
  LMSFinish(arg: ''): string;
  LMSGetValue(element: string): string;
  LMSSetValue(element: string, value: string): string;
  LMSCommit(arg: ''): string;
  LMSGetLastError(): string;
}

type ApiWindow = Window & { API?: Scorm12Api };

/** The ADL's search: up the parent chain (at most 7 levels), then the opener's chain. */
export function findApi(start: Window): Scorm12Api | undefined {
  const climb = (from: Window | null | undefined): Scorm12Api | undefined => {
    let w: ApiWindow | null | undefined = from;
    for (let depth = 0; w && depth <= 7; depth++) {
      try {
        if (w.API) return w.API;
      } catch {
        return undefined; // a cross-origin frame: not ours to read
      }
      if (w.parent === w) break;
      w = w.parent;
    }
    return undefined;
  };
  return climb(start) ?? climb(start.opener as Window | null);
}

export interface ScormScore {
  readonly percent: number;
  readonly allPassed: boolean;
}

/** A session with the LMS: the calls above, in their order, each commit after a change. */
export class ScormSession {
  private readonly api: Scorm12Api | undefined;
  private open = false;

  constructor(api: Scorm12Api | undefined) {
    this.api = api;
  }

  get connected(): boolean {
    return this.open;
  }

  initialize(): void {
    if (!this.api) return;
    this.open = this.api.LMSInitialize('') === 'true';
    if (!this.open) return;
    const status = this.api.LMSGetValue('cmi.core.lesson_status');
    if (status === 'not attempted' || status === '')
      this.api.LMSSetValue('cmi.core.lesson_status', 'incomplete');
    this.api.LMSCommit('');
  }

  get studentId(): string {
    return this.open ? this.api!.LMSGetValue('cmi.core.student_id') : '';
  }

  get studentName(): string {
    return this.open ? this.api!.LMSGetValue('cmi.core.student_name') : '';
  }

  get suspendData(): string {
    return this.open ? this.api!.LMSGetValue('cmi.suspend_data') : '';
  }

  /**
   * The score as a percent of checks passed; passed once every check passes. `suspendData` comes from
   * progress.ts's encodeProgress, which keeps it within SUSPEND_DATA_MAX (this guard only refuses to
   * hand an LMS a value SCORM 1.2 does not allow).
   */
  report(score: ScormScore, suspendData: string): void {
    if (!this.open) return;
    const api = this.api!;
    api.LMSSetValue('cmi.core.score.min', '0');
    api.LMSSetValue('cmi.core.score.max', '100');
    api.LMSSetValue('cmi.core.score.raw', String(score.percent));
    api.LMSSetValue('cmi.core.lesson_status', score.allPassed ? 'passed' : 'incomplete');
    if (suspendData.length <= SUSPEND_DATA_MAX) api.LMSSetValue('cmi.suspend_data', suspendData);
    api.LMSCommit('');
  }

  finish(): void {
    if (!this.open) return;
    this.open = false;
    this.api!.LMSSetValue('cmi.core.exit', 'suspend');
    this.api!.LMSCommit('');
    this.api!.LMSFinish('');
  }
}
