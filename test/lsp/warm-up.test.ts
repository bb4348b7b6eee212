// The warm-up (server/lsp/warm-up.ts) must take the typing path through the
// edits it names, over a conversation that starts clean, and end where a
// fresh parse and lint of the same text would: a step that throws ends it
// early and silently, so these tests are what would notice.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lint } from '../../server/linter.js';
import { lspDiagnostics } from '../../server/lsp/diagnostics.js';
import type { DocumentState } from '../../server/lsp/documents.js';
import type { LintSettings } from '../../server/lsp/settings.js';
import { conversation, warmUp } from '../../server/lsp/warm-up.js';

const ls: LintSettings = { config: {}, key: 'test', enabled: true, run: 'onType' };

describe('warm-up', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes a step that throws to its caller and stops', () => {
    const failures: unknown[] = [];
    let calls = 0;
    warmUp(
      ls,
      () => {
        if (++calls === 3) throw new Error('broken');
      },
      (e) => failures.push(e),
    );
    vi.runAllTimers();
    expect(calls).toBe(3);
    expect(failures).toEqual([new Error('broken')]);
  });

  it('starts from a conversation with no findings', () => {
    expect(lint(conversation(40), { fileName: 'warm.msg.md' }).diagnostics).toEqual([]);
  });

  it('runs every step, one per timer tick, and ends where a whole lint of its text does', () => {
    const seen: DocumentState[] = [];
    const kinds = new Set<string>();
    const failures: unknown[] = [];
    warmUp(
      ls,
      (state, settings) => {
        seen.push(state);
        const found = lspDiagnostics(state, settings);
        for (const d of found) kinds.add(String(d.code));
        return found;
      },
      (e) => failures.push(e),
    );
    expect(seen).toHaveLength(0);
    vi.advanceTimersToNextTimer();
    expect(seen).toHaveLength(1);
    vi.runAllTimers();
    expect(failures).toEqual([]);
    expect(seen.length).toBeGreaterThan(100);
    // The edits go through states people type through, not only clean ones.
    expect([...kinds]).toEqual(expect.arrayContaining(['cell-id-missing', 'metadata-missing', 'attribute-value']));
    const state = seen.at(-1)!;
    const text = state.text.getText();
    expect(text.endsWith('\n# %% Next question[^361]\n\n[^361]: [markdown] history=include\n\nWhy does it fail?\n')).toBe(true);
    const whole = lint(text, { fileName: state.fileName }).diagnostics.map((d) => [d.ruleId, d.range.start.line, d.message]);
    expect(state.lint(ls).map((d) => [d.ruleId, d.range.start.line, d.message])).toEqual(whole);
  });
});

describe('the warm-up waits for a quiet client', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('takes no step while `wait` says to wait, and begins when it says 0', () => {
    let steps = 0;
    let still = 250;
    const asked: number[] = [];
    warmUp(ls, () => steps++, undefined, () => {
      asked.push(Date.now());
      return still;
    });
    vi.advanceTimersByTime(600);
    expect(steps).toBe(0);
    // Asked again after the time it said: at 0, 250, 500 ms.
    expect(asked.map((t) => t - asked[0]!)).toEqual([0, 250, 500]);
    still = 0;
    vi.advanceTimersToNextTimer();
    expect(steps).toBe(1);
    expect(asked).toHaveLength(4);
    vi.runAllTimers();
    expect(steps).toBeGreaterThan(100);
  });
});
