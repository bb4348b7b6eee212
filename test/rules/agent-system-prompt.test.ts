import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'agent-system-prompt';
const temporary = (attrs: string): string => file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', `[^fast]: [agent] ${attrs}`);

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts a system prompt in the frontmatter and a temporary agent without one', () => {
    expect(check(file('---', 'agents:', '  coder:', '    system_prompt: Be brief.', '---', '', '# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.'))).toEqual([]);
    expect(check(temporary('models="gpt-4o"'))).toEqual([]);
  });

  it('reports system_prompt on a temporary agent, the whole attribute', () => {
    const f = check(temporary('models="gpt-4o" system_prompt="Be brief."'));
    expect(f.map((x) => [x.ruleId, x.text, x.line])).toEqual([[ID, 'system_prompt="Be brief."', 7]]);
    expect(f[0]!.message).toContain('frontmatter');
  });

  it('does not check the metadata of cells', () => {
    expect(checkRule(ID, file('# %% Q[^1]', '', '[^1]: [markdown] system_prompt="x"', '', 'Hi.'))).toEqual([]);
  });
});
