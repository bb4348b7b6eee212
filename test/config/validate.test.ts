// validateConfig against a rule list of its own, so the tests do not depend
// on which rules exist or which of them take options.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config/errors.js';
import { closestRuleId, validateConfig, type KnownRules } from '../../server/config/validate.js';
import type { RuleMeta } from '../../server/engine/types.js';

const rule = (id: string, validateOptions?: (options: unknown) => string | null): { meta: RuleMeta } => ({
  meta: {
    id,
    group: 'structure',
    severity: 'error',
    fixable: null,
    description: id,
    docs: `https://example.com/${id}`,
    ...(validateOptions ? { validateOptions } : {}),
  },
});
const RULES: KnownRules = [
  rule('cell-marker'),
  rule('context-window', (options) =>
    typeof options === 'object' && options !== null && typeof (options as { limit?: unknown }).limit === 'number'
      ? null
      : '"limit" must be a number',
  ),
];

function problem(obj: unknown, prefix?: string): string {
  try {
    validateConfig(obj, 'cfg.json', RULES, prefix);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('validateConfig', () => {
  it('accepts every documented key and form', () => {
    const config = {
      $schema: 'https://example.com/schema.json',
      root: true,
      rules: {
        'cell-marker': 'warn',
        'context-window': ['error', { limit: 5 }],
        'unused-disable': 0,
        'unknown-rule': ['off'],
      },
      agents: ['coder'],
      languages: ['elixir'],
      ignores: ['drafts/**', '*.tmp.msg.md'],
    };
    expect(validateConfig(config, 'cfg.json', RULES)).toEqual({
      root: true,
      rules: config.rules,
      agents: ['coder'],
      languages: ['elixir'],
      ignores: ['drafts/**', '*.tmp.msg.md'],
    });
    expect(validateConfig({}, 'cfg.json', RULES)).toEqual({});
    for (const severity of ['off', 'warn', 'error', 0, 1, 2]) {
      expect(validateConfig({ rules: { 'cell-marker': severity } }, 'x', RULES).rules).toEqual({ 'cell-marker': severity });
    }
  });

  it.each([
    [[], 'cfg.json: expected an object, got an array'],
    ['rules', 'cfg.json: expected an object, got "rules"'],
    [{ rule: {} }, 'cfg.json: unknown key "rule" (allowed: root, rules, agents, languages, ignores)'],
    [{ root: 'yes' }, 'cfg.json: "root" must be true or false, got "yes"'],
    [{ rules: [] }, 'cfg.json: "rules" must be an object mapping rule ids to severities, got an array'],
    [{ rules: { 'cell-markr': 'off' } }, 'cfg.json: unknown rule "cell-markr" in "rules" (did you mean "cell-marker"?)'],
    [{ rules: { 'totally-else': 'off' } }, 'cfg.json: unknown rule "totally-else" in "rules"'],
    [{ rules: { 'cell-marker': 'warning' } }, 'cfg.json: "rules.cell-marker": expected "off", "warn", "error", 0, 1, 2 or [severity, options], got "warning"'],
    [{ rules: { 'cell-marker': 3 } }, '"rules.cell-marker": expected'],
    [{ rules: { 'cell-marker': [] } }, '"rules.cell-marker": expected'],
    [{ rules: { 'cell-marker': ['warn', {}, 1] } }, '"rules.cell-marker": expected'],
    [{ rules: { 'context-window': ['warn', { limit: 'big' }] } }, 'cfg.json: "rules.context-window": invalid options: "limit" must be a number'],
    [{ agents: 'coder' }, 'cfg.json: "agents" must be an array of strings, got "coder"'],
    [{ languages: ['ok', 3] }, 'cfg.json: "languages[1]" must be a non-empty string, got 3'],
    [{ ignores: [''] }, '"ignores[0]" must be a non-empty string'],
    [{ ignores: ['!keep.msg.md'] }, '"ignores[0]": negated patterns ("!…") are not supported'],
  ])('rejects %j', (config, expected) => {
    expect(problem(config)).toContain(expected);
  });

  it('names keys as they appear in package.json', () => {
    expect(problem({ rules: { 'cell-marker': 'loud' } }, 'msglint.')).toContain('"msglint.rules.cell-marker"');
    expect(problem({ bogus: 1 }, 'msglint.')).toContain('unknown key "msglint.bogus"');
    expect(problem(5, 'msglint.')).toBe('cfg.json: "msglint" must be an object, got 5');
  });

  it('produces single-line messages', () => {
    expect(problem({ agents: ['a\nb', 'x'.repeat(200)], languages: 'a\nb' })).not.toContain('\n');
  });

  it('suggests only close rule ids', () => {
    expect(closestRuleId('cell-markers', RULES)).toBe('cell-marker');
    expect(closestRuleId('context', RULES)).toBeUndefined();
    // A swap of neighbouring letters is one edit.
    expect(closestRuleId('cell-mrakre', RULES)).toBe('cell-marker');
  });
});
