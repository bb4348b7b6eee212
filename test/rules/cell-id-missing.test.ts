// cell-id-missing: a cell marker without `[^id]` (spec sections 3-5).
import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'cell-id-missing';
const FM = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', '---', ''];
const FM_NO_DEFAULT = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', ''];

describe('cell-id-missing', () => {
  it('accepts markers with an id', () => {
    const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% [^2]', '', '[^2]: [coder]', '', 'Hello.');
    expect(check(t)).toEqual([]);
  });

  it('reports the marker line of a cell without an id, as a warning', () => {
    const t = file('# %% Question', '', 'What is 2 + 2?');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 1, '# %% Question']]);
    expect(found[0]!.message).toBe('This cell has no id: end the marker line with `[^id]` and give the id a metadata line.');
    expect(found[0]!.diagnostic.severity).toBe(1);
  });

  it('reports a marker with neither title nor id', () => {
    const t = file('## %%', '', 'What is 2 + 2?');
    expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['## %%']);
  });

  describe('fix', () => {
    it('appends the next free number and inserts a [markdown] metadata line', () => {
      const t = file('# %% Question', '', 'What is 2 + 2?');
      const [d] = checkRule(RULE, t);
      const want = file('# %% Question[^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?');
      expect(applyFix(t, d!.diagnostic)).toBe(want);
      expect(fixText(t)).toBe(want);
      expect(check(want)).toEqual([]);
    });

    it('separates the id from the marker by a space when there is no title', () => {
      const t = file('# %%', '', 'What is 2 + 2?');
      expect(fixText(t)).toBe(file('# %% [^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?'));
    });

    it('drops trailing blanks of the marker line', () => {
      const t = file('# %% Question   ', '', 'What is 2 + 2?');
      expect(fixText(t)).toBe(file('# %% Question[^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?'));
    });

    it('keeps a blank line between the new metadata line and text right under the marker', () => {
      const t = file('# %% Question', 'What is 2 + 2?');
      expect(fixText(t)).toBe(file('# %% Question[^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?'));
    });

    it('works on a marker that is the last line, without a line break', () => {
      expect(fixText('# %% Question')).toBe('# %% Question[^1]\n\n[^1]: [markdown]');
    });

    it('uses a number above every numeric id of the file, including metadata and dotted ids', () => {
      const t = file(
        '[^7]: [agent] models="gpt-4o"',
        '',
        '# %% Run[^3]',
        '',
        '[^3]: [code]',
        '',
        '```python',
        'print(1)',
        '```',
        '',
        '# %%% [^3.1]',
        '',
        '[^3.1]: [python]',
        '',
        'stdout> 1',
        '',
        '# %% Next',
        '',
        'Thanks.',
      );
      expect(fixText(t)).toBe(t.replace('# %% Next\n', '# %% Next[^8]\n\n[^8]: [markdown]\n'));
    });

    it('gives two cells without id different numbers in one pass', () => {
      const t = file('# %% A[^intro]', '', '[^intro]: [markdown]', '', 'x', '', '# %% B', '', 'y', '', '# %% C', '', 'z');
      const found = checkRule(RULE, t);
      expect(found.map((f) => f.line)).toEqual([7, 11]);
      expect(fixText(t)).toBe(
        file('# %% A[^intro]', '', '[^intro]: [markdown]', '', 'x', '', '# %% B[^1]', '', '[^1]: [markdown]', '', 'y', '', '# %% C[^2]', '', '[^2]: [markdown]', '', 'z'),
      );
    });

    it('uses the default agent as the type of an output cell', () => {
      const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply', '', 'Hello.');
      expect(fixText(t)).toBe(t.replace('# %%% Reply\n', '# %%% Reply[^2]\n\n[^2]: [coder]\n'));
    });

    it('uses a temporary agent made default with default=1', () => {
      const t = file('[^fast]: [agent] models="gpt-4o-mini" default=1', '', '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply', '', 'Hello.');
      expect(fixText(t)).toBe(t.replace('# %%% Reply\n', '# %%% Reply[^2]\n\n[^2]: [fast]\n'));
    });

    it('has no fix for an output cell when there is no default agent', () => {
      const t = file(...FM_NO_DEFAULT, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply', '', 'Hello.');
      const [d] = checkRule(RULE, t);
      expect(d!.diagnostic.fix).toBeUndefined();
      expect(fixText(t)).toBe(t);
    });

    it('has no fix when the marker has four % (message or output cell is unclear)', () => {
      const t = file(...FM, '# %%%% Reply', '', 'Hello.');
      expect(check(t).map((f) => [f.ruleId, f.diagnostic.fix])).toEqual([
        [RULE, undefined],
        ['cell-marker', undefined],
      ]);
      expect(fixText(t)).toBe(t);
    });

    it('only adds the reference when an unused metadata line is right under the marker', () => {
      const t = file('# %% Question', '', '[^q1]: [markdown] time="2025-05-30T09:00:00Z"', '', 'What is 2 + 2?');
      // The line is unused only because the reference is missing: reported once, here.
      expect(check(t).map((f) => f.ruleId)).toEqual([RULE]);
      expect(fixText(t)).toBe(file('# %% Question[^q1]', '', '[^q1]: [markdown] time="2025-05-30T09:00:00Z"', '', 'What is 2 + 2?'));
    });

    it('does not take over an ordinary footnote under the marker', () => {
      const t = file('# %% Question', '[^rfc]: [RFC 9110] defines it.');
      expect(fixText(t)).toBe(file('# %% Question[^1]', '', '[^1]: [markdown]', '', '[^rfc]: [RFC 9110] defines it.'));
      const u = file('# %% Question', '[^rfc]: [RFC] defines it.');
      expect(fixText(u)).toBe(file('# %% Question[^1]', '', '[^1]: [markdown]', '', '[^rfc]: [RFC] defines it.'));
    });

    it('does not take over a temporary agent declared under the marker', () => {
      const t = file('# %% Question', '', '[^fast]: [agent] models="gpt-4o-mini"', '', 'What is 2 + 2?');
      expect(fixText(t)).toBe(file('# %% Question[^1]', '', '[^1]: [markdown]', '', '[^fast]: [agent] models="gpt-4o-mini"', '', 'What is 2 + 2?'));
    });

    it('is idempotent', () => {
      const t = file('# %% A', 'x', '', '# %% B', '', 'y');
      const once = fixText(t);
      expect(check(once)).toEqual([]);
      expect(fixText(once)).toBe(once);
    });

    it('keeps CRLF line breaks', () => {
      const crlf = (s: string) => s.replace(/\n/g, '\r\n');
      const t = crlf(file('# %% Question', 'What is 2 + 2?'));
      expect(fixText(t)).toBe(crlf(file('# %% Question[^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?')));
      expect(fixText('# %% A[^1]\r\n\r\n[^1]: [markdown]\r\n\r\nx\r\n\r\n# %% B')).toBe(
        '# %% A[^1]\r\n\r\n[^1]: [markdown]\r\n\r\nx\r\n\r\n# %% B[^2]\r\n\r\n[^2]: [markdown]',
      );
    });
  });

  describe('disable comments', () => {
    it('disable-next-line above the marker suppresses it', () => {
      const t = file(`<!-- msglint-disable-next-line ${RULE} -->`, '# %% Question', '', 'Hi.');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable/enable suppresses it only in between', () => {
      const t = file(`<!-- msglint-disable ${RULE} -->`, '# %% A', '', 'x', '', `<!-- msglint-enable ${RULE} -->`, '', '# %% B', '', 'y');
      expect(check(t).map((f) => [f.ruleId, f.line])).toEqual([[RULE, 8]]);
    });

    it('can be turned off in the configuration', () => {
      expect(check(file('# %% A', '', 'x'), { config: { rules: { [RULE]: 'off' } } })).toEqual([]);
    });
  });
});
