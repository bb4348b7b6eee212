import path from 'node:path';

/**
 * Whether a result of path.relative() leaves its base: `..`, `../x`, or
 * another root. A name that merely starts with two dots (`..x`) is inside.
 */
export function leavesBase(relative: string): boolean {
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}
