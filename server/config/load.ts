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

import path from 'node:path';
import type { MsglintConfig } from '../engine/types.js';
import { createIgnoreMatcher } from './ignores.js';
import { ConfigFiles } from './extends.js';
import { mergeSettings } from './merge.js';
import { commandLineReach, type ReachOf } from './reach.js';
import type { ConfigFileData, KnownRules } from './validate.js';

export { describeFsError, displayPath } from './messages.js';

/** In order of precedence when one directory holds several. */
export const CONFIG_FILE_NAMES = ['.msglintrc.json', '.msglintrc.jsonc', '.msglintrc.yaml', '.msglintrc.yml', 'package.json'] as const;

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
  private readonly files: ConfigFiles;
  private readonly explicit?: ResolvedConfig;

  /**
   * `rules`: the rules configs may name. With `explicitConfigPath` that file
   * is used for everything and nothing is searched. `reachOf`: where a
   * config found at a path may read (reach.ts); the command's by default.
   */
  constructor(
    rules: KnownRules,
    explicitConfigPath?: string,
    private readonly reachOf: ReachOf = commandLineReach(process.cwd()),
  ) {
    this.files = new ConfigFiles(rules);
    if (explicitConfigPath !== undefined) {
      const configPath = path.resolve(explicitConfigPath);
      this.explicit = resolved(this.files.load(configPath, undefined) ?? {}, configPath);
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
      const config = this.files.load(candidate, this.reachOf);
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
    this.files.clear();
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
