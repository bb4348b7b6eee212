// A lint in steps (server/engine/steps.ts), as the language server runs it:
// stopped between two steps, no rule runs after the stop and the outcome
// says it did not finish; what it leaves behind (cached findings, the
// document) lints on to the same diagnostics as a fresh lint, whether the
// same version is linted again or a version edited from it.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateMessageFile } from '../../bench/generate.mjs';
import { createLinter } from '../../server/engine/linter.js';
import { parseForLint } from '../../server/engine/lint.js';
import { defineRule, defineSegmentRule } from '../../server/engine/rule-kit.js';
import { drain, runSteps, SEGMENTS_PER_STEP, StepRun, type Cooperation } from '../../server/engine/steps.js';
import type { RuleMeta } from '../../server/engine/types.js';
import { lint, lintDocument, lintDocumentSteps } from '../../server/linter.js';

const meta = (id: string): RuleMeta => ({ id, group: 'structure', severity: 'warning', fixable: null, description: id });
const cell = (id: number) => `# %% C${id}[^${id}]\n\n[^${id}]: [markdown]\n\nText ${id}.\n\n`;
const cells = (n: number) => Array.from({ length: n }, (_, i) => cell(i + 1)).join('');

/** Runs steps with a pause after every one (sliceMs 0), counting the pauses. */
function cooperation(stop: () => boolean): Cooperation & { pauses: number } {
  const c = { pauses: 0, stop, sliceMs: 0, pause: async () => void c.pauses++ };
  return c;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('a lint in steps, stopped', () => {
  it('between rules: a cross-cell rule that cancels is the last rule to run, and the outcome is not done', async () => {
    let cancelled = false;
    const ran: string[] = [];
    const linter = createLinter([
      defineSegmentRule(meta('segments'), () => void ran.push('segments')),
      defineRule(meta('first'), () => {
        ran.push('first');
        cancelled = true;
      }),
      defineRule(meta('second'), () => void ran.push('second')),
    ]);
    const c = cooperation(() => cancelled);
    const outcome = await runSteps(linter.lintSteps(cells(3), { fileName: 'a.msg.md' }), c);
    expect(outcome).toEqual({ done: false });
    expect(ran).toEqual(['segments', 'segments', 'segments', 'first']);
    expect(c.pauses).toBeGreaterThan(0);
  });

  it('between batches of cells: a segment check that cancels finishes its batch, and no other batch or rule runs', async () => {
    let cancelled = false;
    let checked = 0;
    let crossCell = 0;
    const linter = createLinter([
      defineSegmentRule(meta('segments'), () => {
        checked++;
        if (checked === SEGMENTS_PER_STEP + 10) cancelled = true;
      }),
      defineRule(meta('cross'), () => void crossCell++),
    ]);
    const outcome = await runSteps(linter.lintSteps(cells(10 * SEGMENTS_PER_STEP), { fileName: 'a.msg.md' }), cooperation(() => cancelled));
    expect(outcome.done).toBe(false);
    expect(checked).toBe(2 * SEGMENTS_PER_STEP);
    expect(crossCell).toBe(0);
  });

  it('not stopped: the same diagnostics as the synchronous lint, paused between steps', async () => {
    const text = generateMessageFile({ turns: 40 }) + '#%%\n\n# %% [^zz\n';
    const c = cooperation(() => false);
    const outcome = await runSteps(lintDocumentSteps(parseForLint(text, { fileName: 'a.msg.md' })), c);
    expect(outcome.done).toBe(true);
    const expected = lint(text, { fileName: 'a.msg.md' }).diagnostics;
    expect(expected.length).toBeGreaterThan(0);
    expect(outcome.done && outcome.value).toEqual(expected);
    expect(c.pauses).toBeGreaterThan(10);
  });

  it('a StepRun answers its result to every caller once done, and runs nothing once closed', () => {
    let runs = 0;
    const linter = createLinter([defineRule(meta('once'), ({ report }) => void (runs++, report({ at: [0, 1], message: 'here' })))]);
    const run = new StepRun(linter.lintSteps(cells(2), { fileName: 'a.msg.md' }));
    const first = drain(run);
    expect(drain(run)).toBe(first);
    expect(runs).toBe(1);
    const closed = new StepRun(linter.lintSteps(cells(2), { fileName: 'a.msg.md' }));
    closed.next();
    closed.close();
    expect(closed.next().done).toBe(true);
    expect(runs).toBe(1);
  });
});

describe('what a stopped lint leaves behind (the built-in rules, incremental contract checked)', () => {
  const text = generateMessageFile({ turns: 60 }) + '#%%\n\nA note [^9zz].\n';
  /** Typing in the prose of the first cell. */
  const edited = (t: string) => {
    const at = t.indexOf('Or cache') + 2;
    return { start: at, oldEnd: at, text: 'X' };
  };
  const apply = (t: string, e: { start: number; oldEnd: number; text: string }) => t.slice(0, e.start) + e.text + t.slice(e.oldEnd);
  const options = { fileName: 'a.msg.md' };

  /** Runs `k` steps of the document's lint, then gives it up. */
  function stopAfter(doc: ReturnType<typeof parseForLint>, k: number): void {
    const steps = lintDocumentSteps(doc, options);
    for (let i = 0; i < k; i++) expect(steps.next().done).toBe(false);
    steps.return(undefined!);
  }

  it('the same version linted again: a fresh lint’s diagnostics', () => {
    for (const k of [1, 2, 5]) {
      const doc = parseForLint(text, options);
      stopAfter(doc, k);
      expect(lintDocument(doc, options)).toEqual(lint(text, options).diagnostics);
    }
  });

  it('a version edited from a stopped one, and one edited from a version whose re-lint was stopped', () => {
    const first = parseForLint(text, options);
    stopAfter(first, 3);
    const e1 = edited(text);
    const text2 = apply(text, e1);
    const second = parseForLint(text2, { ...options, previous: first, edit: e1 });
    // The editor's path (an edit inside a cell, its range known).
    expect(second.edit?.replaced).toBeDefined();
    expect(lintDocument(second, options)).toEqual(lint(text2, options).diagnostics);
    // An edit after a whole lint re-lints from its findings; that re-lint stopped, the next version still lints right.
    const e2 = { start: e1.start + 1, oldEnd: e1.start + 1, text: 'Y' };
    const text3 = apply(text2, e2);
    const third = parseForLint(text3, { ...options, previous: second, edit: e2 });
    expect(third.edit?.replaced).toBeDefined();
    stopAfter(third, 1);
    const e3 = { start: e2.start + 1, oldEnd: e2.start + 1, text: 'Z' };
    const text4 = apply(text3, e3);
    const fourth = parseForLint(text4, { ...options, previous: third, edit: e3 });
    expect(lintDocument(fourth, options)).toEqual(lint(text4, options).diagnostics);
  });
});
