import { describe, expect, it } from 'vitest';
import { checkAttributeSetting, checkYamlSetting, likelyKey, normalizeKey, FRONTMATTER_AGENT_KEYS, BODY_AGENT_KEYS } from '../../server/agents/schema.js';

const yamlOk = (key: string, value: unknown) => checkYamlSetting(key, value);
const value = (c: ReturnType<typeof checkYamlSetting>) => (c && c.ok ? c.value : 'bad');

describe('checkYamlSetting', () => {
  it('accepts valid values and returns them', () => {
    expect(value(yamlOk('models', 'gpt-4o'))).toEqual(['gpt-4o']);
    expect(value(yamlOk('models', ['a', 'b']))).toEqual(['a', 'b']);
    expect(value(yamlOk('context_window', 128000))).toBe(128000);
    expect(value(yamlOk('max_output_tokens', 1))).toBe(1);
    expect(value(yamlOk('reasoning', false))).toBe(false);
    expect(value(yamlOk('use_temperature', true))).toBe(true);
    expect(value(yamlOk('temperature', 0))).toBe(0);
    expect(value(yamlOk('temperature', 2))).toBe(2);
    expect(value(yamlOk('temperature', 0.7))).toBe(0.7);
    expect(value(yamlOk('system_prompt', 'Be brief.'))).toBe('Be brief.');
  });

  it('rejects wrong types and ranges', () => {
    for (const [k, v] of [
      ['models', 5],
      ['models', []],
      ['models', ''],
      ['models', ['a', null]],
      ['context_window', 0],
      ['context_window', -5],
      ['context_window', 1.5],
      ['context_window', '4096'],
      ['max_output_tokens', true],
      ['reasoning', 'yes'],
      ['reasoning', 1],
      ['use_temperature', null],
      ['temperature', 2.01],
      ['temperature', -1],
      ['temperature', '0.5'],
      ['system_prompt', 42],
      ['system_prompt', ['a']],
    ] as [string, unknown][]) {
      expect(value(yamlOk(k, v)), `${k}: ${JSON.stringify(v)}`).toBe('bad');
    }
  });

  it('points at the bad item of a list', () => {
    const c = checkYamlSetting('models', ['a', 'b', 3]);
    expect(c && !c.ok && c.problem.item).toBe(2);
  });

  it('says what was probably meant', () => {
    const r = (k: string, v: unknown) => {
      const c = checkYamlSetting(k, v);
      return c && !c.ok && c.problem.meant !== undefined ? String(c.problem.meant) : undefined;
    };
    expect(r('reasoning', 'yes')).toBe('true');
    expect(r('use_temperature', 'Off')).toBe('false');
    expect(r('context_window', '128k')).toBe('128000');
    expect(r('context_window', '1M')).toBe('1000000');
    expect(r('context_window', '128_000')).toBe('128000');
    expect(r('temperature', '0.5')).toBe('0.5');
    expect(r('temperature', 5)).toBeUndefined();
  });

  it('does not know other keys', () => {
    expect(checkYamlSetting('color', 'blue')).toBeUndefined();
  });
});

describe('checkAttributeSetting', () => {
  const v = (k: string, s: string) => {
    const c = checkAttributeSetting(k, s);
    return c && c.ok ? c.value : 'bad';
  };
  it('reads attribute strings', () => {
    expect(v('models', 'gpt-4o-mini, gpt-4.1-nano')).toEqual(['gpt-4o-mini', 'gpt-4.1-nano']);
    expect(v('context_window', '128000')).toBe(128000);
    expect(v('reasoning', 'True')).toBe(true);
    expect(v('reasoning', '0')).toBe(false);
    expect(v('use_temperature', 'false')).toBe(false);
    expect(v('temperature', '.5')).toBe(0.5);
    expect(v('default', '1')).toBe(true);
    expect(v('default', 'true')).toBe(true);
  });
  it('rejects bad strings', () => {
    for (const [k, s] of [
      ['models', ''],
      ['models', 'a,,b'],
      ['context_window', '0'],
      ['context_window', '012'],
      ['context_window', '1e3'],
      ['reasoning', 'yes'],
      ['temperature', '2.5'],
      ['temperature', 'hot'],
      ['default', 'True'],
      ['default', 'yes'],
    ]) {
      expect(v(k!, s!), `${k}=${s}`).toBe('bad');
    }
  });
  it('does not treat system_prompt or other attributes as settings', () => {
    expect(checkAttributeSetting('system_prompt', 'x')).toBeUndefined();
    expect(checkAttributeSetting('time', 'x')).toBeUndefined();
  });
});

describe('likelyKey', () => {
  it('finds the key meant by another spelling, a synonym or a typo', () => {
    expect(normalizeKey('maxOutputTokens')).toBe('max_output_tokens');
    expect(likelyKey('contextWindow', FRONTMATTER_AGENT_KEYS)).toBe('context_window');
    expect(likelyKey('max_tokens', FRONTMATTER_AGENT_KEYS)).toBe('max_output_tokens');
    expect(likelyKey('model', FRONTMATTER_AGENT_KEYS)).toBe('models');
    expect(likelyKey('prompt', FRONTMATTER_AGENT_KEYS)).toBe('system_prompt');
    expect(likelyKey('prompt', BODY_AGENT_KEYS)).toBeUndefined();
    expect(likelyKey('temprature', BODY_AGENT_KEYS)).toBe('temperature');
    expect(likelyKey('color', FRONTMATTER_AGENT_KEYS)).toBeUndefined();
  });
});
