// validateConfig against a rule list of its own, so the tests do not depend
// on which rules exist or which of them take options.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config/errors.js';
import { closestRuleId, validateConfig, type KnownRules } from '../../server/config/validate.js';
import type { RuleMeta } from '../../server/engine/types.js';
import { ACCEPTED, REJECTED } from './cases.js';

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
  rule('empty-cell'),
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
    const config = ACCEPTED[0]!;
    expect(validateConfig(config, 'cfg.json', RULES)).toEqual({
      root: true,
      rules: config.rules,
      agents: ['coder'],
      languages: ['elixir'],
      ignores: ['drafts/**', '*.tmp.msg.md'],
    });
    for (const accepted of ACCEPTED) expect(() => validateConfig(accepted, 'cfg.json', RULES)).not.toThrow();
    expect(validateConfig({ extends: './base.json' }, 'cfg.json', RULES)).toEqual({ extends: ['./base.json'] });
    expect(validateConfig({}, 'cfg.json', RULES)).toEqual({});
    for (const severity of ['off', 'warn', 'error', 0, 1, 2]) {
      expect(validateConfig({ rules: { 'cell-marker': severity } }, 'x', RULES).rules).toEqual({ 'cell-marker': severity });
    }
  });

  it.each(REJECTED)('rejects %j', (config, expected) => {
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
