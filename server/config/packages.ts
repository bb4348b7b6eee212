// An installed package named in `extends`, found as Node finds packages
// (createRequire(…).resolve: it reads package.json files and looks at
// files, and runs nothing). Node reads those package.json files with a
// plain open: one that is a FIFO blocks it for ever, one that links to
// /dev/zero streams for ever. So each package.json it may read is looked
// at first (a regular file within the size of a config, or absent).
//
// Named as ESLint names shareable configs: `foo` is the package
// `msglint-config-foo`, `@acme` is `@acme/msglint-config`, `@acme/foo` is
// `@acme/msglint-config-foo`, and a full name (`msglint-config-foo`) or a
// file inside a package (`msglint-config-foo/strict.json`) is taken as
// written.

import { realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CONFIG_MAX_BYTES } from '../base/read-file.js';
import { ConfigError } from './errors.js';
import { isInside } from './reach.js';

const PREFIX = 'msglint-config';

/** The package name ESLint's convention gives a shareable config's short name. */
export function packageNameOf(specifier: string): string {
  if (specifier.startsWith('@')) {
    const slash = specifier.indexOf('/');
    if (slash === -1) return `${specifier}/${PREFIX}`;
    const scope = specifier.slice(0, slash);
    const rest = specifier.slice(slash + 1);
    const [name, ...file] = rest.split('/');
    const full = name!.startsWith(PREFIX) ? name! : `${PREFIX}-${name}`;
    return [`${scope}/${full}`, ...file].join('/');
  }
  const [name, ...file] = specifier.split('/');
  return [name!.startsWith(PREFIX) ? name! : `${PREFIX}-${name}`, ...file].join('/');
}

export interface FoundPackage {
  /** The package's name (`msglint-config-foo`, `@acme/msglint-config`). */
  name: string;
  /** Its folder, where Node found it (in a node_modules folder). */
  folder: string;
  /** The real paths of its folder and of the config file the entry names, which lies inside it. */
  realFolder: string;
  file: string;
}

/** The package an `extends` entry (not a path) of the config at `configPath` names; throws ConfigError when there is none. */
export function findPackage(specifier: string, configPath: string, label: string): FoundPackage {
  const fail = (why: string): never => {
    throw new ConfigError(`${label}: "extends": ${why}`, configPath);
  };
  const request = packageNameOf(specifier);
  const parts = request.split('/');
  // Node would join `..` to the folder it searches (`x/../../../etc/passwd`).
  if (parts.some((part) => part === '' || part === '.' || part === '..') || /[\\\0]/.test(request)) fail(`${JSON.stringify(specifier)} is neither a path (./…, ../…, /…) nor a package name`);
  const name = parts.slice(0, request.startsWith('@') ? 2 : 1).join('/');
  const cannotFind = () => fail(`cannot find the package ${name}${request === specifier ? '' : ` (for ${JSON.stringify(specifier)})`} from ${path.dirname(configPath)}`);

  const require = createRequire(configPath);
  const searched = require.resolve.paths(name) ?? [];
  checkPackageFiles(path.dirname(configPath), searched.map((dir) => path.join(dir, name)), fail);
  const folder = searched.map((dir) => path.join(dir, name)).find(isDirectory);
  if (folder === undefined) return cannotFind();
  let file: string;
  let realFolder: string;
  try {
    file = realpathSync.native(require.resolve(request));
    realFolder = realpathSync.native(folder);
  } catch {
    return cannotFind();
  }
  // A "main" of "../../x", or a package found elsewhere than in its folder.
  if (!isInside(file, realFolder)) fail(`the package ${name} names a file outside its folder`);
  return { name, folder, realFolder, file };
}

/**
 * Fails unless every package.json Node may read to resolve a package from
 * `dir` is absent or a regular file of a config's size: the nearest one at
 * or above `dir` (Node reads it to see whether a package names itself), and
 * the one in each folder where it looks for the package.
 */
function checkPackageFiles(dir: string, packageFolders: readonly string[], fail: (why: string) => never): void {
  const check = (file: string): boolean => {
    let stats;
    try {
      stats = statSync(file);
    } catch {
      return false;
    }
    if (stats.isDirectory()) return false;
    if (!stats.isFile() || stats.size > CONFIG_MAX_BYTES) fail(`${file} is not a regular file of at most 1 MiB, so no package is looked for`);
    return true;
  };
  for (let at = dir; !at.endsWith(`${path.sep}node_modules`); at = path.dirname(at)) {
    if (check(path.join(at, 'package.json')) || path.dirname(at) === at) break;
  }
  for (const folder of packageFolders) check(path.join(folder, 'package.json'));
}

function isDirectory(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
