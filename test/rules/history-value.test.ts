// history-value: `history` is one of the values of spec section 5.
import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'history-value';
const cell = (attrs: string) => file('# %% Question[^1]', '', `[^1]: [markdown] ${attrs}`, '', 'What is 2 + 2?');

describe('history-value', () => {
  it.each(['include', '1', 'true', 'none', 'exclude', '0', 'false', 'summary', '"exclude"'])('accepts history=%s', (v) => {
    expect(check(cell(`history=${v}`))).toEqual([]);
  });

  it('reports an invalid value at the value, as an error', () => {
    const found = check(cell('history=excluded'));
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 3, 26, 'excluded']]);
    expect(found[0]!.message).toBe('`history` is include, exclude or summary (or 1/true, 0/false/none), not `excluded`.');
    expect(found[0]!.diagnostic.severity).toBe(2);
  });

  describe('fix', () => {
    it.each([
      ['excluded', 'exclude'],
      ['included', 'include'],
      ['inclde', 'include'],
      ['sumary', 'summary'],
      ['Exclude', 'exclude'],
      ['TRUE', 'true'],
      ['None', 'none'],
    ])('fixes %s to %s', (bad, good) => {
      const t = cell(`history=${bad}`);
      const [f] = checkRule(RULE, t);
      expect(applyFix(t, f!.diagnostic)).toBe(cell(`history=${good}`));
      expect(fixText(t)).toBe(cell(`history=${good}`));
    });

    it('keeps the quotes of a quoted value', () => {
      const t = cell('history="excluded"');
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['"excluded"']);
      expect(fixText(t)).toBe(cell('history="exclude"'));
    });

    it.each(['2', 'yes', 'maybe', 'x'])('has no fix when the intent is not clear: %s', (bad) => {
      const t = cell(`history=${bad}`);
      expect(checkRule(RULE, t)[0]!.diagnostic.fix).toBeUndefined();
      expect(fixText(t)).toBe(t);
    });

    it('is idempotent and keeps CRLF', () => {
      const t = cell('history=excluded').replace(/\n/g, '\r\n');
      const once = fixText(t);
      expect(once).toBe(cell('history=exclude').replace(/\n/g, '\r\n'));
      expect(fixText(once)).toBe(once);
    });
  });

  it('checks output cells and temporary agent lines too', () => {
    const t = file('[^fast]: [agent] models="gpt-4o-mini" history=nope', '', '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply[^2]', '', '[^2]: [fast] history=exclued', '', 'Hello.');
    expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([
      [1, 'nope'],
      [11, 'exclued'],
    ]);
  });

  it('does not check ordinary footnotes', () => {
    const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Text[^n].', '', '[^n]: [RFC] history=whatever');
    expect(check(t)).toEqual([]);
  });

  describe('disable comments', () => {
    it('disable-next-line above the metadata line suppresses it', () => {
      const t = file('# %% Question[^1]', '', `<!-- msglint-disable-next-line ${RULE} -->`, '[^1]: [markdown] history=later', '', 'Hi.');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('a disabled diagnostic is not fixed either', () => {
      const t = file('# %% Question[^1]', '', `<!-- msglint-disable-next-line ${RULE} -->`, '[^1]: [markdown] history=excluded', '', 'Hi.');
      expect(fixText(t)).toBe(t);
    });
  });
});
