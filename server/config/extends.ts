// `extends`: what a config file takes from others.
//
// An entry of `extends` is a path (starting with `.`, `..` or `/`, relative
// to the config file that names it) or an installed package (packages.ts).
// A package's config is its main file, JSON or YAML. Configs are data: a
// JavaScript module is refused, never run (issue 45). Where an entry may
// lead is reach.ts's; each file is read once per run, through the guarded
// reader, and a chain is bounded in depth and in the files it reaches.

import { realpathSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_MAX_BYTES, readRegularFile } from '../base/read-file.js';
import { ConfigError } from './errors.js';
import { mergeConfigs } from './merge.js';
import { describeFsError, displayPath } from './messages.js';
import { findPackage } from './packages.js';
import { isModuleName, MODULE_REFUSED, parseConfig } from './parse.js';
import { isInside, type Reach, type ReachOf } from './reach.js';
import type { ConfigFileData, KnownRules } from './validate.js';

/** How many configs deep `extends` may nest, and how many files one config may reach: far past any real chain. */
export const MAX_EXTENDS_DEPTH = 16;
export const MAX_EXTENDS_FILES = 64;

function isPath(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..' || path.isAbsolute(specifier);
}

/** One config file on disk: where it was named, its real path, and its name in messages. */
interface ConfigFile {
  path: string;
  real: string;
  label: string;
  /** Where the files it names may lie; undefined: anywhere (the chain of a config the user named). */
  reach: Reach | undefined;
}

/** A config as written, or why it cannot be used; undefined: a package.json without a "msglint" key. */
type Written = { data: ConfigFileData | undefined } | { error: unknown } | { absent: true };

/** A config file's own settings (its `extends` left out), by its real path. */
interface Own {
  real: string;
  data: ConfigFileData;
}

/**
 * The config files of a run: each read and parsed once (by real path), and
 * each chain applied once per reach, so configs that extend one another
 * several times each cost what their files cost.
 */
export class ConfigFiles {
  private readonly written = new Map<string, Written>();
  private readonly ordered = new Map<string, readonly Own[]>();

  constructor(private readonly rules: KnownRules) {}

  clear(): void {
    this.written.clear();
    this.ordered.clear();
  }

  /**
   * The config at `configPath` with what it extends applied. `reachOf`:
   * where a config found there may read (undefined for one the user named,
   * which must exist). Undefined when a found one is not there (or is a
   * package.json without a "msglint" key).
   */
  load(configPath: string, reachOf: ReachOf | undefined): ConfigFileData | undefined {
    const named = reachOf === undefined;
    const label = displayPath(configPath);
    if (isModuleName(configPath)) throw new ConfigError(`${label}: ${MODULE_REFUSED}`, configPath);
    let real: string;
    try {
      real = realpathSync.native(configPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (!named && (code === 'ENOENT' || code === 'ENOTDIR')) return undefined;
      throw new ConfigError(`${label}: cannot read config file: ${describeFsError(error)}`, configPath);
    }
    const reach = reachOf?.(configPath);
    if (reach && !isInside(real, reach.real)) {
      throw new ConfigError(`${label}: a link to a file outside ${reach.name} (${displayPath(reach.folder)}); a config found there is read only inside it`, configPath);
    }
    const file: ConfigFile = { path: configPath, real, label, reach };
    const data = this.read(file, named);
    if (data === undefined) return undefined;
    const order = this.order(data, file, []);
    // `root` belongs to the file it is written in: it says where a search ends.
    return order.reduce<ConfigFileData>((merged, { data: own }, i) => mergeConfigs(merged, i === order.length - 1 ? own : withoutRoot(own)), {});
  }

  /** `file` as written; a found config that is a folder, or a package.json without a "msglint" key, is no config. */
  private read(file: ConfigFile, named: boolean): ConfigFileData | undefined {
    const key = `${file.real}\0${path.basename(file.path)}`;
    let written = this.written.get(key);
    if (!written) {
      written = this.parse(file);
      this.written.set(key, written);
    }
    if ('error' in written) throw written.error;
    if ('absent' in written) {
      if (named) throw new ConfigError(`${file.label}: cannot read config file: is a directory`, file.path);
      return undefined;
    }
    if (written.data === undefined && named) throw new ConfigError(`${file.label}: no "msglint" key`, file.path);
    return written.data;
  }

  private parse(file: ConfigFile): Written {
    let text: string;
    try {
      text = readRegularFile(file.real, CONFIG_MAX_BYTES).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') return { absent: true };
      return { error: new ConfigError(`${file.label}: cannot read config file: ${describeFsError(error)}`, file.path) };
    }
    try {
      return { data: parseConfig(text, file.path, file.label, this.rules) };
    } catch (error) {
      return { error };
    }
  }

  /**
   * The configs whose settings make `file`'s (read as `data`), in the order
   * they apply: each entry of its `extends` (that entry's own first), then
   * `file` itself. A config reached twice applies once, at its last place,
   * which gives each setting the value applying it twice would, and keeps
   * the result the size of the files: configs that extend one another
   * several times each would otherwise multiply their `overrides`.
   * `chain`: the real paths of the configs that led here; a config that
   * extends itself, directly or not, is an error.
   */
  private order(data: ConfigFileData, file: ConfigFile, chain: readonly string[]): readonly Own[] {
    const key = `${file.real}\0${file.reach?.real ?? ''}`;
    const done = this.ordered.get(key);
    if (done) return done;
    const { extends: bases, ...own } = data;
    const byReal = new Map<string, Own>();
    const add = (entry: Own) => {
      byReal.delete(entry.real);
      byReal.set(entry.real, entry);
    };
    for (const specifier of bases ?? []) {
      const next = this.locate(specifier, file);
      if (next.real === file.real || chain.includes(next.real)) {
        throw new ConfigError(`${file.label}: "extends": ${JSON.stringify(specifier)} leads back to ${next.path}, which is already being read`, file.path);
      }
      if (chain.length + 1 > MAX_EXTENDS_DEPTH) {
        throw new ConfigError(`${file.label}: "extends" nests more than ${MAX_EXTENDS_DEPTH} configs deep`, file.path);
      }
      this.order(this.read(next, true)!, next, [...chain, file.real]).forEach(add);
      if (byReal.size + 1 > MAX_EXTENDS_FILES) {
        throw new ConfigError(`${file.label}: "extends" reaches more than ${MAX_EXTENDS_FILES} config files, this one included`, file.path);
      }
    }
    add({ real: file.real, data: own });
    const result = [...byReal.values()];
    this.ordered.set(key, result);
    return result;
  }

  /** The file an `extends` entry of `from` names, where `from`'s reach allows it; throws ConfigError otherwise. */
  private locate(specifier: string, from: ConfigFile): ConfigFile {
    const fail = (why: string): never => {
      throw new ConfigError(`${from.label}: "extends": ${JSON.stringify(specifier)} ${why}`, from.path);
    };
    const outside = (reach: Reach) => `leads outside ${reach.name} (${displayPath(reach.folder)}), where a config found there may not read; a config named with -c may`;
    if (isPath(specifier)) {
      const file = path.resolve(path.dirname(from.path), specifier);
      if (isModuleName(file)) fail(MODULE_REFUSED);
      const reach = from.reach;
      if (reach && !isInside(file, reach.folder)) fail(outside(reach));
      let real: string;
      try {
        real = realpathSync.native(file);
      } catch (error) {
        throw new ConfigError(`${displayPath(file)}: cannot read config file: ${describeFsError(error)}`, file);
      }
      if (reach && !isInside(real, reach.real)) fail(`is a link that ${outside(reach)}`);
      return { path: file, real, label: displayPath(file), reach };
    }
    const found = findPackage(specifier, from.path, from.label);
    if (isModuleName(found.file)) fail(`names the package ${found.name}, whose config ${path.basename(found.file)} ${MODULE_REFUSED}`);
    // A package inside the tree (a node_modules folder committed to it) must lie inside it too.
    const reach = from.reach;
    if (reach && isInside(found.folder, reach.folder) && !isInside(found.file, reach.real)) fail(`names a package that is a link leading outside ${reach.name}`);
    return { path: found.file, real: found.file, label: displayPath(found.file), reach: { folder: found.realFolder, real: found.realFolder, name: `the package ${found.name}` } };
  }
}

function withoutRoot({ root: _root, ...data }: ConfigFileData): ConfigFileData {
  return data;
}
