// How config messages name paths and say why a file could not be read.

import path from 'node:path';
import { NotReadableError } from '../base/read-file.js';
import { leavesBase } from './paths.js';

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
