// A worker thread of --concurrency (see workers.ts).

import { parentPort, workerData } from 'node:worker_threads';
import type { LintCommand } from './args.js';
import { createFileLinter, oneLine } from './lint-file.js';

const { command, cwd } = workerData as { command: LintCommand; cwd: string };
const linter = createFileLinter(command, cwd);

parentPort!.on('message', (m: { index: number; file: string; cachedKey?: string }) => {
  let outcome;
  try {
    outcome = linter.lintPath(m.file, m.cachedKey);
  } catch (error) {
    // Config errors surface here in a worker; report them as the main thread would.
    outcome = { messages: [`msglint: ${oneLine(error)}`], failed: true };
  }
  parentPort!.postMessage({ index: m.index, outcome });
});
