/** What the instructor page and its grading worker say to each other (plain, structured-clone data). */
import type { Locale } from '../../grader/index.ts';

export interface GradeRequest {
  readonly files: readonly { readonly name: string; readonly bytes: Uint8Array }[];
  readonly roster?: { readonly name: string; readonly text: string };
  /** A lab id, or '' for the one the reports name. */
  readonly lab: string;
  readonly locale: Locale;
  readonly points: number;
}

export interface Download {
  readonly format: string;
  readonly name: string;
  readonly type: string;
  readonly data: string | Uint8Array;
}

export type GradeResponse =
  | {
      readonly kind: 'graded';
      readonly lab: string;
      /** The cohort report's sections, as HTML the grader escaped (formats/report-html.ts). */
      readonly sections: string;
      readonly problems: readonly string[];
      readonly warnings: readonly string[];
      readonly files: readonly Download[];
    }
  | { readonly kind: 'error'; readonly message: string; readonly problems?: readonly string[] };

export type WorkerMessage =
  | {
      readonly kind: 'ready';
      readonly labs: readonly string[];
      /** Every file the worker loaded (its script, the grader, the labs): kept for offline use. */
      readonly files: readonly string[];
    }
  | { readonly kind: 'progress'; readonly done: number; readonly total: number }
  | { readonly kind: 'result'; readonly result: GradeResponse };
