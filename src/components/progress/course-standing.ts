/**
 * Where each lab of the course stands, from the saved progress records (lab/progress.ts): status,
 * percent of checks passed, the variant a lab with variants drew. Pure, for the progress page.
 */
import { classify, type LabProgress } from '../lab/progress';
import { drawFrom } from '../../grader/draw';

/** localStorage: `{labId, path}` of the page the learner last ran a command on (lab-app.ts). */
export const LAST_PLACE_KEY = 'packetpath.lab.last';

/** The page to continue on for `labId`: the one last worked on when it holds that lab, else `fallback`. */
export function continuePath(labId: string, stored: string | null, fallback: string): string {
  try {
    const place = JSON.parse(stored ?? 'null') as { labId?: unknown; path?: unknown } | null;
    if (place?.labId === labId && typeof place.path === 'string' && place.path.startsWith('/')) {
      // The same page in this page's locale (the learner may have switched languages).
      const locale = fallback.split('/')[1];
      return place.path.replace(/^\/(pt-br|en)\//, `/${locale}/`);
    }
  } catch {
    // not ours: fall back
  }
  return fallback;
}

export interface CourseLab {
  readonly id: string;
  readonly title: string;
  readonly checks: number;
  readonly variants: readonly { readonly id: string; readonly title: string }[];
}

export type LabStatus = 'not-started' | 'in-progress' | 'done';

export interface LabStanding {
  readonly status: LabStatus;
  readonly passed: number;
  readonly total: number;
  readonly percent: number;
  /** Labs with variants: the one the learner's seed draws, and whether it may be named yet. */
  readonly variant?: { readonly title: string; readonly revealed: boolean };
  readonly updatedAt?: string;
}

/** Where a lab stands, from its saved record (or none). */
export function standing(lab: CourseLab, record: LabProgress | undefined): LabStanding {
  if (!record) return { status: 'not-started', passed: 0, total: lab.checks, percent: 0 };
  const total = record.checks?.total ?? lab.checks;
  const passed = record.checks?.passed ?? 0;
  const done = total > 0 && passed === total;
  const drawn = drawFrom(
    lab.id,
    lab.variants.map((v) => v.id),
    record.drawSeed ?? 0,
  );
  const title = lab.variants.find((v) => v.id === drawn)?.title;
  return {
    status: done ? 'done' : 'in-progress',
    passed,
    total,
    percent: total > 0 ? Math.round((passed / total) * 100) : 0,
    ...(title !== undefined ? { variant: { title, revealed: done } } : {}),
    updatedAt: record.updatedAt,
  };
}

/** Every readable record, by lab id (older formats classify as migrations: they are not counted). */
export function recordsById(raw: readonly unknown[]): Map<string, LabProgress> {
  const out = new Map<string, LabProgress>();
  for (const r of raw) {
    const labId = (r as { labId?: unknown } | null)?.labId;
    if (typeof labId !== 'string') continue;
    const stored = classify(r, labId);
    if (stored.kind === 'ok') out.set(labId, stored.progress);
  }
  return out;
}
