import path from 'node:path';
import { loadPicomatch } from '../base/lazy.js';
import { forPicomatch, GLOB_OPTIONS } from './globs.js';
import { leavesBase } from './paths.js';

/**
 * Compiles a config's `ignores` into a predicate on absolute paths.
 *
 * The patterns follow .gitignore conventions, because that is what people
 * write from habit: relative to the config file's directory; a pattern
 * without a slash (`*.draft.msg.md`, `drafts`) matches a file or directory
 * name at any depth; a pattern with a slash (or a leading `/`) is anchored at
 * the config's directory; a trailing `/` is dropped. A path is ignored when
 * it or any of its parent directories matches, so `vendor` and `vendor/**`
 * both exclude everything below vendor/. Other than `*`, `**`, `?`, `[…]`
 * and `{…}`, characters stand for themselves (globs.ts).
 */
export function createIgnoreMatcher(patterns: readonly string[], baseDir: string): (absolutePath: string) => boolean {
  const anchored: string[] = [];
  const names: string[] = [];
  for (const raw of patterns) {
    let pattern = forPicomatch(raw.replace(/^\.\//, '').replace(/\/+$/, ''));
    if (pattern === '') continue;
    if (pattern.startsWith('/')) anchored.push(pattern.slice(1));
    else if (pattern.includes('/')) anchored.push(pattern);
    else names.push(pattern);
  }
  const matchPath = anchored.length ? loadPicomatch()(anchored, GLOB_OPTIONS) : () => false;
  const matchName = names.length ? loadPicomatch()(names, GLOB_OPTIONS) : () => false;

  // Whether a folder, or one above it, matches: asked for each folder of a
  // walk, and for each file again, so each folder is matched once.
  const folders = new Map<string, boolean>();
  const matches = (relative: string, slash: number): boolean => matchName(relative.slice(slash + 1)) || matchPath(relative);
  const folderIgnored = (relative: string): boolean => {
    let verdict = folders.get(relative);
    if (verdict === undefined) {
      const slash = relative.lastIndexOf('/');
      verdict = (slash !== -1 && folderIgnored(relative.slice(0, slash))) || matches(relative, slash);
      folders.set(relative, verdict);
    }
    return verdict;
  };

  return (absolutePath: string): boolean => {
    const relative = path.relative(baseDir, absolutePath);
    if (relative === '' || leavesBase(relative)) return false;
    const posix = path.sep === '/' ? relative : relative.split(path.sep).join('/');
    const slash = posix.lastIndexOf('/');
    return (slash !== -1 && folderIgnored(posix.slice(0, slash))) || matches(posix, slash);
  };
}
