// unknown-rule: a rule name in a msglint directive that is not a rule (rules.md, "Disable comments").
import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';

const RULE = 'unknown-rule';
const VALID = ['# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hello.'];

describe('unknown-rule', () => {
  it.each(['disable', 'enable', 'disable-line', 'disable-next-line', 'disable-file'])('reports an unknown name in msglint-%s', (kind) => {
    const t = file(`<!-- msglint-${kind} empty-cel -->`, ...VALID);
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 15 + kind.length, 'empty-cel']]);
    expect(found[0]!.message).toBe("Unknown rule 'empty-cel' in a msglint directive.");
    expect(found[0]!.diagnostic.severity).toBe(1);
  });

  it('reports each unknown name of a list, separated by commas or blanks', () => {
    const t = file('<!-- msglint-disable-file foo, empty-cell bar,baz -->', ...VALID);
    expect(checkRule(RULE, t).map((f) => [f.column, f.text])).toEqual([
      [27, 'foo'],
      [43, 'bar'],
      [47, 'baz'],
    ]);
  });

  it('does not read the description after -- as rule names', () => {
    const t = file('<!-- msglint-disable-next-line empty-cell -- not rules here -->', '# %% [^1]', '', '[^1]: [markdown]');
    expect(check(t)).toEqual([]);
  });

  it('is case-sensitive: rule ids are lower case', () => {
    expect(checkRule(RULE, file('<!-- msglint-disable Empty-Cell -->', ...VALID)).map((f) => f.text)).toEqual(['Empty-Cell']);
  });

  it('reports a directive inside a cell and in a multi-line comment', () => {
    const t = file(...VALID, '', '<!--', '  msglint-disable-next-line', '  nope', '-->', 'More.');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[9, 3, 'nope']]);
  });

  it('a directive naming only unknown rules suppresses nothing', () => {
    const t = file('<!-- msglint-disable-next-line empty-cel -->', '# %% [^1]', '', '[^1]: [markdown]');
    expect(check(t).map((f) => f.ruleId)).toEqual([RULE, 'empty-cell']);
  });

  it('a directive with known and unknown names still suppresses the known ones', () => {
    const t = file('<!-- msglint-disable-next-line empty-cel, empty-cell -->', '# %% [^1]', '', '[^1]: [markdown]');
    expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => [f.ruleId, f.text])).toEqual([[RULE, 'empty-cel']]);
  });

  it('ignores directive-like text in code blocks', () => {
    const t = file(...VALID, '', '```html', '<!-- msglint-disable nope -->', '```');
    expect(check(t)).toEqual([]);
  });

  it('is not a rule list when msglint- is not followed by a directive name', () => {
    expect(check(file('<!-- msglint-disabled nope -->', '<!-- msglint nope -->', ...VALID))).toEqual([]);
  });

  it('is not suppressed by directives (the engine reports it after applying them)', () => {
    const t = file('<!-- msglint-disable-file unknown-rule -->', '<!-- msglint-disable nope -->', ...VALID);
    expect(check(t).map((f) => [f.ruleId, f.text])).toEqual([[RULE, 'nope']]);
  });

  it('can be turned off or made an error in the configuration', () => {
    const t = file('<!-- msglint-disable nope -->', ...VALID);
    expect(check(t, { config: { rules: { [RULE]: 'off' } } })).toEqual([]);
    expect(check(t, { config: { rules: { [RULE]: 'error' } } })[0]!.diagnostic.severity).toBe(2);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = file('<!-- msglint-disable nope -->', ...VALID).replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[1, 22, 'nope']]);
  });
});
