// `npm test` runs `packetpath lab validate` on every lab: each folder in labs/ must load, boot, start
// unsolved and be solved by its own solution (the learnGitBranching rule: every level proves it can be solved).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listLabDirs } from '../../src/grader/node/load-lab.ts';
import { validateLabDir } from '../../src/runtime/node-cli/lab.ts';

const LABS = join(import.meta.dirname, '../../labs');
const dirs = listLabDirs(LABS);

describe('every lab in labs/', { timeout: 120_000 }, () => {
  it('finds the labs', () => {
    expect(dirs.length).toBeGreaterThan(0);
  });

  it.each(dirs.map((d) => [d.slice(LABS.length + 1), d]))('%s validates', (_id, dir) => {
    expect(validateLabDir(dir).errors).toEqual([]);
  });
});
