import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'agent-temperature-ignored';
const BODY = ['', '# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.'];
const agent = (...settings: string[]): string => file('---', 'agents:', '  coder:', ...settings.map((s) => `    ${s}`), '---', ...BODY);
const temporary = (attrs: string): string => file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', `[^fast]: [agent] ${attrs}`);

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts a temperature with use_temperature true or unset, and use_temperature false alone', () => {
    expect(check(agent('temperature: 0.2'))).toEqual([]);
    expect(check(agent('use_temperature: true', 'temperature: 0.2'))).toEqual([]);
    expect(check(agent('use_temperature: false'))).toEqual([]);
    expect(check(temporary('use_temperature=0'))).toEqual([]);
  });

  it('reports the temperature setting, pointing to use_temperature', () => {
    const f = checkRule(ID, agent('use_temperature: false', 'temperature: 0.2'));
    expect(f.map((x) => [x.text, x.line])).toEqual([['temperature: 0.2', 5]]);
    expect(f[0]!.diagnostic.severity).toBe(1);
    expect(f[0]!.diagnostic.tags).toEqual([1]);
    expect(f[0]!.diagnostic.related?.[0]!.range.start.line).toBe(3);
  });

  it('accepts False as YAML writes it, and checks temporary agents', () => {
    expect(checkRule(ID, agent('temperature: 1', 'use_temperature: False')).map((x) => x.text)).toEqual(['temperature: 1']);
    expect(checkRule(ID, temporary('use_temperature=false temperature=0.3')).map((x) => x.text)).toEqual(['temperature=0.3']);
    expect(checkRule(ID, temporary('temperature=0.3 use_temperature=0')).map((x) => x.text)).toEqual(['temperature=0.3']);
  });

  it('leaves invalid values to agent-config', () => {
    expect(checkRule(ID, agent('use_temperature: no', 'temperature: 0.2'))).toEqual([]);
    expect(checkRule(ID, agent('use_temperature: false', 'temperature: 5'))).toEqual([]);
  });
});
