import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'cell-outside-section';
const md = { fileName: 'notes.md' };
const cell = (id: string): string[] => [`## %% [^${id}]`, '', `[^${id}]: [markdown]`, '', 'Is this right?', ''];
const head = ['---', 'message_section: true', '---', '', '# Notes', '', 'Text.', ''];

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts cells in the section', () => {
    expect(check(file(...head, '# Discussion', '', ...cell('1'), ...cell('2')), md)).toEqual([]);
  });

  it('reports a marker before the section, the marker line', () => {
    const f = check(file(...head, ...cell('1'), '# Discussion', '', ...cell('2')), md);
    expect(f.map((x) => [x.ruleId, x.text, x.line])).toEqual([[ID, '## %% [^1]', 9]]);
    expect(f[0]!.message).toContain('before the message section');
    expect(f[0]!.diagnostic.related?.[0]!.range.start.line).toBe(14);
  });

  it('reports a marker after a heading that ends the section', () => {
    const f = checkRule(ID, file(...head, '# Discussion', '', ...cell('1'), '# Appendix', '', ...cell('2')), md);
    expect(f.map((x) => [x.text, x.line])).toEqual([['## %% [^2]', 19]]);
    expect(f[0]!.message).toContain('after the end of the message section');
  });

  it('reports malformed markers too, and not marker-like lines in code blocks', () => {
    const f = checkRule(ID, file(...head, '#%% [^1]', '```', '# %% [^9]', '```', '', '# Discussion', '', ...cell('2')), md);
    expect(f.map((x) => x.text)).toEqual(['#%% [^1]']);
  });

  it('leaves a missing section to message-section-missing', () => {
    const text = file('---', 'message_section: Talk', '---', '', ...cell('1'));
    expect(check(text, md).map((x) => x.ruleId)).toEqual(['message-section-missing']);
  });

  it('ignores .msg.md files', () => {
    expect(checkRule(ID, file(...cell('1')))).toEqual([]);
  });
});
