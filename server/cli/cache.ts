// --cache: reports of unchanged files are reused. An entry is keyed on the
// file's bytes, its effective config and msglint's version (see lint-file.ts),
// so any of those changing re-lints the file. With the key, an entry keeps
// the file's stamp (size, times, inode) as of the read that hashed it: while
// the file still has that stamp, its bytes are known to be the same without
// reading them again. A copied or freshly cloned tree has new stamps, and its
// files are read and hashed: the key decides, not the stamp. Entries are
// named by the file's path relative to the cache file, so a tree copied with
// its cache (or a CI cache restored into another folder) finds them, and an
// entry whose file no longer exists is dropped when the cache is saved.

import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCrypto } from '../base/lazy.js';
import { NotReadableError, readRegularFile } from '../base/read-file.js';
import { UsageError } from './errors.js';
import type { FileStamp } from './files.js';
import type { FileReport, LintMessage } from './formatters/types.js';
import { reportOf } from './report.js';

/** A cache file past this is not one msglint wrote (a million files' entries take less). */
const CACHE_MAX_BYTES = 512 * 1024 * 1024;

/** What the cache holds of a file, for lintPath. */
export interface CachedFile {
  /** `CONTENT:CONFIG`: digests of the file's bytes and of its config and msglint's version. */
  key: string;
  stamp?: FileStamp;
}

interface Entry extends CachedFile {
  /** The report's messages (the rest of it follows from them), or null: not a message file. */
  messages: LintMessage[] | null;
}

interface CacheFile {
  /**
   * 3: entries named by paths relative to the cache file (with `/`), keys of
   * the form CONTENT:CONFIG, and stamps. A cache of another version is started afresh.
   */
  msglintCache: 3;
  entries: Record<string, Entry>;
}

export class LintCache {
  private entries: CacheFile['entries'] = {};
  private changed = false;
  /** The directory entry names are relative to. */
  private readonly base: string;
  /** Names of the entries this run asked for: their files exist. */
  private readonly seen = new Set<string>();

  /** `label`: the location as the user gave it, for messages. */
  constructor(
    private readonly location: string,
    label = location,
  ) {
    this.base = path.dirname(location);
    let text: string;
    try {
      // A FIFO or device would block or stream forever: say so rather than read it.
      text = readRegularFile(location, CACHE_MAX_BYTES).toString('utf8');
    } catch (error) {
      if (error instanceof NotReadableError) throw new UsageError(`${label}: cannot use as the cache: ${error.message}`);
      // No cache yet, or an unreadable one: start afresh (it is only a cache).
      return;
    }
    try {
      const data = JSON.parse(text) as CacheFile;
      if (data && data.msglintCache === 3 && typeof data.entries === 'object' && data.entries !== null) this.entries = data.entries;
    } catch {
      // A damaged cache: start afresh.
    }
  }

  /** The name of `file`'s entry. */
  private nameOf(file: string): string {
    const relative = path.relative(this.base, file);
    return path.sep === '/' ? relative : relative.split(path.sep).join('/');
  }

  /** What the cache holds of `file`, for lintPath. */
  entryOf(file: string): CachedFile | undefined {
    const name = this.nameOf(file);
    this.seen.add(name);
    const entry = Object.hasOwn(this.entries, name) ? this.entries[name] : undefined;
    // Checked here, not when loading: a damaged entry is one file linted again.
    if (!entry || typeof entry.key !== 'string' || !entry.key.includes(':') || !(entry.messages === null || areMessages(entry.messages))) return undefined;
    const stamp = entry.stamp;
    if (stamp !== undefined && !(Array.isArray(stamp) && stamp.length === 4 && typeof stamp[0] === 'number' && typeof stamp[1] === 'number' && typeof stamp[2] === 'number' && typeof stamp[3] === 'number')) {
      return { key: entry.key };
    }
    return entry;
  }

  /** The cached report (null: the file is not a message file). */
  reportOf(file: string): FileReport | null | undefined {
    const entry = this.entries[this.nameOf(file)];
    if (!entry) return undefined;
    return entry.messages === null ? null : reportOf(file, entry.messages);
  }

  set(file: string, key: string, report: FileReport | undefined, stamp: FileStamp | undefined): void {
    const messages = report ? report.messages : null;
    const name = this.nameOf(file);
    this.seen.add(name);
    this.entries[name] = stamp ? { key, stamp, messages } : { key, messages };
    this.changed = true;
  }

  /** Keeps the stamp a cached file has now (it was touched, or it is no longer recent). */
  restamp(file: string, stamp: FileStamp | undefined): void {
    const entry = this.entries[this.nameOf(file)];
    if (!entry || sameStamp(entry.stamp, stamp)) return;
    if (stamp) entry.stamp = stamp;
    else delete entry.stamp;
    this.changed = true;
  }

  /** Writes the cache when it changed; failures are not errors of the lint run. */
  save(): string | undefined {
    this.prune();
    if (!this.changed) return undefined;
    // Temporary file and rename: a run killed half-way leaves the old cache, not a torn one.
    const temp = `${this.location}.${loadCrypto().randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify({ msglintCache: 3, entries: this.entries }));
      renameSync(temp, this.location);
      return undefined;
    } catch (error) {
      rmSync(temp, { force: true });
      return (error as Error).message;
    }
  }

  /**
   * Drops the entries of files that no longer exist. The files of this run
   * exist; the others cost one probe each (a run over part of the tree keeps
   * the entries of the rest).
   */
  private prune(): void {
    const kept: CacheFile['entries'] = {};
    let dropped = false;
    for (const name of Object.keys(this.entries)) {
      if (this.seen.has(name) || existsSync(path.resolve(this.base, name))) kept[name] = this.entries[name]!;
      else dropped = true;
    }
    if (!dropped) return;
    this.entries = kept;
    this.changed = true;
  }
}

/** Messages as the formatters read them (a damaged cache must not reach them). */
function areMessages(value: unknown): value is LintMessage[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const m = value[i] as Partial<LintMessage> | null;
    if (typeof m !== 'object' || m === null) return false;
    if (typeof m.ruleId !== 'string' || typeof m.message !== 'string' || (m.severity !== 1 && m.severity !== 2)) return false;
    if (typeof m.line !== 'number' || typeof m.column !== 'number' || typeof m.endLine !== 'number' || typeof m.endColumn !== 'number') return false;
    if (m.fix !== undefined && !isEdit(m.fix)) return false;
    if (m.suggestions !== undefined && !(Array.isArray(m.suggestions) && m.suggestions.every((s) => typeof s?.desc === 'string' && isEdit(s.fix)))) return false;
  }
  return true;
}

function isEdit(value: unknown): boolean {
  const edit = value as { range?: unknown; text?: unknown } | null;
  return typeof edit === 'object' && edit !== null && typeof edit.text === 'string' && Array.isArray(edit.range) && edit.range.length === 2 && typeof edit.range[0] === 'number' && typeof edit.range[1] === 'number';
}

function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * 64-bit FNV-1a of the UTF-16 code units of `text`, in hexadecimal: the
 * config part of a cache key. Made once per config, and without loading
 * node:crypto, which a run whose files all keep their stamps never needs
 * otherwise and which costs start-up time to load. Configs are not chosen
 * to collide; two differing configs share a digest with a chance of about
 * 1 in 2^64.
 */
export function configDigest(text: string): string {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) hash = ((hash ^ BigInt(text.charCodeAt(i))) * FNV_PRIME) & MASK_64;
  return hash.toString(16).padStart(16, '0');
}
