// unused-disable: a directive that suppressed nothing, reported only with
// --report-unused-disable-directives (rules.md, "Disable comments").
import { describe, expect, it } from 'vitest';
import { check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'unused-disable';
const VALID = ['# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hello.'];
/** An empty cell: one empty-cell warning on its marker line. */
const EMPTY = ['# %% Empty[^2]', '', '[^2]: [markdown]', ''];
const on = { reportUnusedDisableDirectives: true };

describe('unused-disable', () => {
  it('is reported only with reportUnusedDisableDirectives', () => {
    const t = file('<!-- msglint-disable-file empty-cell -->', ...VALID);
    expect(check(t)).toEqual([]);
    expect(check(t, on).map((f) => f.ruleId)).toEqual([RULE]);
  });

  describe('each kind of directive', () => {
    it('disable naming a rule: reported at the name', () => {
      const found = check(file('<!-- msglint-disable empty-cell -->', ...VALID), on);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 22, 'empty-cell']]);
      expect(found[0]!.message).toBe("Unused msglint-disable directive (no problems from 'empty-cell' were reported here).");
      expect(found[0]!.diagnostic.severity).toBe(1);
      expect(found[0]!.diagnostic.tags).toEqual([1]);
    });

    it('disable without rules: reported at the whole comment', () => {
      const found = check(file('<!-- msglint-disable -->', ...VALID), on);
      expect(found.map((f) => [f.line, f.column, f.text])).toEqual([[1, 1, '<!-- msglint-disable -->']]);
      expect(found[0]!.message).toBe('Unused msglint-disable directive (no problems were reported here).');
    });

    it.each(['disable-line', 'disable-next-line', 'disable-file'])('%s', (kind) => {
      const found = check(file(`<!-- msglint-${kind} empty-cell -->`, ...VALID), on);
      expect(found.map((f) => [f.ruleId, f.text, f.message])).toEqual([
        [RULE, 'empty-cell', `Unused msglint-${kind} directive (no problems from 'empty-cell' were reported here).`],
      ]);
    });

    it('enable is never reported', () => {
      expect(check(file('<!-- msglint-enable -->', '<!-- msglint-enable empty-cell -->', ...VALID), on)).toEqual([]);
    });
  });

  describe('used directives are not reported', () => {
    it('disable ... enable around a problem', () => {
      const t = file(...VALID, '', '<!-- msglint-disable empty-cell -->', ...EMPTY, '<!-- msglint-enable empty-cell -->');
      expect(check(t, on)).toEqual([]);
    });

    it('disable to the end of the file', () => {
      expect(check(file(...VALID, '', '<!-- msglint-disable -->', ...EMPTY), on)).toEqual([]);
    });

    it('disable-next-line right above the problem', () => {
      expect(check(file(...VALID, '', '<!-- msglint-disable-next-line empty-cell -->', ...EMPTY), on)).toEqual([]);
    });

    it('disable-next-line after a multi-line comment applies to the line after the comment ends', () => {
      expect(check(file(...VALID, '', '<!--', 'msglint-disable-next-line empty-cell', '-->', ...EMPTY), on)).toEqual([]);
    });

    it('disable-line on the problem line', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown] history=excluded <!-- msglint-disable-line history-value -->', '', 'Hello.');
      expect(check(t, on)).toEqual([]);
    });

    it('disable-file anywhere in the file', () => {
      expect(check(file(...VALID, '', ...EMPTY, '<!-- msglint-disable-file empty-cell -->'), on)).toEqual([]);
    });
  });

  describe('partly used directives', () => {
    it('reports only the names that suppressed nothing', () => {
      const t = file(...VALID, '', '<!-- msglint-disable-next-line cell-type, empty-cell, history-value -->', ...EMPTY);
      expect(checkRule(RULE, t, on).map((f) => f.text)).toEqual(['cell-type', 'history-value']);
    });

    it('reports a disable-next-line that is one line too high', () => {
      const t = file(...VALID, '', '<!-- msglint-disable-next-line empty-cell -->', '', ...EMPTY);
      expect(check(t, on).map((f) => [f.ruleId, f.line])).toEqual([
        [RULE, 7],
        ['empty-cell', 9],
      ]);
    });

    it('reports a disable that is overridden by an enable before the problem', () => {
      const t = file(...VALID, '', '<!-- msglint-disable empty-cell -->', '<!-- msglint-enable empty-cell -->', ...EMPTY);
      expect(check(t, on).map((f) => [f.ruleId, f.line])).toEqual([
        [RULE, 7],
        ['empty-cell', 9],
      ]);
    });

    it('reports the second of two disable-file comments for the same rule', () => {
      const t = file('<!-- msglint-disable-file empty-cell -->', '<!-- msglint-disable-file empty-cell -->', ...VALID, '', ...EMPTY);
      expect(check(t, on).map((f) => [f.ruleId, f.line])).toEqual([[RULE, 2]]);
    });
  });

  it('ignores the description after --', () => {
    const t = file(...VALID, '', '<!-- msglint-disable-next-line empty-cell -- placeholder for the reply -->', ...EMPTY);
    expect(check(t, on)).toEqual([]);
  });

  it('cannot be fixed', () => {
    const t = file('<!-- msglint-disable-file empty-cell -->', ...VALID);
    expect(checkRule(RULE, t, on)[0]!.diagnostic.fix).toBeUndefined();
    expect(fixText(t, on)).toBe(t);
  });

  it('is not suppressed by directives (the engine reports it after applying them)', () => {
    const t = file('<!-- msglint-disable-file unused-disable -->', '<!-- msglint-disable empty-cell -->', ...VALID);
    expect(check(t, on).map((f) => [f.ruleId, f.line, f.text])).toEqual([
      [RULE, 1, RULE],
      [RULE, 2, 'empty-cell'],
    ]);
  });

  it('can be turned off in the configuration', () => {
    expect(check(file('<!-- msglint-disable -->', ...VALID), { ...on, config: { rules: { [RULE]: 'off' } } })).toEqual([]);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = file('<!-- msglint-disable empty-cell -->', ...VALID).replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t, on).map((f) => [f.line, f.column, f.text])).toEqual([[1, 22, 'empty-cell']]);
  });
});
