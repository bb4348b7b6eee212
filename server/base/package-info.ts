import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageInfo {
  version: string;
  homepage?: string;
}

let cached: PackageInfo | undefined;

/**
 * msglint's own package.json, found by walking up from this module: the
 * bundle (dist/cli), the compiled file (dist/server/base) and the source (server/base) sit at
 * different depths. Read only when a version is actually printed.
 */
export function packageInfo(): PackageInfo {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      if (pkg.name === 'msglint' && typeof pkg.version === 'string') {
        cached = { version: pkg.version };
        if (typeof pkg.homepage === 'string') cached.homepage = pkg.homepage;
        return cached;
      }
    } catch {
      // No (readable) package.json here: keep looking further up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return (cached = { version: '0.0.0' });
    dir = parent;
  }
}
