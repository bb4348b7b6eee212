import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { SPEC_MD, VALID_FILES } from '../llm-view/examples.js';

const ID = 'message-section-missing';
const md = { fileName: 'notes.md' };
const doc = (section: string, heading: string): string =>
  file('---', `message_section: ${section}`, '---', '', '# Notes', '', 'Text.', '', heading, '', '## %% [^1]', '', '[^1]: [markdown]', '', 'Is this right?');

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts a heading of any level with the exact text', () => {
    expect(check(doc('Review', '### Review'), md)).toEqual([]);
    expect(check(doc('true', '# Discussion'), md)).toEqual([]);
    expect(check(doc('"Open questions"', '## Open questions'), md)).toEqual([]);
  });

  it('reports a section with no heading, at the frontmatter value', () => {
    const f = check(doc('Review', '# Reviews'), md);
    expect(f.map((x) => [x.ruleId, x.text, x.line])).toEqual([[ID, 'Review', 2]]);
    expect(f[0]!.message).toContain('Add a heading `# Review`');
  });

  it('reports `message_section: true` without a Discussion heading', () => {
    const f = checkRule(ID, doc('true', '# Talk'), md);
    expect(f.map((x) => x.text)).toEqual(['true']);
    expect(f[0]!.message).toContain('`Discussion`');
  });

  it('hints at a heading that differs only in case', () => {
    const f = checkRule(ID, doc('Discussion', '# discussion'), md);
    expect(f[0]!.message).toContain('The heading `discussion` differs only in case');
  });

  it('hints at an underlined (setext) heading too, and not at a `#` line inside an HTML block', () => {
    const f = checkRule(ID, doc('Discussion', 'discussion\n=========='), md);
    expect(f[0]!.message).toContain('The heading `discussion` differs only in case');
    const html = checkRule(ID, doc('Discussion', '<div>\n# discussion\n</div>'), md);
    expect(html[0]!.message).toContain('Add a heading `# Discussion`');
  });

  it('does not take a heading inside a code block or a cell marker for the section', () => {
    const text = file('---', 'message_section: Talk', '---', '', '```', '# Talk', '```');
    expect(checkRule(ID, text, md).map((x) => x.text)).toEqual(['Talk']);
  });

  it('ignores .msg.md files and ordinary .md files without message_section', () => {
    expect(checkRule(ID, file('---', 'message_section: Talk', '---', '', '# %% [^1]', '', '[^1]: [markdown]', '', 'Hi.'))).toEqual([]);
    expect(check(file('# Notes', '', 'Text.'), md)).toEqual([]);
    expect(checkRule(ID, SPEC_MD, md)).toEqual([]);
  });
});
