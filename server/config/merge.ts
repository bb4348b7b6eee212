// How settings combine: a config over what it extends, an override over its config.

import type { MsglintConfig, RuleSetting } from '../engine/types.js';
import type { ConfigFileData, ConfigOverride } from './validate.js';

/**
 * `over` on top of `base`: rules by id (a severity alone keeps the options
 * `base` gave the rule, as in ESLint), lists joined without repeats,
 * overrides in order (`base`'s first), `root` as `over` has it.
 */
export function mergeConfigs(base: ConfigFileData, over: ConfigFileData): ConfigFileData {
  const merged: ConfigFileData = { ...base, ...mergeSettings(base, over) };
  if (over.root !== undefined) merged.root = over.root;
  for (const key of ['ignores'] as const) {
    const list = union(base[key], over[key]);
    if (list) merged[key] = list;
  }
  if (base.overrides || over.overrides) merged.overrides = [...(base.overrides ?? []), ...(over.overrides ?? [])];
  return merged;
}

/** The keys an override may set, merged as mergeConfigs merges them. */
export function mergeSettings(base: MsglintConfig, over: Pick<ConfigOverride, 'rules' | 'agents' | 'languages'>): MsglintConfig {
  const merged: MsglintConfig = {};
  if (base.rules || over.rules) merged.rules = mergeRules(base.rules ?? {}, over.rules ?? {});
  for (const key of ['agents', 'languages'] as const) {
    const list = union(base[key], over[key]);
    if (list) merged[key] = list;
  }
  return merged;
}

function mergeRules(base: Record<string, RuleSetting>, over: Record<string, RuleSetting>): Record<string, RuleSetting> {
  const rules = { ...base };
  for (const [id, setting] of Object.entries(over)) {
    const before = rules[id];
    const keepsOptions = !Array.isArray(setting) && Array.isArray(before) && before.length > 1;
    rules[id] = keepsOptions ? [setting, before[1]] : setting;
  }
  return rules;
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  if (!a) return b && [...b];
  if (!b) return [...a];
  return [...new Set([...a, ...b])];
}
