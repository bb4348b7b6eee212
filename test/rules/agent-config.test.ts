import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'agent-config';
const BODY = ['', '# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.'];
const agent = (...settings: string[]): string => file('---', 'agents:', '  coder:', ...settings.map((s) => `    ${s}`), '---', ...BODY);
const temporary = (attrs: string): string => file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', `[^fast]: [agent] ${attrs}`);
const found = (text: string): [string, string][] => checkRule(ID, text).map((f) => [f.text, f.message]);
const texts = (text: string): string[] => checkRule(ID, text).map((f) => f.text);

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts every setting with a valid value', () => {
    const text = agent(
      'models: [gpt-4o, claude-sonnet-4]',
      'context_window: 128000',
      'max_output_tokens: 128000',
      'reasoning: True',
      'use_temperature: false',
      'system_prompt: |',
      '      You are careful.',
    );
    expect(check(text)).toEqual([]);
    expect(check(agent('models: gpt-4o', 'temperature: 0', 'reasoning: FALSE'))).toEqual([]);
    expect(check(agent('temperature: 2'))).toEqual([]);
    expect(check(file('---', 'agents:', '  plain:', '---', '', '# %%% A[^1]', '', '[^1]: [plain]', '', 'Hi.'))).toEqual([]);
  });

  it('reports values of the wrong type at the value', () => {
    expect(texts(agent('models: 5'))).toEqual(['5']);
    expect(texts(agent('context_window: -1'))).toEqual(['-1']);
    expect(texts(agent('context_window: 1.5'))).toEqual(['1.5']);
    expect(texts(agent('max_output_tokens: [1]'))).toEqual(['[1]']);
    expect(texts(agent('temperature: 3'))).toEqual(['3']);
    expect(texts(agent('temperature: -0.1'))).toEqual(['-0.1']);
    expect(texts(agent('system_prompt: 12'))).toEqual(['12']);
    expect(texts(agent('models: []'))).toEqual(['[]']);
    expect(found(agent('reasoning: maybe'))).toEqual([['maybe', 'Agent `coder`: `reasoning` is `true` or `false`, not the text `maybe`.']]);
  });

  it('narrows a bad list item to the item', () => {
    const text = agent('models: [gpt-4o, 5]');
    const f = checkRule(ID, text);
    expect(f.map((x) => x.text)).toEqual(['5']);
    expect(applyFix(text, f[0]!.diagnostic, 0)).toBe(agent('models: [gpt-4o, "5"]'));
    expect(texts(agent('models:', '  - gpt-4o', '  - true'))).toEqual(['true']);
  });

  it('suggests the value that is most likely meant', () => {
    const cases: [string, string][] = [
      ['reasoning: yes', 'reasoning: true'],
      ['use_temperature: off', 'use_temperature: false'],
      ['context_window: 128k', 'context_window: 128000'],
      ['context_window: "4096"', 'context_window: 4096'],
      ['temperature: "0.5"', 'temperature: 0.5'],
    ];
    for (const [wrong, right] of cases) {
      const text = agent(wrong);
      const f = checkRule(ID, text);
      expect(f).toHaveLength(1);
      expect(f[0]!.diagnostic.fix).toBeUndefined();
      const fixed = applyFix(text, f[0]!.diagnostic, 0);
      expect(fixed).toBe(agent(right));
      expect(check(fixed)).toEqual([]);
    }
  });

  it('reports max_output_tokens above context_window', () => {
    const f = checkRule(ID, agent('context_window: 1000', 'max_output_tokens: 2000'));
    expect(f.map((x) => x.text)).toEqual(['2000']);
    expect(f[0]!.diagnostic.related?.[0]!.range.start.line).toBe(3);
  });

  it('reports an unknown key at the key, with the closest known key as suggestion', () => {
    const cases: [string, string][] = [
      ['temprature: 0.5', 'temperature: 0.5'],
      ['model: gpt-4o', 'models: gpt-4o'],
      ['maxTokens: 100', 'max_output_tokens: 100'],
      ['context-window: 100', 'context_window: 100'],
    ];
    for (const [wrong, right] of cases) {
      const text = agent(wrong);
      const f = checkRule(ID, text);
      expect(f.map((x) => x.text)).toEqual([wrong.split(':')[0]]);
      expect(f[0]!.message).toContain('did you mean');
      expect(applyFix(text, f[0]!.diagnostic, 0)).toBe(agent(right));
    }
  });

  it('reports an unknown key without a close match without a suggestion', () => {
    const f = checkRule(ID, agent('color: blue'));
    expect(f.map((x) => x.text)).toEqual(['color']);
    expect(f[0]!.diagnostic.suggestions).toBeUndefined();
  });

  // The engine gives every report of a rule the rule's severity; this turns
  // green once it honours a report's own `severity` (see docs/rules/agent-config.md).
  it('reports an unknown key as a warning', () => {
    expect(checkRule(ID, agent('color: blue'))[0]!.diagnostic.severity).toBe(1);
  });

  it('reports `agents` that is not a mapping, and an agent whose settings are not a mapping', () => {
    expect(texts(file('---', 'agents: [coder]', '---', ...BODY))).toEqual(['[coder]']);
    expect(texts(file('---', 'agents:', '  coder: gpt-4o', '---', ...BODY))).toEqual(['gpt-4o']);
    expect(check(file('---', 'agents:', '---', ...BODY))).toEqual([]);
  });

  describe('temporary agents', () => {
    it('accepts valid attributes, and other attributes', () => {
      expect(check(temporary('models="gpt-4o-mini,gpt-4.1-nano" context_window=128000 max_output_tokens=4096 reasoning=1 use_temperature=true temperature=0.3 default=1'))).toEqual([]);
      expect(check(temporary('time="2025-05-30T09:00:00+08:00" note="fast and cheap"'))).toEqual([]);
    });

    it('reports invalid values at the value', () => {
      expect(texts(temporary('temperature=3'))).toEqual(['3']);
      expect(texts(temporary('temperature=warm'))).toEqual(['warm']);
      expect(texts(temporary('context_window=12k'))).toEqual(['12k']);
      expect(texts(temporary('max_output_tokens=0'))).toEqual(['0']);
      expect(texts(temporary('use_temperature=maybe'))).toEqual(['maybe']);
      expect(texts(temporary('models=""'))).toEqual(['""']);
    });

    it('suggests a fix for an empty model name and for default=yes', () => {
      let text = temporary('models="a,,b"');
      let f = checkRule(ID, text);
      expect(f.map((x) => x.text)).toEqual(['"a,,b"']);
      expect(applyFix(text, f[0]!.diagnostic, 0)).toBe(temporary('models="a,b"'));
      text = temporary('default=yes');
      f = checkRule(ID, text);
      expect(applyFix(text, f[0]!.diagnostic, 0)).toBe(temporary('default=1'));
    });

    it('reports max_output_tokens above context_window', () => {
      expect(texts(temporary('context_window=100 max_output_tokens=200'))).toEqual(['200']);
    });

    it('reports a misspelled agent key, but allows other attributes', () => {
      const text = temporary('temprature=0.3');
      const f = checkRule(ID, text);
      expect(f.map((x) => x.text)).toEqual(['temprature']);
      expect(applyFix(text, f[0]!.diagnostic, 0)).toBe(temporary('temperature=0.3'));
      expect(checkRule(ID, temporary('colour=red'))).toEqual([]);
    });

    it('leaves system_prompt to agent-system-prompt', () => {
      expect(checkRule(ID, temporary('system_prompt="Be brief."'))).toEqual([]);
    });
  });
});
