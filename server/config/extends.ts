// `extends` and `overrides`: what a config file takes from others, and how
// settings combine.
//
// An entry of `extends` is a path (starting with `.`, `..` or `/`, relative
// to the config file that names it) or an installed package, found from that
// config file's directory as Node finds packages and named as ESLint names
// shareable configs: `foo` is the package `msglint-config-foo`, `@acme` is
// `@acme/msglint-config`, `@acme/foo` is `@acme/msglint-config-foo`, and a
// full name (`msglint-config-foo`, `@acme/msglint-config-foo`) or a file
// inside a package (`msglint-config-foo/strict.json`) is taken as written.
// A package's config is its main file: JSON, YAML, or a CommonJS module that
// exports the config object.

import { createRequire } from 'node:module';
import path from 'node:path';
import type { MsglintConfig, RuleSetting } from '../engine/types.js';
import { ConfigError } from './errors.js';
import type { ConfigFileData, ConfigOverride } from './validate.js';

const PREFIX = 'msglint-config';

/** The package name ESLint's convention gives a shareable config's short name. */
export function packageNameOf(specifier: string): string {
  if (specifier.startsWith('@')) {
    const slash = specifier.indexOf('/');
    if (slash === -1) return `${specifier}/${PREFIX}`;
    const scope = specifier.slice(0, slash);
    const rest = specifier.slice(slash + 1);
    const [name, ...file] = rest.split('/');
    const full = name!.startsWith(PREFIX) ? name! : `${PREFIX}-${name}`;
    return [`${scope}/${full}`, ...file].join('/');
  }
  const [name, ...file] = specifier.split('/');
  return [name!.startsWith(PREFIX) ? name! : `${PREFIX}-${name}`, ...file].join('/');
}

function isPath(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..' || path.isAbsolute(specifier);
}

/** The file an `extends` entry of the config at `configPath` names; throws ConfigError when there is none. */
export function resolveExtends(specifier: string, configPath: string, label: string): string {
  if (isPath(specifier)) return path.resolve(path.dirname(configPath), specifier);
  const name = packageNameOf(specifier);
  try {
    return createRequire(configPath).resolve(name);
  } catch {
    throw new ConfigError(`${label}: "extends": cannot find the package ${name}${name === specifier ? '' : ` (for "${specifier}")`} from ${path.dirname(configPath)}`, configPath);
  }
}

/** Reads one config file: its data as written, before its own `extends`, and its name for messages. */
export type ConfigReader = (file: string) => { data: ConfigFileData; label: string };

/**
 * `data` (read from `configPath`) with what it extends applied, in order,
 * each entry's own `extends` first. A config that extends itself, directly
 * or not, is an error.
 */
export function applyExtends(data: ConfigFileData, configPath: string, label: string, read: ConfigReader, chain: readonly string[] = []): ConfigFileData {
  const { extends: bases, ...own } = data;
  if (!bases?.length) return own;
  let merged: ConfigFileData = {};
  for (const specifier of bases) {
    const file = resolveExtends(specifier, configPath, label);
    if (file === configPath || chain.includes(file)) {
      throw new ConfigError(`${label}: "extends": "${specifier}" leads back to ${file}, which is already being read`, configPath);
    }
    const next = read(file);
    const base = applyExtends(next.data, file, next.label, read, [...chain, configPath]);
    // `root` belongs to the file it is written in: it says where a search ends.
    delete base.root;
    merged = mergeConfigs(merged, base);
  }
  return mergeConfigs(merged, own);
}

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
