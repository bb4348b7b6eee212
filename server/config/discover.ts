// Turning command-line paths into the list of files to lint.
//
// Ignore rules (.gitignore files, node_modules/.git, the config's `ignores`,
// the command line's --ignore-pattern) apply to everything, including files
// and directories named explicitly: tools such as lint-staged pass every
// changed file, and those must not resurrect generated or vendored files.
// Such a named path is reported with what ignores it (ArgFiles.ignoredBy),
// for the command to say; --no-ignore turns the rules off.

import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Ignore } from 'ignore';
import { loadIgnore, loadPicomatch } from '../base/lazy.js';
import { describeFsError } from './messages.js';
import type { ConfigResolver } from './load.js';
import { leavesBase } from './paths.js';
import { isInside, repositoryRoot } from './reach.js';
import { NotReadableError, readRegularFile } from '../base/read-file.js';
import { createIgnoreMatcher } from './ignores.js';

export interface Discovery {
  /** Absolute paths, in a stable order (arguments in order, each directory sorted), without duplicates. */
  files: string[];
  /** One line each (without the "msglint: " prefix): paths that do not exist or cannot be read. */
  problems: string[];
  /** What each argument gave, in command-line order: the caller says which gave no message file. */
  args: ArgFiles[];
}

export interface ArgFiles {
  arg: string;
  /** Its files (a file found by two arguments is in both lists). */
  files: string[];
  /** A file or folder named by the argument that the ignore rules skip: what skips it. */
  ignoredBy?: string;
  /** The argument gave a problem of its own (it does not exist, cannot be read, matches nothing). */
  failed: boolean;
}

/** Git ignores a .gitignore larger than this (100 MiB, since git 2.40.1); so does msglint, saying so. */
const GITIGNORE_MAX_BYTES = 100 * 1024 * 1024;

/** Never descended into, whatever the ignore files say. */
const ALWAYS_SKIPPED = new Set(['node_modules', '.git']);

/**
 * Synchronous inside, on purpose: a tree of small files is walked as fast
 * one call after another as with fs.promises, and without it Node need not
 * load its promise-based fs module at every run (docs/performance.md).
 */
/**
 * What the command line adds to the ignore rules: `ignorePatterns`
 * (`--ignore-pattern`, and `!glob` arguments), in the syntax of a config's
 * `ignores`, relative to the working directory; `noIgnore` (`--no-ignore`)
 * turns off .gitignore files, the configs' `ignores` and those patterns
 * (node_modules and .git are still never walked).
 */
export interface IgnoreOptions {
  ignorePatterns?: readonly string[];
  noIgnore?: boolean;
}

export async function discoverFiles(args: readonly string[], cwd: string, configs: ConfigResolver, options: IgnoreOptions = {}): Promise<Discovery> {
  const walker = new Walker(cwd, configs, options);
  // One path after another, so problems are reported in command-line order.
  const lists: ArgFiles[] = [];
  // Within one path, problems are sorted (as when directories were walked
  // concurrently), so the output does not depend on the walk's order.
  for (const arg of args) {
    const before = walker.problems.length;
    walker.ignoredBy = undefined;
    const files = walker.expand(arg);
    const added = walker.problems.splice(before).sort();
    walker.problems.push(...added);
    lists.push({ arg, files, failed: added.length > 0, ...(walker.ignoredBy !== undefined ? { ignoredBy: walker.ignoredBy } : {}) });
  }
  const seen = new Set<string>();
  const files: string[] = [];
  for (const file of lists.flatMap((l) => l.files)) {
    if (!seen.has(file)) {
      seen.add(file);
      files.push(file);
    }
  }
  return { files, problems: walker.problems, args: lists };
}

class Walker {
  readonly problems: string[] = [];
  /** What skipped the file or folder the last argument named, if the ignore rules did. */
  ignoredBy: string | undefined;
  private readonly gitignore: GitignoreTree;

  /** The command line's ignore patterns; undefined when there are none or --no-ignore. */
  private readonly cliIgnored?: (absolutePath: string) => boolean;
  private readonly noIgnore: boolean;

  constructor(
    private readonly cwd: string,
    private readonly configs: ConfigResolver,
    options: IgnoreOptions,
  ) {
    this.gitignore = new GitignoreTree(cwd, (problem) => this.problems.push(problem));
    this.noIgnore = options.noIgnore === true;
    if (!this.noIgnore && options.ignorePatterns?.length) this.cliIgnored = createIgnoreMatcher(options.ignorePatterns, cwd);
  }

  /** Whether the ignore rules of one folder (its .gitignore chain and config) or the command line's skip a path. */
  private skips(chain: readonly GitignoreFile[], config: { isIgnored(p: string): boolean }, full: string, isDirectory: boolean): boolean {
    if (this.noIgnore) return false;
    return GitignoreTree.matches(chain, full, isDirectory) || config.isIgnored(full) || this.cliIgnored?.(full) === true;
  }

  expand(arg: string): string[] {
    const absolute = path.resolve(this.cwd, arg);
    let stats;
    try {
      stats = statSync(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && loadPicomatch().scan(arg).isGlob) return this.expandGlob(arg);
      this.problems.push(`${arg}: ${describeFsError(error)}`);
      return [];
    }
    if (stats.isDirectory()) {
      this.ignoredBy = this.ignoredNamed(absolute, true);
      if (this.ignoredBy !== undefined) return [];
      return this.walk(absolute, this.gitignore.boundaryFor(absolute), new Set());
    }
    if (!stats.isFile()) {
      // A FIFO or device would block or stream forever when read.
      this.problems.push(`${arg}: not a regular file`);
      return [];
    }
    this.ignoredBy = this.ignoredNamed(absolute, false);
    return this.ignoredBy === undefined ? [absolute] : [];
  }

  /** What ignores a path named on the command line: `.gitignore`, or the config whose `ignores` match it. */
  private ignoredNamed(absolute: string, isDirectory: boolean): string | undefined {
    if (!this.isIgnored(absolute, isDirectory)) return undefined;
    if (this.cliIgnored?.(absolute)) return '--ignore-pattern';
    const parent = path.dirname(absolute);
    const chain = this.gitignore.chainFor(parent, this.gitignore.boundaryFor(isDirectory ? absolute : parent));
    if (GitignoreTree.matches(chain, absolute, isDirectory)) return '.gitignore';
    const config = this.configs.forDirectory(parent).configPath;
    return config === undefined ? 'the config' : `the "ignores" of ${displayArg(this.cwd, config)}`;
  }

  /**
   * Ignore check for a path named on the command line (not reached by
   * walking). A named file is checked against the config that governs it; a
   * named directory only against .gitignore, because the config above it
   * does not govern its files (nearest config wins) and must not even be read.
   */
  private isIgnored(absolute: string, isDirectory: boolean): boolean {
    if (this.noIgnore) return false;
    const parent = path.dirname(absolute);
    if (parent === absolute) return false;
    if (this.cliIgnored?.(absolute)) return true;
    const boundary = this.gitignore.boundaryFor(isDirectory ? absolute : parent);
    const chain = this.gitignore.chainFor(parent, boundary);
    if (GitignoreTree.matches(chain, absolute, isDirectory)) return true;
    return !isDirectory && this.configs.forDirectory(parent).isIgnored(absolute);
  }

  /** Whether a directory entry of unknown kind (a broken link, a FIFO) is ignored, as a file or as a directory. */
  private ignoredEntry(chain: readonly GitignoreFile[], config: { isIgnored(p: string): boolean }, full: string): boolean {
    return this.skips(chain, config, full, false) || this.skips(chain, config, full, true);
  }

  private expandGlob(arg: string): string[] {
    const pattern = arg.split(path.sep).join('/').replace(/^(\.\/)+/, '');
    const scan = loadPicomatch().scan(pattern);
    const base = path.resolve(this.cwd, scan.base || '.');
    const matcher = loadPicomatch()(pattern);
    const absolutePattern = path.isAbsolute(arg);
    const filter = (file: string) =>
      matcher(toPosix(absolutePattern ? file : path.relative(this.cwd, file)));
    let files: string[] = [];
    if (existsSync(base) && !this.isIgnored(base, true)) {
      files = this.walk(base, this.gitignore.boundaryFor(base), new Set(), filter);
    }
    if (files.length === 0) this.problems.push(`${arg}: no files match this pattern`);
    return files;
  }

  /**
   * `visited` holds the real paths of the directories this walk (one
   * command-line argument) has entered, so symlink loops and aliases are
   * walked once. It is per argument: `. 'docs/*.msg.md'` must still find the
   * glob's files although the first walk saw docs/ (duplicates are removed
   * by path afterwards).
   */
  private walk(dir: string, boundary: string, visited: Set<string>, filter?: (file: string) => boolean): string[] {
    let entries;
    try {
      // The native realpath(3), as fs.promises.realpath is.
      const real = realpathSync.native(dir);
      if (visited.has(real)) return [];
      visited.add(real);
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      this.problems.push(`${displayArg(this.cwd, dir)}: ${describeFsError(error)}`);
      return [];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    const names = new Set(entries.map((e) => e.name));
    const chain = this.gitignore.chainFor(dir, boundary, names.has('.gitignore'));
    const config = this.configs.forDirectory(dir, names);

    const found: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(full);
          // As git, ripgrep and fd do, a directory link met during a walk is
          // not followed: it may lead out of the tree (to / even). A path
          // named on the command line is followed (expand).
          if (target.isDirectory()) continue;
          isFile = target.isFile();
        } catch (error) {
          // A dangling link is not a file to lint; repositories carry them
          // legitimately. A link that loops or leads where we may not look,
          // named like a file to lint, is a file we cannot lint: say so.
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ENOENT' && code !== 'ENOTDIR' && entry.name.endsWith('.md') && !this.ignoredEntry(chain, config, full)) {
            this.problems.push(`${displayArg(this.cwd, full)}: ${describeFsError(error)}`);
          }
          continue;
        }
      }
      if (!isDirectory && !isFile && entry.name.endsWith('.md') && !this.ignoredEntry(chain, config, full)) {
        // A FIFO or device would block or stream forever when read (as for a named path).
        this.problems.push(`${displayArg(this.cwd, full)}: not a regular file`);
        continue;
      }
      if (isDirectory) {
        if (ALWAYS_SKIPPED.has(entry.name)) continue;
        if (this.skips(chain, config, full, true)) continue;
        const sub = this.walk(full, boundary, visited, filter);
        for (let i = 0; i < sub.length; i++) found.push(sub[i]!);
      } else if (isFile && entry.name.endsWith('.md')) {
        if (filter && !filter(full)) continue;
        if (this.skips(chain, config, full, false)) continue;
        found.push(full);
      }
    }
    return found;
  }
}

interface GitignoreFile {
  /** The directory holding the .gitignore: its patterns are relative to it. */
  base: string;
  rules: Ignore;
}

/**
 * .gitignore files apply to their own directory and everything below it,
 * from the repository root down. Chains are cached per directory, so each
 * .gitignore is read once. Outside a git repository the chain starts at the
 * working directory (or at the named path when that lies outside it), so a
 * stray .gitignore far above the project never applies.
 */
class GitignoreTree {
  private readonly chains = new Map<string, readonly GitignoreFile[]>();
  private readonly repoRoots = new Map<string, string | null>();

  constructor(
    private readonly cwd: string,
    /** Told of a .gitignore that is not a regular file or is too large to be one. */
    private readonly report: (problem: string) => void,
  ) {}

  boundaryFor(dir: string): string {
    const root = repositoryRoot(dir, this.repoRoots);
    if (root !== null) return root;
    return isInside(dir, this.cwd) ? this.cwd : dir;
  }

  /** `hasGitignore` lets a caller that has listed the directory spare the file probe. */
  chainFor(dir: string, boundary: string, hasGitignore?: boolean): readonly GitignoreFile[] {
    const key = `${boundary}\0${dir}`;
    const cached = this.chains.get(key);
    if (cached) return cached;
    if (!isInside(dir, boundary)) return [];
    const parent = path.dirname(dir);
    const inherited = dir === boundary || parent === dir ? [] : this.chainFor(parent, boundary);
    const own = hasGitignore === false ? undefined : this.read(dir);
    const chain = own ? [...inherited, own] : inherited;
    this.chains.set(key, chain);
    return chain;
  }

  private read(dir: string): GitignoreFile | undefined {
    const file = path.join(dir, '.gitignore');
    let text: string;
    try {
      text = readRegularFile(file, GITIGNORE_MAX_BYTES).toString('utf8');
    } catch (error) {
      if (error instanceof NotReadableError) this.report(`${displayArg(this.cwd, file)}: ${error.message}`);
      return undefined;
    }
    return { base: dir, rules: loadIgnore()().add(text) };
  }

  static matches(chain: readonly GitignoreFile[], absolute: string, isDirectory: boolean): boolean {
    // Deepest file first: like git, a nested .gitignore can re-include ("!x")
    // what a parent excluded, and its verdict is final.
    for (let i = chain.length - 1; i >= 0; i--) {
      const { base, rules } = chain[i]!;
      const relative = path.relative(base, absolute);
      if (relative === '' || leavesBase(relative)) continue;
      const verdict = rules.test(toPosix(relative) + (isDirectory ? '/' : ''));
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}


function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

function displayArg(cwd: string, absolute: string): string {
  return isInside(absolute, cwd) ? path.relative(cwd, absolute) || '.' : absolute;
}
