import { editDistance } from '../base/closest.js';
import type { MsglintConfig, RuleMeta, RuleSetting } from '../engine/types.js';
import { ConfigError } from './errors.js';
import { globCostProblem } from './globs.js';

/**
 * The rules a config may name, given by the caller (the CLI and the language
 * server pass the built-in ones): validating a config loads no rule.
 */
export type KnownRules = readonly { readonly meta: RuleMeta }[];

/** The keys of a config file, in the order messages list them. */
export const TOP_LEVEL_KEYS = ['root', 'extends', 'rules', 'agents', 'languages', 'ignores', 'overrides'] as const;
/** The keys of one entry of `overrides`: which files, and what applies to them. */
export const OVERRIDE_KEYS = ['files', 'rules', 'agents', 'languages'] as const;

/**
 * `$schema` is accepted (and ignored) so that editors can offer completion
 * for .msglintrc.json files; it carries no configuration.
 */
const IGNORED_KEYS = new Set(['$schema']);

/**
 * Rule ids the engine reports about disable comments. They are accepted in
 * configuration even if the rule list does not hold them as ordinary rules,
 * so `"unused-disable": "off"` never fails validation.
 */
export const DIRECTIVE_RULE_IDS: ReadonlySet<string> = new Set(['unknown-rule', 'unused-disable']);

/** The severities a rule setting takes, as words or numbers. */
export const SEVERITY_VALUES = ['off', 'warn', 'error', 0, 1, 2] as const;

/** An entry of `overrides`: settings for the files its globs match. */
export interface ConfigOverride {
  files: string[];
  rules?: Record<string, RuleSetting>;
  agents?: string[];
  languages?: string[];
}

/** A config file as written: a config, what it extends, and its overrides. */
export interface ConfigFileData extends MsglintConfig {
  /** Paths and package names, in the order given (a single string becomes a list of one). */
  extends?: string[];
  overrides?: ConfigOverride[];
}

const SEVERITIES: ReadonlySet<unknown> = new Set(SEVERITY_VALUES);

export function isKnownRuleId(id: string, rules: KnownRules): boolean {
  return DIRECTIVE_RULE_IDS.has(id) || rules.some((rule) => rule.meta.id === id);
}

export function isSeverity(value: unknown): value is 'off' | 'warn' | 'error' | 0 | 1 | 2 {
  return SEVERITIES.has(value);
}

/**
 * Checks an already parsed configuration object and returns it as a
 * MsglintConfig. Throws a ConfigError whose message is
 * "<sourceLabel>: <what is wrong>", naming the offending key, at the first
 * problem: one precise message is more useful than a list of consequences.
 *
 * `keyPrefix` names where the object sits in its file ("msglint." for
 * package.json) so that the key paths in messages are the ones the user sees.
 */
export function validateConfig(obj: unknown, sourceLabel: string, rules: KnownRules, keyPrefix = ''): ConfigFileData {
  const fail = (problem: string): never => {
    throw new ConfigError(`${sourceLabel}: ${problem}`);
  };
  if (!isPlainObject(obj)) {
    const what = keyPrefix ? `${JSON.stringify(keyPrefix.replace(/\.$/, ''))} must be an object` : 'expected an object';
    fail(`${what}, got ${describe(obj)}`);
  }
  return validateObject(obj as Record<string, unknown>, TOP_LEVEL_KEYS, keyPrefix, rules, fail);
}

function validateObject(
  input: Record<string, unknown>,
  allowed: readonly string[],
  keyPrefix: string,
  rules: KnownRules,
  fail: (problem: string) => never,
): ConfigFileData & Partial<ConfigOverride> {
  const key = (k: string) => JSON.stringify(keyPrefix + k);
  const config: ConfigFileData & Partial<ConfigOverride> = {};
  for (const [name, value] of Object.entries(input)) {
    if (allowed === TOP_LEVEL_KEYS && IGNORED_KEYS.has(name)) continue;
    if (!allowed.includes(name)) fail(`unknown key ${JSON.stringify(keyPrefix + name)} (allowed: ${allowed.join(', ')})`);
    switch (name) {
      case 'root':
        if (typeof value !== 'boolean') fail(`${key('root')} must be true or false, got ${describe(value)}`);
        config.root = value as boolean;
        break;
      case 'rules':
        config.rules = validateRules(value, rules, key, fail);
        break;
      case 'extends':
        config.extends = validateStringList(typeof value === 'string' ? [value] : value, keyPrefix + name, fail, 'a string or an array of strings');
        break;
      case 'files':
        config.files = validateGlobs(value, keyPrefix + name, fail);
        if (config.files.length === 0) fail(`${key('files')} must name at least one pattern`);
        break;
      case 'ignores':
        config.ignores = validateGlobs(value, keyPrefix + name, fail);
        break;
      case 'agents':
      case 'languages':
        config[name] = validateStringList(value, keyPrefix + name, fail);
        break;
      case 'overrides':
        if (!Array.isArray(value)) fail(`${key('overrides')} must be an array of objects, got ${describe(value)}`);
        config.overrides = (value as unknown[]).map((item, i) => {
          const where = `${keyPrefix}overrides[${i}]`;
          if (!isPlainObject(item)) fail(`${JSON.stringify(where)} must be an object, got ${describe(item)}`);
          const override = validateObject(item as Record<string, unknown>, OVERRIDE_KEYS, `${where}.`, rules, fail);
          if (override.files === undefined) fail(`${JSON.stringify(where)} needs "files", the patterns of the files it applies to`);
          return override as ConfigOverride;
        });
        break;
    }
  }
  return config;
}

function validateRules(
  value: unknown,
  known: KnownRules,
  key: (k: string) => string,
  fail: (problem: string) => never,
): Record<string, RuleSetting> {
  if (!isPlainObject(value)) {
    return fail(`${key('rules')} must be an object mapping rule ids to severities, got ${describe(value)}`);
  }
  const rules: Record<string, RuleSetting> = {};
  for (const [id, setting] of Object.entries(value as Record<string, unknown>)) {
    const meta = known.find((rule) => rule.meta.id === id)?.meta;
    if (!meta && !DIRECTIVE_RULE_IDS.has(id)) {
      const hint = closestRuleId(id, known);
      fail(`unknown rule ${JSON.stringify(id)} in ${key('rules')}${hint ? ` (did you mean "${hint}"?)` : ''}`);
    }
    const where = key(`rules.${id}`);
    const expected = `expected "off", "warn", "error", 0, 1, 2 or [severity, options]`;
    if (Array.isArray(setting)) {
      if (setting.length < 1 || setting.length > 2 || !isSeverity(setting[0])) {
        fail(`${where}: ${expected}, got ${describe(setting)}`);
      }
      if (setting.length === 2) {
        // The engine reads options by recursion (JSON.stringify among others):
        // thousands of levels would overflow the stack on every lint.
        if (nestedDeeperThan(setting[1], MAX_OPTION_DEPTH)) fail(`${where}: options nested more than ${MAX_OPTION_DEPTH} levels deep`);
        const problem = meta?.validateOptions?.(setting[1]) ?? null;
        if (problem !== null) fail(`${where}: invalid options: ${problem}`);
      }
      rules[id] = setting as RuleSetting;
    } else if (isSeverity(setting)) {
      rules[id] = setting;
    } else {
      fail(`${where}: ${expected}, got ${describe(setting)}`);
    }
  }
  return rules;
}

/** No rule's options come near this; it is far from the stack's limit. */
const MAX_OPTION_DEPTH = 64;

/** Whether arrays and objects in `value` nest more than `limit` levels deep; read without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Glob patterns (`ignores`, an override's `files`): strings, none too costly to match (globs.ts). */
function validateGlobs(value: unknown, name: string, fail: (problem: string) => never): string[] {
  const patterns = validateStringList(value, name, fail);
  patterns.forEach((pattern, i) => {
    const problem = globCostProblem(pattern);
    if (problem) fail(`${JSON.stringify(`${name}[${i}]`)}: the pattern ${problem} (matching it against a long name could take minutes)`);
  });
  return patterns;
}

function validateStringList(value: unknown, name: string, fail: (problem: string) => never, expected = 'an array of strings'): string[] {
  if (!Array.isArray(value)) return fail(`"${name}" must be ${expected}, got ${describe(value)}`);
  value.forEach((item, i) => {
    if (typeof item !== 'string' || item === '') {
      fail(`"${name}[${i}]" must be a non-empty string, got ${describe(item)}`);
    }
    // A negated glob in a list of exclusions would exclude everything else.
    if ((name.endsWith('ignores') || name.endsWith('files')) && (item as string).startsWith('!')) {
      fail(`"${name}[${i}]": negated patterns ("!…") are not supported`);
    }
  });
  return [...(value as string[])];
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A wrong value in a message: what kind it is, and a number or boolean as
 * written, never a string's text (the file may be any file a link leads to,
 * and a message must not show what it holds).
 */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return String(value);
}

/** The rule id nearest to a misspelt one, if it is close enough to be a typo. */
export function closestRuleId(id: string, rules: KnownRules): string | undefined {
  const limit = Math.max(2, Math.floor(id.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const rule of rules) {
    const d = editDistance(id, rule.meta.id, limit);
    if (d < bestDistance) {
      best = rule.meta.id;
      bestDistance = d;
    }
  }
  return best;
}
