// metadata-missing: a cell whose `[^id]` has no metadata line (spec section 5).
import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'metadata-missing';
const FM = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', '---', ''];
const FM_NO_DEFAULT = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', ''];
const ASK = ['# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Read app.py.', ''];
const REPLY = ['# %%% Reply[^2]', '', '[^2]: [coder]', '', 'Reading it.', ''];

describe('metadata-missing', () => {
  it('accepts a cell whose metadata line is elsewhere (metadata-placement reports that)', () => {
    const t = file('# %% Ask[^1]', '', 'Hello.', '', '[^1]: [markdown]');
    expect(check(t).map((f) => f.ruleId)).toEqual(['metadata-placement']);
  });

  it('reports the id reference of a message cell without metadata, as an error', () => {
    const t = file('# %% Question[^1]', '', 'What is 2 + 2?');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 14, '[^1]']]);
    expect(found[0]!.message).toBe('The cell `1` has no metadata line `[^1]: [type]`.');
    expect(found[0]!.diagnostic.severity).toBe(2);
  });

  describe('suggestion', () => {
    it('inserts a [markdown] line under a message marker', () => {
      const t = file('# %% Question[^1]', '', 'What is 2 + 2?');
      const [d] = checkRule(RULE, t);
      expect(d!.diagnostic.fix).toBeUndefined();
      expect(d!.diagnostic.suggestions!.map((s) => s.desc)).toEqual(['Insert `[^1]: [markdown]` under the marker']);
      const fixed = applyFix(t, d!.diagnostic, 0);
      expect(fixed).toBe(file('# %% Question[^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?'));
      expect(check(fixed)).toEqual([]);
    });

    it('is never applied by --fix', () => {
      const t = file('# %% Question[^1]', '', 'What is 2 + 2?');
      expect(fixText(t)).toBe(t);
    });

    it('keeps a blank line before text right under the marker', () => {
      const t = file('# %% Question[^1]', 'What is 2 + 2?');
      const [d] = checkRule(RULE, t);
      expect(applyFix(t, d!.diagnostic, 0)).toBe(file('# %% Question[^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?'));
    });

    it('uses the default agent for an agent reply', () => {
      const t = file(...FM, ...ASK, '# %%% Reply[^2]', '', 'Hello.');
      const [d] = checkRule(RULE, t);
      expect(applyFix(t, d!.diagnostic, 0)).toBe(t.replace('# %%% Reply[^2]\n', '# %%% Reply[^2]\n\n[^2]: [coder]\n'));
    });

    it('uses [tool] for a tool call and a tool result', () => {
      const t = file(...FM, ...ASK, ...REPLY, '## %%% Call[^2.k7f3q]', '', '<tool>', '<tool_name>read_file</tool_name>', '</tool>', '', '## %%% Result[^2.k7f3q.1]', '', 'print(1)');
      const found = checkRule(RULE, t);
      expect(found.map((f) => [f.text, f.diagnostic.suggestions![0]!.fix.text])).toEqual([
        ['[^2.k7f3q]', '\n\n[^2.k7f3q]: [tool]'],
        ['[^2.k7f3q.1]', '\n\n[^2.k7f3q.1]: [tool]'],
      ]);
    });

    it("uses the code block's language for a code output", () => {
      const t = file('# %% Run[^3]', '', '[^3]: [code]', '', '```python', 'print(1)', '```', '', '# %%% [^3.1]', '', 'stdout> 1');
      const [d] = checkRule(RULE, t);
      const fixed = applyFix(t, d!.diagnostic, 0);
      expect(fixed).toBe(t.replace('# %%% [^3.1]\n', '# %%% [^3.1]\n\n[^3.1]: [python]\n'));
      expect(check(fixed)).toEqual([]);
    });

    it('has no suggestion for an agent reply when there is no default agent', () => {
      const t = file(...FM_NO_DEFAULT, ...ASK, '# %%% Reply[^2]', '', 'Hello.');
      const [d] = checkRule(RULE, t);
      expect(d!.diagnostic.suggestions).toBeUndefined();
    });

    it('keeps CRLF line breaks', () => {
      const t = file('# %% Question[^1]', '', 'What is 2 + 2?').replace(/\n/g, '\r\n');
      const [d] = checkRule(RULE, t);
      expect(applyFix(t, d!.diagnostic, 0)).toBe(file('# %% Question[^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?').replace(/\n/g, '\r\n'));
    });
  });

  it('does not report an empty id (cell-id-syntax does)', () => {
    expect(checkRule(RULE, file('# %% Ask[^]', '', 'Hello.'))).toEqual([]);
  });

  it('does not count a metadata line inside a code block', () => {
    const t = file('# %% Ask[^1]', '', '```', '[^1]: [markdown]', '```');
    expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['[^1]']);
  });

  it('counts a metadata line written as an ordinary footnote (metadata-syntax reports it)', () => {
    const t = file('# %% Ask[^1]', '', '[^1]: markdown', '', 'Hello.');
    expect(check(t).map((f) => f.ruleId)).toEqual(['metadata-syntax']);
  });

  describe('disable comments', () => {
    it('disable-line on the marker line is not possible; disable-next-line above it works', () => {
      const t = file(`<!-- msglint-disable-next-line ${RULE} -->`, '# %% Question[^1]', '', 'What is 2 + 2?');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-file without rules suppresses everything', () => {
      const t = file('<!-- msglint-disable-file -->', '', '# %% Question[^1]', '', 'What is 2 + 2?');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });
  });
});
