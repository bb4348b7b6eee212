// history-summary: `history=summary` needs a `summary` attribute or a cell title (spec section 5).
import { describe, expect, it } from 'vitest';
import { check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'history-summary';
const cell = (marker: string, attrs: string) => file(marker, '', `[^1]: [markdown] ${attrs}`, '', 'A long question about adding numbers.');

describe('history-summary', () => {
  it('accepts a summary attribute', () => {
    expect(check(cell('# %% [^1]', 'history=summary summary="asks for 2 + 2"'))).toEqual([]);
  });

  it('accepts a title as the summary', () => {
    expect(check(cell('# %% Question about sums[^1]', 'history=summary'))).toEqual([]);
    expect(check(cell('# %% [Question][^1]', 'history=summary'))).toEqual([]);
  });

  it('accepts cells with another history value', () => {
    expect(check(cell('# %% [^1]', 'history=exclude'))).toEqual([]);
  });

  it('reports history=summary without summary and title, at the attribute', () => {
    const found = check(cell('# %% [^1]', 'history=summary'));
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 3, 18, 'history=summary']]);
    expect(found[0]!.message).toBe('`history=summary` needs a summary: add `summary="…"` or give the cell a title.');
    expect(found[0]!.diagnostic.severity).toBe(1);
  });

  it('treats an empty or blank summary as none', () => {
    expect(checkRule(RULE, cell('# %% [^1]', 'history=summary summary=""'))).toHaveLength(1);
    expect(checkRule(RULE, cell('# %% [^1]', 'history=summary summary="   "'))).toHaveLength(1);
  });

  it('treats a blank title as none', () => {
    expect(checkRule(RULE, cell('# %%    [^1]', 'history=summary'))).toHaveLength(1);
  });

  it('reports a quoted history value', () => {
    expect(checkRule(RULE, cell('# %% [^1]', 'history="summary"')).map((f) => f.text)).toEqual(['history="summary"']);
  });

  it('checks output cells too', () => {
    const t = file('---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', '', '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% [^2]', '', '[^2]: [coder] history=summary', '', 'A long answer.');
    expect(checkRule(RULE, t).map((f) => f.line)).toEqual([15]);
  });

  it('has no fix', () => {
    const t = cell('# %% [^1]', 'history=summary');
    expect(checkRule(RULE, t)[0]!.diagnostic.fix).toBeUndefined();
    expect(fixText(t)).toBe(t);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = cell('# %% [^1]', 'history=summary').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[3, 18, 'history=summary']]);
  });

  describe('disable comments', () => {
    it('disable-line suppresses it', () => {
      const t = cell('# %% [^1]', `history=summary <!-- msglint-disable-line ${RULE} -- the export adds summaries -->`);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable without rules and enable without rules bound a range', () => {
      const t = file('<!-- msglint-disable -->', ...cell('# %% [^1]', 'history=summary').trimEnd().split('\n'), '', '<!-- msglint-enable -->', '', '# %% [^2]', '', '[^2]: [markdown] history=summary', '', 'More.');
      expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => [f.ruleId, f.line])).toEqual([[RULE, 12]]);
    });
  });
});
