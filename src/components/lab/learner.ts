/**
 * The learner's name for grade reports, kept site-wide in localStorage (see LabApp.wireLearner for why
 * not with a lab's progress). Stored as typed; the host normalises it when it builds a report
 * (`learnerName` in protocol.ts). Storage can be off (private modes, blocked cookies): then the field
 * still works for this page and nothing is remembered.
 */
export const LEARNER_STORAGE_KEY = 'packetpath.learner';

export function readLearner(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): string {
  try {
    return storage?.getItem(LEARNER_STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}

export function writeLearner(
  name: string,
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined = safeStorage(),
): void {
  try {
    if (name.trim() === '') storage?.removeItem(LEARNER_STORAGE_KEY);
    else storage?.setItem(LEARNER_STORAGE_KEY, name);
  } catch {
    // quota or storage off: the name stays in the field for this page
  }
}

/** `localStorage` itself can throw on access (a sandboxed frame, storage disabled). */
function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
