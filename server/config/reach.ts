// Where the files a config names may lie (issue 45). A repository is not
// trusted: opening one in an editor, or linting it, must read nothing
// outside it. So a config found in a folder extends only files inside its
// repository (the nearest folder above with `.git`; the workspace folder in
// an editor; else the working directory) and installed packages, and a
// package's config only files inside its package and other packages. A
// config the user names (`-c`) is the user's: its chain may reach anywhere.
//
// Paths are checked twice: as written, so that nothing outside is even
// looked at, and by real path, so that a link inside leading out is refused.

import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { leavesBase } from './paths.js';

/** A folder that the files a config names must stay inside. */
export interface Reach {
  /** The folder as its path is written. */
  readonly folder: string;
  /** Its real path, which a file's real path must lie inside. */
  readonly real: string;
  /** What it is, for messages: "the repository", "the package msglint-config-x". */
  readonly name: string;
}

/** The reach of the config found at a path. */
export type ReachOf = (configPath: string) => Reach;

export function reach(folder: string, name: string): Reach {
  let real = folder;
  try {
    real = realpathSync.native(folder);
  } catch {
    // A folder that cannot be resolved holds nothing to read either.
  }
  return { folder, real, name };
}

/** Whether `child` is `parent` or lies below it, by their paths as given. */
export function isInside(child: string, parent: string): boolean {
  return !leavesBase(path.relative(parent, child));
}

/**
 * The nearest folder at or above `dir` holding a `.git` entry (a folder, or
 * the file a worktree or submodule has), or null; `cache` keeps the answer
 * for each folder asked about.
 */
export function repositoryRoot(dir: string, cache?: Map<string, string | null>): string | null {
  const cached = cache?.get(dir);
  if (cached !== undefined) return cached;
  const parent = path.dirname(dir);
  const root = existsSync(path.join(dir, '.git')) ? dir : parent === dir ? null : repositoryRoot(parent, cache);
  cache?.set(dir, root);
  return root;
}

/** For the command: the repository, else the working directory when the config lies inside it, else the config's folder. */
export function commandLineReach(cwd: string): ReachOf {
  const roots = new Map<string, string | null>();
  return byFolder((dir) => {
    const root = repositoryRoot(dir, roots);
    if (root !== null) return reach(root, 'the repository');
    return isInside(dir, cwd) ? reach(cwd, 'the working directory') : reach(dir, 'the folder of the config');
  });
}

/** For the language server: the workspace folder holding the config (the deepest), else its repository, else its folder. */
export function workspaceReach(folders: readonly string[]): ReachOf {
  const roots = new Map<string, string | null>();
  return byFolder((dir) => {
    const holding = folders.filter((folder) => isInside(dir, folder));
    if (holding.length) return reach(holding.reduce((a, b) => (b.length > a.length ? b : a)), 'the workspace folder');
    const root = repositoryRoot(dir, roots);
    return root !== null ? reach(root, 'the repository') : reach(dir, 'the folder of the config');
  });
}

/** `of` asked once per folder of configs (it looks at the disk). */
function byFolder(of: (dir: string) => Reach): ReachOf {
  const known = new Map<string, Reach>();
  return (configPath) => {
    const dir = path.dirname(configPath);
    let found = known.get(dir);
    if (!found) {
      found = of(dir);
      known.set(dir, found);
    }
    return found;
  };
}
