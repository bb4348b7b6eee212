// The JSON schema of config files, made from what validate.ts checks: the
// same keys, severities and rule ids. `npm run sync` writes it to
// msglint.schema.json (shipped in the package, and applied by the VS Code
// extension to .msglintrc.json, .msglintrc.jsonc and package.json's
// `msglint`), and
// test/config/schema.test.ts holds it to validateConfig's verdicts.
//
// Rule options are checked by a rule's `validateOptions`, a function a
// schema cannot carry: a rule that takes options gives their schema too
// (`optionsSchema`), held to the same verdicts by the test.

import type { RuleMeta } from '../engine/types.js';
import { DIRECTIVE_RULE_IDS, OVERRIDE_KEYS, SEVERITY_VALUES, TOP_LEVEL_KEYS, type KnownRules } from './validate.js';

type Schema = Record<string, unknown>;

/**
 * The schema of one rule's setting: a severity, or `[severity]` /
 * `[severity, options]`, the options as the rule's optionsSchema says (open
 * for a rule without one, as validateConfig leaves them).
 */
export function ruleSettingSchema(options?: Schema): Schema {
  const severity = { enum: [...SEVERITY_VALUES] };
  return { anyOf: [severity, { type: 'array', items: options ? [severity, options] : [severity], minItems: 1, maxItems: 2 }] };
}

/** A rule's description as editors show it on hover. */
export function ruleDescription(meta: Pick<RuleMeta, 'description' | 'severity' | 'fixable'>): string {
  return `${meta.description} (Default: \`${meta.severity === 'warning' ? 'warn' : meta.severity}\`${meta.fixable === 'fix' ? ', fixable' : ''}.)`;
}

/** `properties` of a `rules` object: each rule id with its setting and description. */
export function rulesProperties(rules: KnownRules): Record<string, Schema> {
  const properties: Record<string, Schema> = {};
  for (const { meta } of rules) properties[meta.id] = { ...ruleSettingSchema(meta.optionsSchema), markdownDescription: ruleDescription(meta) };
  for (const id of DIRECTIVE_RULE_IDS) properties[id] ??= { ...ruleSettingSchema(), markdownDescription: 'A disable comment rule.' };
  return properties;
}

const nonEmptyStrings = (description: string, negatable = true): Schema => ({
  type: 'array',
  items: { type: 'string', minLength: 1, ...(negatable ? {} : { not: { pattern: '^!' } }) },
  markdownDescription: description,
});

/** The schema of a config file (the `msglint` key of package.json has the same). */
export function configSchema(rules: KnownRules): Schema {
  const rulesSchema = {
    type: 'object',
    properties: rulesProperties(rules),
    additionalProperties: false,
    markdownDescription: 'Rule id to `"off"`, `"warn"`, `"error"` (or 0/1/2), or `[severity, options]`.',
  };
  const settings: Record<string, Schema> = {
    root: { type: 'boolean', markdownDescription: 'Stop looking for config files further up.' },
    extends: {
      anyOf: [{ type: 'string', minLength: 1 }, { type: 'array', items: { type: 'string', minLength: 1 } }],
      markdownDescription: 'Configs this one builds on, read as data (JSON or YAML, never a JavaScript module): a path (`./…`; from a config found in a repository, inside it) or an installed package (`acme` is `msglint-config-acme`, `@acme` is `@acme/msglint-config`).',
    },
    rules: rulesSchema,
    agents: nonEmptyStrings('Agent names defined elsewhere, accepted as output cell types.'),
    languages: nonEmptyStrings('Extra code output languages.'),
    ignores: nonEmptyStrings('Glob patterns (as in `.gitignore`, with `{a,b}`; relative to the config file) of files not to lint: at most 3 wildcards (`*`, `**`), one `**` before the end.', false),
    files: { ...nonEmptyStrings('The glob patterns (as in `ignores`) of the files this override applies to.', false), minItems: 1 },
  };
  const pick = (keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, settings[key]!]));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://raw.githubusercontent.com/msglint/msglint/main/msglint.schema.json',
    title: 'msglint config',
    // VS Code's words (its JSON language service, which other editors use
    // too): the config files may hold comments and trailing commas, so it
    // flags neither, whether it reads a file as JSON or as JSON with comments.
    allowComments: true,
    allowTrailingCommas: true,
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      ...pick(TOP_LEVEL_KEYS.filter((key) => key !== 'overrides')),
      overrides: {
        type: 'array',
        markdownDescription: 'Settings for the files that `files` matches, on top of the rest; later entries win.',
        items: { type: 'object', properties: pick(OVERRIDE_KEYS), required: ['files'], additionalProperties: false },
      },
    },
    additionalProperties: false,
  };
}
