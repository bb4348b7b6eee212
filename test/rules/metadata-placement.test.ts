// metadata-placement: a metadata line belongs on the first line after its marker
// that is neither blank nor an HTML comment (spec section 5).
import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';

const RULE = 'metadata-placement';

describe('metadata-placement', () => {
  describe('valid placement', () => {
    it('accepts the line right under the marker', () => {
      expect(check(file('# %% Ask[^1]', '[^1]: [markdown]', 'Hello.'))).toEqual([]);
    });

    it('accepts blank lines and HTML comments before it', () => {
      const t = file('# %% Ask[^1]', '', '', '<!-- written by hand -->', '<!--', 'a longer note', '-->', '', '[^1]: [markdown]', '', 'Hello.');
      expect(check(t)).toEqual([]);
    });

    it('accepts a disable comment before it', () => {
      const t = file('# %% Ask[^1]', '', '<!-- msglint-disable-next-line history-value -->', '[^1]: [markdown] history=excluded', '', 'Hello.');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });
  });

  it('reports a metadata line after content, at its reference, pointing to the marker', () => {
    const t = file('# %% Question[^1]', '', 'What is 2 + 2?', '', '[^1]: [markdown]');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 5, 1, '[^1]']]);
    expect(found[0]!.message).toBe('The metadata line of `1` belongs right under its marker (line 1), before any other content.');
    expect(found[0]!.diagnostic.severity).toBe(1);
    const related = found[0]!.diagnostic.related![0]!;
    expect(related.message).toBe('The cell marker');
    expect(related.range.start.line).toBe(0);
  });

  it('reports a metadata line after a code block', () => {
    const t = file('# %% Run[^1]', '', '```python', 'print(1)', '```', '[^1]: [code]');
    expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([[6, '[^1]']]);
  });

  it('reports a metadata line before its marker', () => {
    const t = file('[^1]: [markdown]', '', '# %% Question[^1]', '', 'What is 2 + 2?');
    expect(check(t).map((f) => [f.ruleId, f.line, f.message])).toEqual([
      [RULE, 1, 'The metadata line of `1` belongs right under its marker (line 3), before any other content.'],
    ]);
  });

  it('reports a metadata line in another cell', () => {
    const t = file('# %% A[^1]', '', 'a', '', '# %% B[^2]', '', '[^2]: [markdown]', '[^1]: [markdown]', '', 'b');
    expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([[8, '[^1]']]);
  });

  it('does not report the later cell of a duplicated id (duplicate-id does)', () => {
    const t = file('# %% A[^1]', '', '[^1]: [markdown]', '', 'a', '', '# %% B[^1]', '', 'b');
    expect(check(t).map((f) => f.ruleId)).toEqual(['duplicate-id']);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = file('# %% Question[^1]', '', 'Text.', '', '[^1]: [markdown]').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[5, 1, '[^1]']]);
  });

  describe('disable comments', () => {
    it('disable-next-line above the metadata line suppresses it', () => {
      const t = file('# %% Question[^1]', '', 'Text.', '', `<!-- msglint-disable-next-line ${RULE} -->`, '[^1]: [markdown]');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable ... enable around the cell suppresses it', () => {
      const t = file(`<!-- msglint-disable ${RULE} -->`, '# %% Question[^1]', '', 'Text.', '', '[^1]: [markdown]', `<!-- msglint-enable ${RULE} -->`);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });
  });
});
