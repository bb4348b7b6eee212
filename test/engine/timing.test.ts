// Rule timing (MSGLINT_TIMING's engine side): while a collector is set, every
// lint adds its parsing and each enabled rule's time to it; without one,
// nothing is collected. Only what was collected is checked, never how long
// anything took (machines are shared and noisy).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { allRules, lint, lintAndFix, lintDocument, parseForLint } from '../../server/linter.js';
import { mergeTimes, startTiming, stopTiming, timingCollector } from '../../server/engine/timing.js';

const CLEAN = readFileSync(new URL('../fixtures/cli/clean.msg.md', import.meta.url), 'utf8');
/** `#%% [^1]`: one fixable cell-marker error; one --fix pass makes it clean. */
const CELL_MARKER = readFileSync(new URL('../fixtures/cli/cell-marker.msg.md', import.meta.url), 'utf8');

afterEach(stopTiming);

describe('rule timing', () => {
  it('charges every enabled rule and the parse of each lint', () => {
    const times = startTiming();
    expect(timingCollector()).toBe(times);
    lint(CLEAN, { fileName: 'a.msg.md' });
    lint(CELL_MARKER, { fileName: 'b.msg.md' });
    expect(times.lints).toBe(2);
    expect(times.parse).toBeGreaterThanOrEqual(0);
    expect([...times.rules.keys()].sort()).toEqual(allRules.map((r) => r.meta.id).sort());
    for (const ms of times.rules.values()) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('leaves out rules the config turns off', () => {
    const times = startTiming();
    lint(CLEAN, { fileName: 'a.msg.md', config: { rules: { 'tool-xml': 'off', 'cell-marker': 'off' } } });
    expect(times.rules.has('tool-xml')).toBe(false);
    expect(times.rules.has('cell-marker')).toBe(false);
    expect(times.rules.size).toBe(allRules.length - 2);
  });

  it('counts each --fix pass as a lint', () => {
    const times = startTiming();
    const result = lintAndFix(CELL_MARKER, { fileName: 'b.msg.md' });
    expect(result.text).not.toBe(CELL_MARKER);
    // The first text, then the fixed one, which is clean.
    expect(times.lints).toBe(2);
  });

  it('times a document linted with lintDocument after parseForLint', () => {
    const times = startTiming();
    lintDocument(parseForLint(CLEAN, { fileName: 'a.msg.md' }));
    expect(times.lints).toBe(1);
    expect(times.rules.size).toBe(allRules.length);
  });

  it('collects nothing once stopped, and gives the same findings as without timing', () => {
    const untimed = lint(CELL_MARKER, { fileName: 'b.msg.md' }).diagnostics;
    const times = startTiming();
    const timed = lint(CELL_MARKER, { fileName: 'b.msg.md' }).diagnostics;
    stopTiming();
    expect(timingCollector()).toBeUndefined();
    lint(CLEAN, { fileName: 'a.msg.md' });
    expect(times.lints).toBe(1);
    expect(timed).toEqual(untimed);
  });

  it('adds the times of several threads together', () => {
    const a = { parse: 1, lints: 2, rules: new Map([['x', 1], ['y', 2]]) };
    mergeTimes(a, { parse: 0.5, lints: 3, rules: new Map([['y', 1], ['z', 4]]) });
    expect(a).toEqual({ parse: 1.5, lints: 5, rules: new Map([['x', 1], ['y', 3], ['z', 4]]) });
  });
});
