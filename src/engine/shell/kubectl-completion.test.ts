/** kubectl completion for `replace`: cobra offers the verb, files after `-f`, and its flags. */
import { describe, expect, it } from 'vitest';
import { TOP_LEVEL_ORDER } from '../kubectl/commands/registry.ts';
import { completeKubectl, type KubectlCompletionData } from './kubectl-completion.ts';

const data: KubectlCompletionData = {
  verbs: TOP_LEVEL_ORDER,
  resources: [],
  names: () => [],
  namespaces: () => ['default'],
};

describe('kubectl completion of replace', () => {
  it('offers the verb, files after -f and the flags replace takes', () => {
    expect(completeKubectl(['kubectl'], 'rep', data)).toContain('replace');
    expect(completeKubectl(['kubectl', 'replace', '-f'], '', data)).toBeUndefined();
    const flags = completeKubectl(['kubectl', 'replace'], '--', data);
    expect(flags).toEqual(
      expect.arrayContaining(['--filename', '--force', '--save-config', '--dry-run=client']),
    );
  });
});
