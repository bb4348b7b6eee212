// The language server's environment under Node (see environment.ts): files
// on disk, config files found as the CLI finds them.

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageInfo } from '../base/package-info.js';
import { CONFIG_FILE_NAMES, ConfigResolver } from '../config/index.js';
import { allRules } from '../linter.js';
import type { ConfigFiles, ServerEnvironment } from './environment.js';

export function nodeEnvironment(): ServerEnvironment {
  const resolver = new ConfigResolver(allRules);
  const configFiles: ConfigFiles = {
    names: CONFIG_FILE_NAMES,
    forFile: (fsPath) => resolver.forFile(fsPath),
    clear: () => resolver.clear(),
  };
  return {
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
