// duplicate-id: an id used by a second cell (spec section 4: an id is unique within a file).
import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';

const RULE = 'duplicate-id';
const FM = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', '---', ''];

describe('duplicate-id', () => {
  it('accepts distinct ids, including ids that differ only in case', () => {
    const t = file('# %% A[^a]', '', '[^a]: [markdown]', '', 'x', '', '# %% B[^A]', '', '[^A]: [markdown]', '', 'y');
    expect(check(t)).toEqual([]);
  });

  it('reports the later cell at its id and points to the first one', () => {
    const t = file('# %% Question[^1]', '', '[^1]: [markdown]', '', 'What is 2 + 2?', '', '# %% Follow-up[^1]', '', 'And 3 + 3?');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 7, 17, '1']]);
    expect(found[0]!.message).toBe('The id `1` is already used by the cell on line 1.');
    const related = found[0]!.diagnostic.related!;
    expect(related).toHaveLength(1);
    expect(related[0]!.message).toBe('First use of `1`');
    expect(related[0]!.range.start).toMatchObject({ line: 0, character: 15 });
  });

  it('reports every later use', () => {
    const t = file('# %% A[^x]', '', '[^x]: [markdown]', '', 'a', '', '# %% B[^x]', '', 'b', '', '# %% C[^x]', '', 'c');
    expect(checkRule(RULE, t).map((f) => [f.line, f.message])).toEqual([
      [7, 'The id `x` is already used by the cell on line 1.'],
      [11, 'The id `x` is already used by the cell on line 1.'],
    ]);
  });

  it('reports a duplicate across cell kinds', () => {
    const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply[^1]', '', 'Hello.');
    expect(check(t).map((f) => [f.ruleId, f.line, f.text])).toEqual([[RULE, 14, '1']]);
  });

  it("does not check the later cell against the first cell's metadata line", () => {
    // The later cell has no metadata line of its own; rules that look at the
    // type (cell-type, unknown-agent, code-cell-block, history-summary) leave it alone.
    const t = file(...FM, '# %%% Reply[^2]', '', '[^2]: [coder] history=summary', '', 'Hello.', '', '# %% Ask[^2]', '', 'Hi.');
    expect(check(t).map((f) => f.ruleId)).toEqual([RULE]);
    const c = file('# %% Run[^3]', '', '[^3]: [code]', '', '```python', 'print(1)', '```', '', '# %% Note[^3]', '', 'No code here.');
    expect(check(c).map((f) => f.ruleId)).toEqual([RULE]);
  });

  it('reports a duplicated tool call id', () => {
    const call = (n: number) => [`## %%% Call ${n}[^2.k7f3q]`, '', '[^2.k7f3q]: [tool] name="read_file"', '', '<tool>', '<tool_name>read_file</tool_name>', '</tool>', ''];
    const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply[^2]', '', '[^2]: [coder]', '', 'Reading.', '', ...call(1), ...call(2));
    expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([[28, '2.k7f3q']]);
  });

  it('does not treat a marker inside a code block as a second use', () => {
    const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', '```markdown', '# %% Ask[^1]', '```');
    expect(check(t)).toEqual([]);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = file('# %% A[^1]', '', '[^1]: [markdown]', '', 'a', '', '# %% B[^1]', '', 'b').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[7, 9, '1']]);
  });

  it('has no fix', () => {
    const t = file('# %% A[^1]', '', '[^1]: [markdown]', '', 'a', '', '# %% B[^1]', '', 'b');
    const [d] = checkRule(RULE, t);
    expect(d!.diagnostic.fix).toBeUndefined();
    expect(d!.diagnostic.suggestions).toBeUndefined();
  });

  describe('disable comments', () => {
    const t = (directive: string) => file('# %% A[^1]', '', '[^1]: [markdown]', '', 'a', '', directive, '# %% B[^1]', '', 'b');

    it('disable-next-line above the later marker suppresses it', () => {
      expect(check(t(`<!-- msglint-disable-next-line ${RULE} -->`), { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('a disable-next-line for another rule is reported as unused', () => {
      const found = check(t('<!-- msglint-disable-next-line empty-cell -->'), { reportUnusedDisableDirectives: true });
      expect(found.map((f) => [f.ruleId, f.text])).toEqual([
        ['unused-disable', 'empty-cell'],
        [RULE, '1'],
      ]);
    });
  });
});
