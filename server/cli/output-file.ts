// Where a report (`--output-file`), an export (`export -o`) or an imported
// file (`import -o`) is written: at its path, and nowhere else. A repository
// can commit a symbolic link at the documented path (`msglint.sarif ->
// ~/.bashrc`); writing through it would overwrite a file outside the tree. So
// the output is written to a new file in the path's folder, renamed to the
// path: a rename replaces a link itself and never follows it. The link is
// replaced rather than refused so that the run still gives its report (a
// pull request cannot make the job lose it), and the replacement is said on
// stderr. Git cannot commit devices or FIFOs, so a path that is one was named
// by the user (`-o /dev/null`) and is written to as named; so are links
// under /dev and /proc (`/dev/stdout`, `/dev/fd/3`), which name the process's
// own streams and which a rename would try to replace.

import { lstatSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { removeQuietly, temporaryName, writeContent, writeFileAtomic, type FileContent } from './files.js';

/**
 * Writes `text` at `file` (absolute), making its folder when missing. An
 * existing regular file is replaced as --fix replaces one (its mode, owner
 * and hard links kept). Returns true when a symbolic link was at the path
 * and was replaced (what it pointed to left as it was), for one line on
 * stderr. Throws as the file system does (EISDIR for a folder at the path).
 */
export function writeOutputFile(file: string, text: FileContent): boolean {
  const stats = lstatSync(file, { throwIfNoEntry: false });
  if (stats?.isFile()) {
    writeFileAtomic(file, text);
    return false;
  }
  if (stats && (!stats.isSymbolicLink() || isSystemPath(file))) {
    // A device, a FIFO, or a stream of the process: written to as named (a folder fails with EISDIR).
    writeContent(file, text);
    return false;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = temporaryName(file);
  try {
    writeContent(temp, text, { flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
  return stats !== undefined;
}

/** The line on stderr for a link that writeOutputFile replaced. */
export function replacedLinkLine(label: string, what: string): string {
  return `msglint: ${label}: was a symbolic link; replaced by the ${what} (the file it pointed to is left as it was)`;
}

/** /dev and /proc hold the system's links (`/dev/stdout`), never a checkout's. */
function isSystemPath(file: string): boolean {
  return path.sep === '/' && /^\/(?:dev|proc)\//.test(file);
}
