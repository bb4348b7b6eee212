// An open document's lint in steps (DocumentState.lintInSteps), in process:
// cancelled, it stays paused and the next request resumes it where it
// stopped; an edit while it is paused makes it stale; a synchronous lint
// meanwhile finishes the same run. Each ends with a fresh lint's diagnostics.

import { describe, expect, it } from 'vitest';
import { generateMessageFile } from '../../bench/generate.mjs';
import { lint } from '../../server/linter.js';
import { DocumentState, type DocumentConfig } from '../../server/lsp/documents.js';

const text = generateMessageFile({ turns: 80 }) + '#%%\n\n# %% [^zz\n';
const dc: DocumentConfig = { config: {}, key: 'test', enabled: true };
const fresh = (t: string) => lint(t, { fileName: 'a.msg.md' }).diagnostics;
const open = () => new DocumentState('file:///w/a.msg.md', 'markdown', 1, text);

/** A `cancelled` that counts its calls (one per step) and says yes from the `at`th on. */
function counter(at = Infinity) {
  const c = { calls: 0, cancelled: () => ++c.calls >= at };
  return c;
}

describe('DocumentState.lintInSteps', () => {
  it('cancelled, then asked again: resumes where it stopped (fewer steps than a whole lint) to a fresh lint’s diagnostics', async () => {
    const whole = counter();
    expect(await open().lintInSteps(dc, whole.cancelled)).toEqual(fresh(text));
    expect(whole.calls).toBeGreaterThan(10);

    const state = open();
    const first = counter(6);
    expect(await state.lintInSteps(dc, first.cancelled)).toBe('cancelled');
    const rest = counter();
    expect(await state.lintInSteps(dc, rest.cancelled)).toEqual(fresh(text));
    // The steps before the cancel are not run again (the first call's last one only checked the token).
    expect(rest.calls).toBe(whole.calls - (first.calls - 1));
    // Done: kept for the version, no step more.
    const after = counter();
    expect(await state.lintInSteps(dc, after.cancelled)).toEqual(fresh(text));
    expect(after.calls).toBe(0);
  });

  it('an edit while it is paused: stale, and the new version lints to its own diagnostics', async () => {
    const state = open();
    const edited = text.replace('# %% [^zz', '# %% [^zz]');
    let calls = 0;
    // The edit arrives between two steps, as a didChange read during a pause would.
    const outcome = await state.lintInSteps(dc, () => {
      if (++calls === 4) state.update([{ text: edited }], 2);
      return false;
    });
    expect(calls).toBe(4);
    expect(outcome).toBe('stale');
    expect(await state.lintInSteps(dc, () => false)).toEqual(fresh(edited));
    expect(state.lint(dc)).toEqual(fresh(edited));
  });

  it('a synchronous lint while it is paused finishes the same run; the paused request answers its result', async () => {
    const state = open();
    let synchronous: unknown;
    let calls = 0;
    const outcome = await state.lintInSteps(dc, () => {
      // Another request (a hover, a code action) needs the diagnostics now.
      if (++calls === 3) synchronous = state.lint(dc);
      return false;
    });
    expect(synchronous).toEqual(fresh(text));
    expect(outcome).toBe(synchronous);
  });

  it('closed while it is paused: stale', async () => {
    const state = open();
    let calls = 0;
    expect(await state.lintInSteps(dc, () => (++calls === 3 && state.close(), false))).toBe('stale');
  });
});
