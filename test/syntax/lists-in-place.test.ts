// Long lists changed in place (server/base/lists.ts): replaceRange, which
// the language server's text uses for its lines.
import { describe, expect, it } from 'vitest';
import { replaceRange } from '../../server/base/lists.js';

describe('replaceRange', () => {
  it('replaces a range by more items than a call can take as arguments', () => {
    const list = [0, 1, 2, 3];
    const many = Array.from({ length: 200_000 }, (_, i) => i + 10);
    replaceRange(list, 1, 2, many);
    expect(list.length).toBe(200_002);
    expect(list.slice(0, 3)).toEqual([0, 10, 11]);
    expect(list.slice(-2)).toEqual([200_009, 3]);
  });
});
