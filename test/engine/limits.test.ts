// fileVerdict's count of cell markers at its limit: the shortest marker lines
// (`#%%` and a line break), where a text too short to pass the limit is not counted.
import { describe, expect, it } from 'vitest';
import { fileVerdict, MAX_LINT_CELLS } from '../../server/engine/limits.js';

describe('fileVerdict', () => {
  it('lints a text of exactly the most cell markers, of the shortest kind', () => {
    expect(fileVerdict('#%%\n'.repeat(MAX_LINT_CELLS), undefined)).toBeUndefined();
    expect(fileVerdict('#%%\n'.repeat(MAX_LINT_CELLS - 1) + '#%%', undefined)).toBeUndefined();
  });

  it('reports one marker more as too large, with or without a last line break', () => {
    for (const text of ['#%%\n'.repeat(MAX_LINT_CELLS + 1), '#%%\n'.repeat(MAX_LINT_CELLS) + '#%%']) {
      expect(fileVerdict(text, undefined)?.ruleId).toBe('file-too-large');
    }
  });
});
