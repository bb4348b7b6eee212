import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'frontmatter-yaml';
const BODY = ['', '# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.'];
const withFrontmatter = (...yaml: string[]): string => file('---', ...yaml, '---', ...BODY);

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts valid frontmatter, an empty one, and none', () => {
    expect(check(withFrontmatter('title: Notes', 'tags: [a, b]'))).toEqual([]);
    expect(check(withFrontmatter())).toEqual([]);
    expect(check(file(...BODY.slice(1)))).toEqual([]);
    expect(check(file('---', 'title: x', '...', ...BODY))).toEqual([]);
  });

  it('reports a YAML error at its place', () => {
    const found = checkRule(ID, withFrontmatter('title: a: b'));
    expect(found.map((f) => [f.text, f.line, f.column])).toEqual([['a', 2, 8]]);
    expect(found[0]!.message).toContain('not valid YAML');
  });

  it('reports an unclosed flow list at its last character, not in the closing line', () => {
    const found = checkRule(ID, withFrontmatter('agents: [a, b'));
    expect(found.map((f) => [f.text, f.line])).toEqual([['b', 2]]);
  });

  it('reports a tab used as indentation at the tab', () => {
    expect(checkRule(ID, withFrontmatter('agents:', '\tcoder: {}')).map((f) => [f.text, f.line])).toEqual([['\t', 3]]);
  });

  it('reports a key given twice', () => {
    const found = checkRule(ID, withFrontmatter('title: a', 'title: b'));
    expect(found.map((f) => f.line)).toEqual([3]);
    expect(found[0]!.message).toContain('unique');
  });

  it('reports frontmatter that is not a mapping', () => {
    expect(checkRule(ID, withFrontmatter('just text')).map((f) => f.text)).toEqual(['just text']);
    expect(checkRule(ID, withFrontmatter('- a', '- b')).map((f) => f.text)).toEqual(['- a\n- b']);
  });

  it('reports frontmatter that is never closed, at the opening line', () => {
    const text = file('---', 'agents:', '  coder: {}', ...BODY);
    const found = check(text);
    expect(found.map((f) => [f.ruleId, f.text, f.line])).toEqual([[ID, '---', 1]]);
    expect(found[0]!.message).toContain('never closed');
  });

  it('reports an unclosed frontmatter after a BOM and with CRLF', () => {
    const text = '\ufeff' + file('---', 'title: x', ...BODY).replace(/\n/g, '\r\n');
    expect(checkRule(ID, text).map((f) => f.text)).toEqual(['---']);
  });

  it('reports nothing in an ordinary .md file that is not a message file', () => {
    expect(check(file('---', 'title: a: b', '---', '# Notes'), { fileName: 'notes.md' })).toEqual([]);
  });
});
