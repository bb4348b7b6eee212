import path from 'node:path';
import { leavesBase } from '../../config/paths.js';

/** A path relative to `cwd` with forward slashes, or undefined when it lies outside `cwd`. */
export function relativePosix(filePath: string, cwd: string): string | undefined {
  if (!path.isAbsolute(filePath)) return filePath.split(path.sep).join('/');
  const relative = path.relative(cwd, filePath);
  if (leavesBase(relative)) return undefined;
  return relative.split(path.sep).join('/');
}
