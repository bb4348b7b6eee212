// The key that signs --cache files. A cache entry says "these bytes give this
// report", and its key is a digest anyone can compute: a pull request that
// commits a `.msglintcache` could make a file holding an API key pass. So a
// cache is used only when it carries an HMAC made with a secret that no
// repository holds: 32 random bytes kept in the user's cache folder
// (`$XDG_CACHE_HOME/msglint/cache-key`, else `~/.cache/msglint/cache-key`;
// `%LOCALAPPDATA%\msglint\cache-key` on Windows), made on first use, readable
// by the user only. A cache committed, copied from another machine or
// edited does not verify, and is linted afresh.

import { linkSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCrypto } from '../base/lazy.js';
import { readRegularFile } from '../base/read-file.js';
import { removeQuietly, temporaryName } from './files.js';

const KEY_BYTES = 32;

/** Where the key is kept, for `env`. */
export function cacheKeyFile(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const base =
    process.platform === 'win32' && env.LOCALAPPDATA
      ? env.LOCALAPPDATA
      : xdg && path.isAbsolute(xdg)
        ? xdg
        : path.join(os.homedir(), '.cache');
  return path.join(base, 'msglint', 'cache-key');
}

/** The key in `file`, made there when missing. Throws as the file system does when it can be neither read nor made. */
export function loadCacheKey(file: string): Buffer {
  const existing = readKey(file);
  if (existing) return existing;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = temporaryName(file);
  try {
    writeFileSync(temp, `${loadCrypto().randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    try {
      // A link, not a rename: two runs making the key at once agree on the first one.
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') renameSync(temp, file);
    }
  } finally {
    removeQuietly(temp);
  }
  const made = readKey(file);
  if (!made) throw new Error(`${file}: not a key msglint made`);
  return made;
}

function readKey(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readRegularFile(file, 1024).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'base64');
  return key.length >= KEY_BYTES ? key : undefined;
}

/** The signature of a cache's entries (their JSON text, or its UTF-8 bytes, exactly as written). */
export function signature(key: Buffer, entries: string | Buffer): string {
  return loadCrypto().createHmac('sha256', key).update(entries).digest('base64');
}

/** Whether `mac` is the signature of `entries`, compared in constant time. */
export function verifies(key: Buffer, entries: Buffer, mac: string): boolean {
  const expected = Buffer.from(signature(key, entries));
  const given = Buffer.from(mac);
  return given.length === expected.length && loadCrypto().timingSafeEqual(given, expected);
}
