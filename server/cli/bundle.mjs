#!/usr/bin/env node
// Bundles the `msglint` command (run by `npm run build`, after tsc):
//   dist/cli/main.js    the command (the package's bin), subcommands included
//   dist/cli/worker.js  a --concurrency worker thread (main.js starts it by
//                       this name, next to itself)
//
// Why: loading the ~100 modules tsc writes costs Node about 80 ms of module
// resolution at every start, which is most of the run for a pre-commit hook
// on a few files; one file of the same JavaScript loads in a fraction (two
// files sharing chunks lose a third of the gain, so each is whole).
// Dependencies stay in node_modules (they load as they would from dist/).

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: { main: 'dist/server/cli/main.js', worker: 'dist/server/cli/worker.js' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // The main entry keeps its `#!/usr/bin/env node` line; chunks need none.
  logLevel: 'warning',
});
