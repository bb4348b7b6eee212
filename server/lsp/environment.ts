// What the language server needs from where it runs, so that the same
// server (server.ts and the feature modules) runs under Node (main.ts, over
// stdio, IPC, a socket or a pipe) and in a browser's Web Worker (browser.ts,
// where there is no file system). Node's side is node-environment.ts.

import type { EncodingProblem } from '../base/decode.js';
import type { MsglintConfig } from '../engine/types.js';

/** Config files on disk, as the CLI finds them (server/config/load.ts). */
export interface ConfigFiles {
  /** File names whose changes make the server read configs again. */
  readonly names: readonly string[];
  /** The config of a file, and whether that config ignores it; throws ConfigError for a broken config. */
  forFile(fsPath: string): { config: MsglintConfig; isIgnored(fsPath: string): boolean };
  /** Forgets what was read (a config file changed). */
  clear(): void;
  /**
   * The client's workspace folders: a config found in one extends only files
   * inside it (and installed packages), as the workspace is not trusted.
   */
  useWorkspaceFolders(folders: readonly string[]): void;
}

/** The files of the workspace folders, where there is a disk. */
export interface WorkspaceFiles {
  /**
   * The files the command would lint in these folders (`msglint .` in each:
   * .gitignore files, node_modules, .git and the configs' `ignores`
   * skipped), and one line per path it could not read.
   */
  list(folders: readonly string[]): Promise<{ files: string[]; problems: string[] }>;
  /**
   * A file's text and a digest of it, unless its stamp (size, times, inode)
   * is still `stamp`: then 'unchanged'. `problem` when it is not a file
   * msglint reads (not a regular file, or past the size limit: a link to
   * /dev/zero or /proc/self/pagemap); undefined when it cannot be read (gone).
   * `encoding`: what decoding its bytes found (base/decode.ts), reported.
   */
  read(fsPath: string, stamp?: string): { text: string; digest: string; stamp: string; encoding?: EncodingProblem } | { problem: string; stamp: string } | 'unchanged' | undefined;
  /** The `file:` URI of a path. */
  uri(fsPath: string): string;
}

export interface ServerEnvironment {
  /** The server's version, for serverInfo. */
  readonly version: string;
  /** The file system path of a `file:` URI, where documents are files; undefined elsewhere. */
  fsPath(uri: URL): string | undefined;
  /** Config files, where there is a disk; without it only the client's settings (`msglint.rules`) apply. */
  readonly configFiles?: ConfigFiles;
  /** The workspace's files (workspace diagnostics), where there is a disk. */
  readonly workspaceFiles?: WorkspaceFiles;
  /** The `file:` URI of `relative` (an output_file attribute) next to the document at `fsPath`. */
  fileLink?(fsPath: string, relative: string): string;
  /** Calls `report` for errors nothing else caught, to keep serving. */
  onUncaughtError(report: (kind: string, error: unknown) => void): void;
}
