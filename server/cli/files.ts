import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

export interface SourceText {
  text: string;
  /**
   * False when the bytes are not valid UTF-8: the decoded text holds U+FFFD
   * replacements, so writing it back would silently destroy the original bytes.
   */
  validUtf8: boolean;
}

export async function readSource(file: string): Promise<SourceText> {
  const bytes = await fsp.readFile(file);
  return decode(bytes);
}

export function decode(bytes: Buffer): SourceText {
  // Buffer#toString keeps a BOM as U+FEFF, so a fixed file is written back
  // with the BOM it had.
  return { text: bytes.toString('utf8'), validUtf8: isUtf8(bytes) };
}

/**
 * Replaces a file's content without a window in which it is truncated or half
 * written: write a temporary file next to it (same file system, so rename is
 * atomic) with the original's permission bits, then rename it over the
 * original. A symlink is resolved first so the link keeps pointing at the
 * updated target instead of being replaced by a regular file.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const target = await fsp.realpath(file);
  const stats = await fsp.stat(target);
  const mode = stats.mode & 0o7777;
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.msglint-tmp`,
  );
  try {
    await fsp.writeFile(temp, text, { mode, flag: 'wx' });
    // The mode given to writeFile is filtered by the umask; set it exactly.
    await fsp.chmod(temp, mode);
    if (process.getuid?.() === 0 && (stats.uid !== 0 || stats.gid !== 0)) {
      // Only root can give the file back to its owner; others already own what they write.
      await fsp.chown(temp, stats.uid, stats.gid).catch(() => undefined);
    }
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
