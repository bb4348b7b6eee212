import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'message-section-not-last';
const md = { fileName: 'notes.md' };
const cell = ['## %% [^1]', '', '[^1]: [markdown]', '', 'Is this right?', ''];
const head = ['---', 'message_section: true', '---', '', '# Notes', '', 'Text.', ''];

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts lower-level headings inside the section', () => {
    expect(check(file(...head, '# Discussion', '', '## Round one', '', ...cell, '### Details', '', 'More.'), md)).toEqual([]);
  });

  it('reports the first heading of the same level after the section, the whole heading line', () => {
    const f = checkRule(ID, file(...head, '# Discussion', '', ...cell, '# Appendix', '', 'Later text.'), md);
    expect(f.map((x) => [x.text, x.line])).toEqual([['# Appendix', 17]]);
    expect(f[0]!.message).toContain('must be the last section');
    expect(f[0]!.diagnostic.related?.[0]!.range.start.line).toBe(8);
  });

  it('reports a heading of a higher level', () => {
    const f = checkRule(ID, file(...head, '## Discussion', '', ...cell, '# Appendix', '', '# Another'), md);
    expect(f.map((x) => x.text)).toEqual(['# Appendix']);
  });

  it('does not count headings in code blocks or cell markers', () => {
    expect(check(file(...head, '# Discussion', '', ...cell, '```', '# not a heading', '```', '', '# %%% [^2]', '', '[^2]: [markdown-output]', ''), md).filter((x) => x.ruleId === ID)).toEqual([]);
  });
});
