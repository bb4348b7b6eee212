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
//
// Anyone can compute an entry's key, so the entries are signed with a key
// of this user's that no repository holds (cache-key.ts): a cache that does
// not verify (committed to the repository under review, copied, edited) is
// not used, and one line says so.

import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NotReadableError, readRegularFile } from '../base/read-file.js';
import { loadCrypto } from '../base/lazy.js';
import { describeFsError } from '../config/load.js';
import { cacheKeyFile, loadCacheKey, signature, verifies } from './cache-key.js';
import { UsageError } from './errors.js';
import { removeQuietly, temporaryName, type FileStamp } from './files.js';
import type { FileReport, LintMessage } from './formatters/types.js';
import { reportOf } from './report.js';

/**
 * The cache file that `--cache-location` names, as the user gave it: the path
 * itself, or for a folder (one that exists, or a path ending with `/`) a file
 * in it named after the working directory, as ESLint names it, so that
 * several projects can keep their caches in one folder.
 */
export function cacheFileOf(location: string, cwd: string): string {
  if (!/[\\/]$/.test(location) && !isFolder(path.resolve(cwd, location))) return location;
  const hash = loadCrypto().createHash('sha256').update(path.resolve(cwd)).digest('hex').slice(0, 12);
  return path.join(location, `.msglintcache_${hash}`);
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    // Missing, or under a file or a folder it may not enter: saving the cache there says what is wrong.
    return false;
  }
}

/** A cache file past this is not one msglint wrote (a million files' entries take less). */
const CACHE_MAX_BYTES = 512 * 1024 * 1024;

/** Version 4: version 3 (entries named by paths relative to the cache file, with `/`; keys CONTENT:CONFIG; stamps), signed. */
const VERSION = 4;

/**
 * How a cache file starts: the version, then the signature of the entries,
 * whose JSON text runs from here to the file's closing brace. The signature
 * is of that text's UTF-8 bytes exactly as written, so it is checked before
 * anything is decoded or parsed, with no second serialisation.
 */
const HEAD = new RegExp(`^\\{"msglintCache":${VERSION},"mac":"([A-Za-z0-9+/]{43}=)","entries":`);

/** A cache file's text: its entries (their JSON text) signed with `key`. */
export function cacheText(key: Buffer, entries: string): string {
  return `{"msglintCache":${VERSION},"mac":"${signature(key, entries)}","entries":${entries}}`;
}

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

type Entries = Record<string, Entry>;

export class LintCache {
  private entries: Entries = {};
  private changed = false;
  /** The directory entry names are relative to. */
  private readonly base: string;
  /** Names of the entries this run asked for: their files exist. */
  private readonly seen = new Set<string>();

  /**
   * Opens the cache at `location` (`label`: as the user gave it, for
   * messages), signed with the key kept for `env`; `warn` takes one line when
   * the cache cannot be used. Undefined when no key can be kept: the run
   * goes on without a cache. Throws a UsageError for a location that is a
   * FIFO or a device.
   */
  static open(location: string, label: string, env: NodeJS.ProcessEnv, warn: (line: string) => void): LintCache | undefined {
    const keyFile = cacheKeyFile(env);
    let key: Buffer;
    try {
      key = loadCacheKey(keyFile);
    } catch (error) {
      warn(`msglint: ${keyFile}: cannot keep the key that signs the cache: ${describeFsError(error)}; linting without the cache`);
      return undefined;
    }
    return new LintCache(location, label, key, warn);
  }

  private constructor(
    private readonly location: string,
    private readonly label: string,
    private readonly key: Buffer,
    warn: (line: string) => void,
  ) {
    this.base = path.dirname(location);
    let bytes: Buffer;
    try {
      // A FIFO or device would block or stream forever: say so rather than read it.
      bytes = readRegularFile(location, CACHE_MAX_BYTES);
    } catch (error) {
      if (error instanceof NotReadableError) throw new UsageError(`${label}: cannot use as the cache: ${error.message}`);
      // No cache yet, or an unreadable one: start afresh (it is only a cache; saving it says what is wrong).
      return;
    }
    // Another version's cache, or a damaged one: start afresh. The head is
    // ASCII, so its length in characters is its length in bytes; the
    // signature is checked on the bytes, before anything is decoded.
    const head = HEAD.exec(bytes.toString('latin1', 0, 128));
    if (!head || bytes[bytes.length - 1] !== 0x7d) return;
    const entries = bytes.subarray(head[0].length, bytes.length - 1);
    if (!verifies(key, entries, head[1]!)) {
      warn(`msglint: ${label}: not used as the cache: not signed with this user's cache key (a cache committed to the repository or copied from elsewhere is never trusted); it will be replaced`);
      this.changed = true;
      return;
    }
    try {
      const data = JSON.parse(entries.toString('utf8')) as Entries;
      if (typeof data === 'object' && data !== null && !Array.isArray(data)) this.entries = data;
    } catch {
      // Signed but damaged (a disk error): start afresh.
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

  /** Writes the cache when it changed; returns a line for stderr when it cannot (not an error of the lint run). */
  save(): string | undefined {
    this.prune();
    if (!this.changed) return undefined;
    const text = cacheText(this.key, JSON.stringify(this.entries));
    // Temporary file and rename: a run killed half-way leaves the old cache, not a torn one; a link at the location is replaced, not followed.
    const temp = temporaryName(this.location);
    try {
      // A folder named with a trailing `/` is made on first use.
      if (!existsSync(path.dirname(this.location))) mkdirSync(path.dirname(this.location), { recursive: true });
      writeFileSync(temp, text, { flag: 'wx' });
      renameSync(temp, this.location);
      return undefined;
    } catch (error) {
      removeQuietly(temp);
      return `msglint: ${this.label}: cannot write the cache: ${describeFsError(error)}`;
    }
  }

  /**
   * Drops the entries of files that no longer exist. The files of this run
   * exist; the others cost one probe each (a run over part of the tree keeps
   * the entries of the rest).
   */
  private prune(): void {
    const kept: Entries = {};
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
