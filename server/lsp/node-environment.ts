// The language server's environment under Node (see environment.ts): files
// on disk, config files found as the CLI finds them.

import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeBytes } from '../base/decode.js';
import { packageInfo } from '../base/package-info.js';
import { MESSAGE_FILE_MAX_BYTES, NotReadableError, readRegularFile } from '../base/read-file.js';
import { CONFIG_FILE_NAMES, ConfigResolver, workspaceReach } from '../config/index.js';
import { discoverFiles } from '../config/discover.js';
import { allRules } from '../linter.js';
import type { ConfigFiles, ServerEnvironment, WorkspaceFiles } from './environment.js';

export function nodeEnvironment(): ServerEnvironment {
  const resolverFor = (folders: readonly string[]) => new ConfigResolver(allRules, undefined, workspaceReach(folders));
  let resolver = resolverFor([]);
  const configFiles: ConfigFiles = {
    names: CONFIG_FILE_NAMES,
    forFile: (fsPath) => resolver.forFile(fsPath),
    clear: () => resolver.clear(),
    useWorkspaceFolders(folders) {
      resolver = resolverFor(folders);
    },
  };
  const workspaceFiles: WorkspaceFiles = {
    async list(folders) {
      const files: string[] = [];
      const problems: string[] = [];
      for (const folder of folders) {
        const found = await discoverFiles(['.'], folder, resolver);
        files.push(...found.files);
        problems.push(...found.problems);
      }
      return { files, problems };
    },
    read(fsPath, stamp) {
      let now: string;
      try {
        // Read only when the stamp moved: a tree re-checked every few seconds costs a stat per file.
        const s = statSync(fsPath, { bigint: true });
        now = `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`;
      } catch {
        return undefined;
      }
      if (now === stamp) return 'unchanged';
      try {
        // The command's guarded reader: a special file is refused, not read for gigabytes.
        const bytes = readRegularFile(fsPath, MESSAGE_FILE_MAX_BYTES);
        // As the command decodes them: a UTF-16 file with its byte order mark is read as such, bytes that are not text are reported.
        const { text, problem } = decodeBytes(bytes);
        return { text, digest: createHash('sha1').update(bytes).digest('base64'), stamp: now, ...(problem ? { encoding: problem } : {}) };
      } catch (error) {
        return error instanceof NotReadableError ? { problem: error.message, stamp: now } : undefined;
      }
    },
    uri: (fsPath) => pathToFileURL(fsPath).href,
  };
  return {
    workspaceFiles,
    get version() {
      return packageInfo().version;
    },
    fsPath: (uri) => (uri.protocol === 'file:' ? fileURLToPath(uri) : undefined),
    configFiles,
    fileLink: (fsPath, relative) => pathToFileURL(path.resolve(path.dirname(fsPath), relative)).href,
    onUncaughtError(report) {
      process.on('uncaughtException', (e) => report('uncaught exception', e));
      process.on('unhandledRejection', (e) => report('unhandled rejection', e));
    },
  };
}
