import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'default-agent';
const BODY = ['', '# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.'];
const fm = (...lines: string[]): string => file('---', 'agents:', '  coder: {}', '  reviewer: {}', ...lines, '---', ...BODY);

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts a defined agent, a temporary one and one from the configuration', () => {
    expect(check(fm('default_agent: coder'))).toEqual([]);
    expect(check(file('---', 'default_agent: fast', '---', ...BODY, '', '[^fast]: [agent]'))).toEqual([]);
    expect(check(file('---', 'default_agent: team', '---', ...BODY), { config: { agents: ['team'] } })).toEqual([]);
  });

  it('reports a name that is no agent, at the value, with the closest agent as suggestion', () => {
    const text = fm('default_agent: codr');
    const f = checkRule(ID, text);
    expect(f.map((x) => [x.text, x.line])).toEqual([['codr', 5]]);
    expect(f[0]!.message).toContain('`coder`, `reviewer`');
    expect(f[0]!.diagnostic.fix).toBeUndefined();
    const fixed = applyFix(text, f[0]!.diagnostic, 0);
    expect(fixed).toBe(fm('default_agent: coder'));
    expect(check(fixed)).toEqual([]);
  });

  it('replaces a quoted value whole', () => {
    const text = fm('default_agent: "reveiwer"');
    const f = checkRule(ID, text);
    expect(f.map((x) => x.text)).toEqual(['"reveiwer"']);
    expect(applyFix(text, f[0]!.diagnostic, 0)).toBe(fm('default_agent: reviewer'));
  });

  it('offers no suggestion when nothing is close', () => {
    const f = checkRule(ID, fm('default_agent: planner'));
    expect(f).toHaveLength(1);
    expect(f[0]!.diagnostic.suggestions).toBeUndefined();
  });

  it('says so when no agent is defined', () => {
    const f = checkRule(ID, file('---', 'default_agent: coder', '---', ...BODY));
    expect(f[0]!.message).toContain('no agent is defined');
  });

  it('reports an empty value and a value that is not a name', () => {
    expect(checkRule(ID, fm('default_agent:')).map((x) => x.text)).toEqual(['default_agent']);
    expect(checkRule(ID, fm('default_agent: [coder]')).map((x) => x.text)).toEqual(['[coder]']);
  });
});
