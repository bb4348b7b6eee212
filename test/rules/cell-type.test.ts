// cell-type: a message cell (`%%`) has type markdown, code or raw (spec section 5, "Types").
import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'cell-type';
const FM = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', '---', ''];
const cell = (type: string) => file('# %% Question[^1]', '', `[^1]: [${type}]`, '', 'What is 2 + 2?');

describe('cell-type', () => {
  it('accepts markdown, code and raw', () => {
    expect(check(cell('markdown'))).toEqual([]);
    expect(check(cell('raw'))).toEqual([]);
    expect(check(file('# %% Run[^1]', '', '[^1]: [code]', '', '```python', 'print(2 + 2)', '```'))).toEqual([]);
  });

  it('reports another type at the type, as an error', () => {
    const found = check(cell('text'));
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 3, 8, 'text']]);
    expect(found[0]!.message).toBe('A message cell (`%%`) has type markdown, code or raw, not `text`.');
    expect(found[0]!.diagnostic.severity).toBe(2);
    expect(found[0]!.diagnostic.suggestions).toBeUndefined();
  });

  it('suggests the closest valid type for a typo or a case difference', () => {
    for (const [typo, best] of [['Markdown', 'markdown'], ['markdwn', 'markdown'], ['RAW', 'raw'], ['cod', 'code']] as const) {
      const t = cell(typo);
      const [f] = checkRule(RULE, t);
      expect(f!.diagnostic.suggestions!.map((s) => s.desc)).toEqual([`Change the type to \`${best}\``]);
      expect(applyFix(t, f!.diagnostic, 0)).toBe(cell(best));
    }
  });

  it('never changes the type with --fix (a suggestion only)', () => {
    const t = cell('Markdown');
    expect(fixText(t)).toBe(t);
  });

  it('hints at %%% when the type is an agent or tool', () => {
    const t = file(...FM, '# %% Reply[^1]', '', '[^1]: [coder]', '', 'Hello.');
    expect(checkRule(RULE, t).map((f) => f.message)).toEqual([
      'A message cell (`%%`) has type markdown, code or raw, not `coder`. Replies, tool calls and outputs use an output cell (`%%%`).',
    ]);
    expect(checkRule(RULE, cell('tool'))[0]!.message).toContain('use an output cell (`%%%`)');
  });

  it('does not check output cells (unknown-agent does)', () => {
    const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply[^2]', '', '[^2]: [coder]', '', 'Hello.');
    expect(check(t)).toEqual([]);
  });

  it('does not report a cell whose metadata has no [TYPE] (metadata-syntax does)', () => {
    expect(check(file('# %% Ask[^1]', '', '[^1]: markdown', '', 'Hi.')).map((f) => f.ruleId)).toEqual(['metadata-syntax']);
  });

  it('reports in a CRLF file at the same place and keeps CRLF in the suggestion', () => {
    const t = cell('Markdown').replace(/\n/g, '\r\n');
    const [f] = checkRule(RULE, t);
    expect([f!.line, f!.column, f!.text]).toEqual([3, 8, 'Markdown']);
    expect(applyFix(t, f!.diagnostic, 0)).toBe(cell('markdown').replace(/\n/g, '\r\n'));
  });

  describe('disable comments', () => {
    it('disable-line on the metadata line suppresses it', () => {
      const t = file('# %% Question[^1]', '', `[^1]: [text] <!-- msglint-disable-line ${RULE} -->`, '', 'Hi.');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-next-line naming an unknown rule as well suppresses it and reports the unknown name', () => {
      const t = file('# %% Question[^1]', '', `<!-- msglint-disable-next-line ${RULE}, cell-typ -->`, '[^1]: [text]', '', 'Hi.');
      expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => [f.ruleId, f.text])).toEqual([['unknown-rule', 'cell-typ']]);
    });
  });
});
