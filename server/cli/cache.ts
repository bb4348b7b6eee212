// --cache: reports of unchanged files are reused. An entry is keyed on the
// file's bytes, its effective config and msglint's version (see lint-file.ts),
// so any of those changing re-lints the file.

import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadCrypto } from '../config/lazy.js';
import type { FileReport } from './formatters/types.js';

interface CacheFile {
  msglintCache: 1;
  entries: Record<string, { key: string; report: FileReport | null }>;
}

export class LintCache {
  private entries: CacheFile['entries'] = {};
  private changed = false;

  constructor(private readonly location: string) {
    try {
      const data = JSON.parse(readFileSync(location, 'utf8')) as CacheFile;
      if (data && data.msglintCache === 1 && typeof data.entries === 'object') this.entries = data.entries;
    } catch {
      // No cache yet, or an unreadable one: start afresh (it is only a cache).
    }
  }

  keyOf(file: string): string | undefined {
    return this.entries[file]?.key;
  }

  /** The cached report (null: the file is not a message file). */
  reportOf(file: string): FileReport | null | undefined {
    return this.entries[file]?.report;
  }

  set(file: string, key: string, report: FileReport | undefined): void {
    this.entries[file] = { key, report: report ?? null };
    this.changed = true;
  }

  /** Writes the cache when it changed; failures are not errors of the lint run. */
  save(): string | undefined {
    if (!this.changed) return undefined;
    // Temporary file and rename: a run killed half-way leaves the old cache, not a torn one.
    const temp = `${this.location}.${loadCrypto().randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify({ msglintCache: 1, entries: this.entries }));
      renameSync(temp, this.location);
      return undefined;
    } catch (error) {
      rmSync(temp, { force: true });
      return (error as Error).message;
    }
  }
}
