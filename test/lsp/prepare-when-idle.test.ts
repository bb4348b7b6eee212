// A version the whole path made (opening a file) gets its first diagnostics
// without the indexes that later versions update; the language server makes
// them once the diagnostics are out (DocumentState, prepareForEdits), so the
// first keystroke does not, and not for a version a keystroke has already
// replaced (it is spent).
import { describe, expect, it } from 'vitest';
import { DocumentState } from '../../server/lsp/documents.js';
import { knownLinesOf } from '../../server/syntax/roots.js';

const TEXT = ['# %% Question[^1]', '', '[^1]: [markdown] history=include', '', 'Why?', '', '# %%% [^2]', '', '[^2]: [assistant]', '', 'Because.', ''].join('\n');
const config = { config: {}, key: 'k', enabled: true };
const idle = () => new Promise((r) => setTimeout(r, 5));
const indexed = (state: DocumentState) => knownLinesOf(state.parse(config)!, new Set(['1'])) !== undefined;

describe('DocumentState: what the next keystroke updates, made after the first diagnostics', () => {
  it('is not made before the diagnostics of an opened file, and is made right after', async () => {
    const state = new DocumentState('file:///x/a.msg.md', 'markdown', 1, TEXT);
    expect(state.lint(config).map((d) => d.ruleId)).toEqual(['unknown-agent']);
    expect(indexed(state)).toBe(false);
    await idle();
    expect(indexed(state)).toBe(true);
  });

  it('is not made for a version a keystroke replaced before the pause', async () => {
    const state = new DocumentState('file:///x/a.msg.md', 'markdown', 1, TEXT);
    state.lint(config);
    const first = state.parse(config)!;
    state.update([{ range: { start: { line: 4, character: 4 }, end: { line: 4, character: 4 } }, text: ' really' }], 2);
    state.lint(config);
    await idle();
    expect(knownLinesOf(first, new Set(['1']))).toBeUndefined();
    // The keystroke's version updated its own from nothing: it has them.
    expect(indexed(state)).toBe(true);
  });
});
