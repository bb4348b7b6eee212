import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'agent-name';
const BODY = ['', '# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.'];
const agents = (...names: string[]): string => file('---', 'agents:', ...names.map((n) => `  ${n}: {}`), '---', ...BODY);

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts id segments as names', () => {
    expect(check(agents('coder', 'gpt-4o', 'my_agent', '42'))).toEqual([]);
    expect(check(file(...BODY.slice(1), '', '[^gpt-4o]: [agent]', '[^fast_1]: [agent]'))).toEqual([]);
  });

  it('reports a name that is not an id segment, at the name', () => {
    expect(checkRule(ID, agents('"my agent"')).map((f) => [f.text, f.message])).toEqual([
      ['"my agent"', 'An agent name is one id segment (A-Z a-z 0-9 _ -), used as `[name]`; `my agent` has `a space`. Name it `my-agent` and keep the model in `models`.'],
    ]);
    const body = checkRule(ID, file(...BODY.slice(1), '', '[^claude-3.5-sonnet]: [agent]'));
    expect(body[0]!.message).toContain('Name it `claude-3-5-sonnet` and keep the model as `models="claude-3.5-sonnet"`.');
    expect(checkRule(ID, agents('gpt.4o')).map((f) => f.text)).toEqual(['gpt.4o']);
    expect(checkRule(ID, file(...BODY.slice(1), '', '[^gpt-4o.mini]: [agent]')).map((f) => [f.text, f.line])).toEqual([['gpt-4o.mini', 7]]);
  });

  it('reports reserved names', () => {
    for (const name of ['tool', 'agent', 'markdown', 'code', 'raw']) {
      expect(checkRule(ID, agents(name)).map((f) => f.text), name).toEqual([name]);
    }
    expect(checkRule(ID, file(...BODY.slice(1), '', '[^raw]: [agent]')).map((f) => f.text)).toEqual(['raw']);
    expect(checkRule(ID, agents('Tool'))).toEqual([]);
  });

  it('reports an agent defined in the frontmatter and again in the body, at the second', () => {
    const f = checkRule(ID, file('---', 'agents:', '  coder: {}', '---', ...BODY, '', '[^coder]: [agent] models="gpt-4o"'));
    expect(f.map((x) => [x.text, x.line])).toEqual([['coder', 12]]);
    expect(f[0]!.message).toContain('in the frontmatter (line 3)');
    expect(f[0]!.diagnostic.related?.[0]!.range.start.line).toBe(2);
  });

  it('reports a temporary agent declared twice', () => {
    const f = checkRule(ID, file(...BODY.slice(1), '', '[^fast]: [agent]', '', '[^fast]: [agent] default=1'));
    expect(f.map((x) => [x.text, x.line])).toEqual([['fast', 9]]);
    expect(f[0]!.message).toContain('temporary agent line (line 7)');
  });

  it('allows a file to define an agent the configuration also names', () => {
    expect(checkRule(ID, agents('coder'), { config: { agents: ['coder'] } })).toEqual([]);
  });
});
