import path from 'node:path';
import { loadPicomatch } from '../base/lazy.js';
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
 * both exclude everything below vendor/.
 */
export function createIgnoreMatcher(patterns: readonly string[], baseDir: string): (absolutePath: string) => boolean {
  const anchored: string[] = [];
  const names: string[] = [];
  for (const raw of patterns) {
    let pattern = raw.replace(/^\.\//, '').replace(/\/+$/, '');
    if (pattern === '') continue;
    if (pattern.startsWith('/')) anchored.push(pattern.slice(1));
    else if (pattern.includes('/')) anchored.push(pattern);
    else names.push(pattern);
  }
  const options = { dot: true };
  const matchPath = anchored.length ? loadPicomatch()(anchored, options) : () => false;
  const matchName = names.length ? loadPicomatch()(names, options) : () => false;

  return (absolutePath: string): boolean => {
    const relative = path.relative(baseDir, absolutePath);
    if (relative === '' || leavesBase(relative)) return false;
    const segments = relative.split(path.sep);
    let prefix = '';
    for (const segment of segments) {
      prefix = prefix ? `${prefix}/${segment}` : segment;
      if (matchName(segment) || matchPath(prefix)) return true;
    }
    return false;
  };
}
