// Finding and reading configuration files.
//
// Discovery model (chosen deliberately; keep the language server on it too):
// the NEAREST config wins and configs are NEVER merged across directory
// levels. For a file, the search starts in the file's directory and walks up
// to the filesystem root; in each directory the first of CONFIG_FILE_NAMES
// that exists is the config (a package.json counts only when it has a
// "msglint" key). The first directory that has one ends the search, so
// `"root": true` needs no extra handling: whichever config is found is already
// the last one read. `root` is accepted so a config can say explicitly that it
// is the top of a project, and so a future cascading model stays compatible.
// Without any config file, the empty config (rule defaults) applies. What a
// config takes from others is what it names in `extends` (extends.ts), and
// its `overrides` make its config depend on the file, not only the directory.

import { createRequire } from 'node:module';
import path from 'node:path';
import type { MsglintConfig } from '../engine/types.js';
import { ConfigError } from './errors.js';
import { createIgnoreMatcher } from './ignores.js';
import { nestedTooDeep } from '../syntax/format/simple-yaml.js';
import { loadYaml } from '../base/lazy.js';
import { applyExtends, mergeSettings, type ConfigReader } from './extends.js';
import { validateConfig, type ConfigFileData, type KnownRules } from './validate.js';
import { leavesBase } from './paths.js';
import { CONFIG_MAX_BYTES, NotReadableError, readRegularFile } from '../base/read-file.js';

/** In order of precedence when one directory holds several. */
export const CONFIG_FILE_NAMES = ['.msglintrc.json', '.msglintrc.yaml', '.msglintrc.yml', 'package.json'] as const;

export interface LoadedConfig {
  config: MsglintConfig;
  /** Absent when no config file applies (defaults). */
  configPath?: string;
}

export interface ResolvedConfig extends LoadedConfig {
  /** Whether `ignores` excludes this absolute path (patterns are relative to the config's directory). */
  isIgnored(absolutePath: string): boolean;
  /** The config of one file under this one: `config` with the `overrides` whose `files` match it. */
  forFile(absolutePath: string): ResolvedConfig;
}

const NO_CONFIG: ResolvedConfig = Object.freeze({
  config: Object.freeze({}) as MsglintConfig,
  isIgnored: () => false,
  forFile: () => NO_CONFIG,
});

/**
 * Resolves the config for files and directories, caching by directory so a
 * tree of thousands of files reads each config file once and probes each
 * directory once.
 */
export class ConfigResolver {
  private readonly byDirectory = new Map<string, ResolvedConfig>();
  private readonly explicit?: ResolvedConfig;

  /**
   * `rules`: the rules configs may name. With `explicitConfigPath` that file
   * is used for everything and nothing is searched.
   */
  constructor(
    private readonly rules: KnownRules,
    explicitConfigPath?: string,
  ) {
    if (explicitConfigPath !== undefined) {
      const configPath = path.resolve(explicitConfigPath);
      this.explicit = resolved(loadConfigFile(configPath, { explicit: true, rules }) ?? {}, configPath);
    }
  }

  /** The config of a file: its directory's, with the overrides that match the file. */
  forFile(filePath: string): ResolvedConfig {
    const absolute = path.resolve(filePath);
    return this.forDirectory(path.dirname(absolute)).forFile(absolute);
  }

  /**
   * `entries` (the directory's file names, when the caller has listed it
   * anyway) spares probing for config files that are not there.
   */
  forDirectory(directory: string, entries?: ReadonlySet<string>): ResolvedConfig {
    if (this.explicit) return this.explicit;
    const dir = path.resolve(directory);
    const cached = this.byDirectory.get(dir);
    if (cached) return cached;

    let result: ResolvedConfig | undefined;
    for (const name of CONFIG_FILE_NAMES) {
      if (entries && !entries.has(name)) continue;
      const candidate = path.join(dir, name);
      const config = loadConfigFile(candidate, { explicit: false, rules: this.rules });
      if (config !== undefined) {
        result = resolved(config, candidate);
        break;
      }
    }
    if (!result) {
      const parent = path.dirname(dir);
      result = parent === dir ? NO_CONFIG : this.forDirectory(parent);
    }
    this.byDirectory.set(dir, result);
    return result;
  }

  clear(): void {
    this.byDirectory.clear();
  }
}

function resolved(data: ConfigFileData, configPath: string): ResolvedConfig {
  const { overrides, ...config } = data;
  const baseDir = path.dirname(configPath);
  const matcher = config.ignores?.length ? createIgnoreMatcher(config.ignores, baseDir) : undefined;
  const isIgnored = matcher ?? (() => false);
  // `files` patterns follow the conventions of `ignores`, from the same directory.
  const matchers = (overrides ?? []).map((override) => createIgnoreMatcher(override.files, baseDir));
  // One config object per set of matching overrides, so the caches keyed by
  // config (rule planning, --rule, --cache) see each combination once.
  const byMatch = new Map<string, ResolvedConfig>();
  const forFile = (absolutePath: string): ResolvedConfig => {
    const hits = matchers.flatMap((matches, i) => (matches(absolutePath) ? [i] : []));
    if (hits.length === 0) return whole;
    const key = hits.join(',');
    let result = byMatch.get(key);
    if (!result) {
      const merged = hits.reduce<MsglintConfig>((c, i) => ({ ...c, ...mergeSettings(c, overrides![i]!) }), config);
      result = { config: merged, configPath, isIgnored, forFile };
      byMatch.set(key, result);
    }
    return result;
  };
  const whole: ResolvedConfig = { config, configPath, isIgnored, forFile };
  return whole;
}

let defaultResolver: { rules: KnownRules; resolver: ConfigResolver } | undefined;

/**
 * The config that applies to a file (see the discovery model at the top of
 * this module). Cached per directory for the life of the process; callers
 * that watch config files (the language server) call clearConfigCache() when
 * one changes. Throws ConfigError for a config that cannot be used.
 */
export function loadConfigForFile(filePath: string, rules: KnownRules): LoadedConfig {
  if (defaultResolver?.rules !== rules) defaultResolver = { rules, resolver: new ConfigResolver(rules) };
  const { config, configPath } = defaultResolver.resolver.forFile(filePath);
  return configPath === undefined ? { config } : { config, configPath };
}

export function clearConfigCache(): void {
  defaultResolver?.resolver.clear();
}

/**
 * Reads and validates one config file, with what it extends applied.
 * Returns undefined when the file does not exist or (for package.json found
 * by search) has no "msglint" key. Throws ConfigError for anything unusable.
 */
export function loadConfigFile(configPath: string, { explicit, rules }: { explicit: boolean; rules: KnownRules }): ConfigFileData | undefined {
  const data = readConfigData(configPath, explicit, rules);
  if (data === undefined) return undefined;
  const read: ConfigReader = (file) => ({ data: readConfigData(file, true, rules)!, label: displayPath(file) });
  return applyExtends(data, configPath, displayPath(configPath), read);
}

/** One config file's data as written (its `extends` not applied). */
function readConfigData(configPath: string, explicit: boolean, rules: KnownRules): ConfigFileData | undefined {
  const label = displayPath(configPath);
  const base = path.basename(configPath);
  // A shareable config may be a CommonJS module (as ESLint's are).
  if (/\.c?js$/i.test(base)) return validateConfig(requireConfig(configPath, label), label, rules);
  let text: string;
  try {
    text = readRegularFile(configPath, CONFIG_MAX_BYTES).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!explicit && (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR')) return undefined;
    throw new ConfigError(`${label}: cannot read config file: ${describeFsError(error)}`, configPath);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  try {
    if (base === 'package.json') {
      const pkg = parseJson(text, label, configPath);
      const section = typeof pkg === 'object' && pkg !== null ? (pkg as Record<string, unknown>).msglint : undefined;
      if (section === undefined) {
        if (explicit) throw new ConfigError(`${label}: no "msglint" key`, configPath);
        return undefined;
      }
      return validateConfig(section, label, rules, 'msglint.');
    }
    const data = /\.json$/i.test(base) ? parseJson(text, label, configPath) : parseYaml(text, label, configPath);
    return validateConfig(data, label, rules);
  } catch (error) {
    if (error instanceof ConfigError && error.configPath === undefined) {
      throw new ConfigError(error.message, configPath);
    }
    throw error;
  }
}

function requireConfig(file: string, label: string): unknown {
  try {
    const loaded = createRequire(file)(file) as unknown;
    // Node 20.19 and later load an ES module this way too, as its namespace.
    const namespace = loaded as { [Symbol.toStringTag]?: unknown; default?: unknown } | null;
    return namespace?.[Symbol.toStringTag] === 'Module' ? namespace.default : loaded;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ERR_REQUIRE_ESM' ? 'an ES module, which this Node cannot load synchronously; use CommonJS (module.exports = {…}) or JSON' : oneLineMessage(error);
    throw new ConfigError(`${label}: cannot load config module: ${why}`, file);
  }
}

function oneLineMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

function parseJson(text: string, label: string, configPath: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    let message = (error as Error).message.split('\n')[0]!;
    // V8 reports an offset only; people look for line and column.
    const position = /at position (\d+)/.exec(message);
    if (position && !/line \d+/.test(message)) {
      const { line, column } = lineAndColumn(text, Number(position[1]));
      message += ` (line ${line}, column ${column})`;
    }
    throw new ConfigError(`${label}: invalid JSON: ${message}`, configPath);
  }
}

function parseYaml(text: string, label: string, configPath: string): unknown {
  // The library reads nested nodes by recursion: far too deep, and V8 may
  // abort the process rather than throw (see nestedTooDeep).
  const deep = nestedTooDeep(text, 200);
  if (deep !== -1) {
    const { line, column } = lineAndColumn(text, deep);
    throw new ConfigError(`${label}: invalid YAML: nested more than 200 levels deep (line ${line}, column ${column})`, configPath);
  }
  // Loaded on first use: most runs have no YAML config, and config loading is
  // synchronous by contract (the language server calls it from handlers).
  const doc = loadYaml().parseDocument(text);
  const [first] = doc.errors;
  if (first) {
    // The library's message continues with a multi-line excerpt; its first
    // line already ends with "at line L, column C:".
    const message = first.message.split('\n')[0]!.replace(/:\s*$/, '');
    throw new ConfigError(`${label}: invalid YAML: ${message}`, configPath);
  }
  const value: unknown = doc.toJS();
  // An empty YAML file is an empty config rather than an error.
  return value ?? {};
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Config paths in messages: relative to the working directory when inside it. */
export function displayPath(absolutePath: string): string {
  const relative = path.relative(process.cwd(), absolutePath);
  return relative && !leavesBase(relative) ? relative : absolutePath;
}

export function describeFsError(error: unknown): string {
  if (error instanceof NotReadableError) return error.message;
  const err = error as NodeJS.ErrnoException;
  switch (err.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    default: {
      if (!err.code) return String(err.message ?? err);
      // Node's messages already start with the code ("ENOSPC: no space left on device, write").
      const first = String(err.message ?? '').split('\n')[0]!;
      return first.startsWith(`${err.code}:`) ? first : `${err.code}: ${first}`;
    }
  }
}
