// A worker thread of --concurrency (see workers.ts): lints the chunks of the
// job it claims, one message of outcomes per chunk, then 'done'.

import { parentPort, workerData } from 'node:worker_threads';
import type { LintCommand } from './args.js';
import { createFileLinter, type FileOutcome } from './lint-file.js';
import { claimChunk, stopClaims, type Job, type WorkerMessage } from './workers.js';
import { startTiming } from '../engine/timing.js';

const { command, cwd } = workerData as { command: LintCommand; cwd: string };
const linter = createFileLinter(command, cwd);
const port = parentPort!;
const send = (m: WorkerMessage): void => port.postMessage(m);

port.once('message', ({ files, cached, next, threads, timing }: Job) => {
  const times = timing ? startTiming() : undefined;
  const counter = new Int32Array(next);
  for (let chunk; (chunk = claimChunk(counter, files.length, threads)); ) {
    const [start, end] = chunk;
    const outcomes: FileOutcome[] = [];
    for (let i = start; i < end; i++) {
      try {
        outcomes.push(linter.lintPath(files[i]!, cached[i]));
      } catch (error) {
        // A config that cannot be used: the main thread fails the run with it.
        send({ kind: 'thrown', index: i, name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) });
        stopClaims(counter, files.length);
        break;
      }
    }
    send({ kind: 'outcomes', start, outcomes });
  }
  send(times ? { kind: 'done', times } : { kind: 'done' });
  port.close();
});
