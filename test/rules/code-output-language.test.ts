import { describe, expect, it } from 'vitest';
import { check, checkRule, file, fixText } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'code-output-language';

const code = (lang: string): string[] => ['# %% Run[^1]', '', '[^1]: [code]', '', '```' + lang, 'print(2)', '```', ''];
const out = (type: string): string[] => ['# %%% [^1.1]', '', `[^1.1]: [${type}] status="success"`, '', 'stdout> 2', ''];

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts the same language, in any case, and common aliases', () => {
    expect(check(file(...code('python'), ...out('python')))).toEqual([]);
    expect(check(file(...code('Python'), ...out('python')))).toEqual([]);
    expect(check(file(...code('py'), ...out('python')))).toEqual([]);
    expect(check(file(...code('js'), ...out('javascript')))).toEqual([]);
    expect(check(file(...code('sh'), ...out('bash')))).toEqual([]);
  });

  it('reports another language at the type, and fixes it to the code block language', () => {
    const text = file(...code('python'), ...out('bash'));
    const found = checkRule(ID, text);
    expect(found.map((f) => [f.text, f.line])).toEqual([['bash', 11]]);
    expect(found[0]!.diagnostic.severity).toBe(1);
    expect(found[0]!.message).toContain('`[python]`');
    const fixed = fixText(text);
    expect(fixed).toBe(file(...code('python'), ...out('python')));
    expect(check(fixed)).toEqual([]);
    expect(fixText(fixed)).toBe(fixed);
  });

  it('fixes a misspelled language that the id shows is a code output', () => {
    const text = file(...code('python'), ...out('pyhton'));
    expect(checkRule(ID, text).map((f) => f.text)).toEqual(['pyhton']);
    expect(check(fixText(text))).toEqual([]);
  });

  it('keeps the spelling of the code block language', () => {
    expect(fixText(file(...code('TypeScript'), ...out('python')))).toContain('[^1.1]: [TypeScript]');
  });

  it('leaves code blocks without a language to code-cell-block', () => {
    const text = file(...code(''), ...out('python'));
    expect(checkRule(ID, text)).toEqual([]);
  });

  it('leaves outputs without a valid code cell to code-output-parent', () => {
    const text = file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', ...out('bash'));
    expect(checkRule(ID, text)).toEqual([]);
  });
});
