// msglint.schema.json, the JSON schema of config files: generated from the
// validator's own keys and the rule list (npm run sync), and giving the
// validator's verdict on every config its tests try, and on the README's.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config/errors.js';
import { configSchema } from '../../server/config/schema.js';
import { validateConfig } from '../../server/config/validate.js';
import { allRules } from '../../server/linter.js';
import { ACCEPTED, REJECTED } from './cases.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const shipped = JSON.parse(readFileSync(path.join(ROOT, 'msglint.schema.json'), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv({ allErrors: true, strict: false });
const schemaAccepts = ajv.compile(shipped);

function validatorAccepts(config: unknown): boolean {
  try {
    validateConfig(config, 'cfg.json', allRules);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return false;
  }
}

describe('msglint.schema.json', () => {
  it('is what npm run sync makes of the rules now', () => {
    expect(shipped).toEqual(JSON.parse(JSON.stringify(configSchema(allRules))));
  });

  it('is shipped in the package', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('msglint.schema.json');
  });

  it.each([...ACCEPTED.map((c) => [c] as const), ...REJECTED.map(([c]) => [c] as const)])('gives the validator’s verdict on %j', (config) => {
    expect(schemaAccepts(config)).toBe(validatorAccepts(config));
  });

  it('agrees on the configs of the README and docs/configuration.md, each with its $schema', () => {
    const docs = ['README.md', 'docs/configuration.md'].map((file) => readFileSync(path.join(ROOT, file), 'utf8')).join('\n');
    const examples = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>).filter((c) => '$schema' in c);
    expect(examples.length).toBe(2);
    for (const example of examples) {
      expect(example.$schema).toBe(shipped.$id);
      expect(validatorAccepts(example)).toBe(true);
      expect(schemaAccepts(example), ajv.errorsText(schemaAccepts.errors)).toBe(true);
    }
  });

  // The built-in rules that take options (secret), both ways.
  it.each([
    { rules: { secret: ['error', { redact: true }] } },
    { rules: { secret: ['warn', {}] } },
    { rules: { secret: ['error', { redact: 'yes' }] } },
    { rules: { secret: ['error', { redacted: true }] } },
    { rules: { secret: ['error', true] } },
  ])('gives the validator’s verdict on the options of %j', (config) => {
    expect(schemaAccepts(config)).toBe(validatorAccepts(config));
  });

  it('knows the options of every rule that checks them: validateOptions is a function, optionsSchema what the schema carries', () => {
    expect(allRules.filter((rule) => rule.meta.validateOptions && !rule.meta.optionsSchema).map((rule) => rule.meta.id)).toEqual([]);
  });
});
