import { describe, expect, it } from 'vitest';
import { LEARNER_STORAGE_KEY, readLearner, writeLearner } from './learner';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('the learner name in storage', () => {
  it('keeps the name as typed, and forgets a blank one', () => {
    const s = memoryStorage();
    expect(readLearner(s)).toBe('');
    writeLearner('Ana Souza ', s);
    expect(s.data.get(LEARNER_STORAGE_KEY)).toBe('Ana Souza ');
    expect(readLearner(s)).toBe('Ana Souza ');
    writeLearner('   ', s);
    expect(s.data.has(LEARNER_STORAGE_KEY)).toBe(false);
    expect(readLearner(s)).toBe('');
  });

  it('never throws when storage is off or full', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readLearner(broken)).toBe('');
    expect(() => writeLearner('Ana', broken)).not.toThrow();
    expect(readLearner(undefined)).toBe('');
  });
});
