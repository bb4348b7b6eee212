// --concurrency N: the main thread and N - 1 worker threads lint the files
// together. Each worker builds its own file linter (config resolver included)
// from the command, gets the whole list of files once, and claims chunks of
// it from a counter shared by all threads (no round trip to the main thread
// per file or per chunk); it sends the outcomes back one message per chunk.
// Chunks shrink as the list runs out (guided scheduling), so a thread that
// is slower (a worker still warming up its JIT) takes fewer files and all
// threads finish at about the same time.

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { LintCommand } from './args.js';
import type { LintTimes } from '../engine/timing.js';
import type { CachedFile } from './cache.js';
import { oneLine, type FileLinter, type FileOutcome } from './lint-file.js';

/** Below this many files, starting workers costs more than it saves. */
const MIN_FILES_FOR_AUTO = 64;
/**
 * Each worker loads its own modules and compiles its own optimized code
 * again, on top of a main thread that already keeps more than one core
 * busy (V8 compiles and collects on background threads). On 2 cores a
 * worker starts to pay only between 12 and 23 MB of text (the measurements
 * are in docs/performance.md), so `auto` uses threads only for a lot of text.
 */
const MIN_BYTES_FOR_AUTO = 32 * 1024 * 1024;

/** Threads to lint `files` files with, the main thread included. */
export function workerCount(setting: LintCommand['concurrency'], files: number, totalBytes = Infinity): number {
  if (setting === undefined || setting === 'off') return 1;
  if (setting === 'auto') {
    if (files < MIN_FILES_FOR_AUTO || totalBytes < MIN_BYTES_FOR_AUTO) return 1;
    return Math.max(1, Math.min(availableParallelism(), Math.ceil(files / 32)));
  }
  return Math.max(1, Math.min(setting, files));
}

/** The list of files, sent once to each worker. */
export interface Job {
  files: string[];
  cached: (CachedFile | undefined)[];
  /** An Int32Array of one element: the index of the next file nobody has claimed. */
  next: SharedArrayBuffer;
  threads: number;
  /** Collect times per rule (MSGLINT_TIMING) and send them with 'done'. */
  timing: boolean;
}

/** What a worker sends back. */
export type WorkerMessage =
  | { kind: 'outcomes'; start: number; outcomes: FileOutcome[] }
  /** lintPath threw (a config that became unusable): the run fails as on the main thread. */
  | { kind: 'thrown'; index: number; name: string; message: string }
  | { kind: 'done'; times?: LintTimes };

/** Chunks are at most 1 / CHUNKS_PER_THREAD of what remains per thread... */
const CHUNKS_PER_THREAD = 4;
/** ...and at least this many files (one message and one claim each). */
const MIN_CHUNK = 4;

/** Claims the next chunk of `total` files: [start, end), or undefined when none is left. */
export function claimChunk(next: Int32Array, total: number, threads: number): [number, number] | undefined {
  for (;;) {
    const start = Atomics.load(next, 0);
    if (start >= total) return undefined;
    const size = Math.max(MIN_CHUNK, Math.ceil((total - start) / (threads * CHUNKS_PER_THREAD)));
    const end = Math.min(total, start + size);
    if (Atomics.compareExchange(next, 0, start, end) === start) return [start, end];
  }
}

/** Lets no thread claim anything more (chunks already claimed are finished). */
export function stopClaims(next: Int32Array, total: number): void {
  Atomics.store(next, 0, total);
}

/** An error to throw on the main thread that reads as the one the worker caught (same name and message). */
function rethrown(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

interface Thrown {
  index: number;
  error: unknown;
}

interface Thread {
  worker: Worker;
  /** loading: waiting for the job; busy: linting; then finished (sent 'done') or stopped (terminated, or died). */
  state: 'loading' | 'busy' | 'finished' | 'stopped';
  /** Why it died, if it did. */
  failure?: Error;
}

/**
 * Worker threads started ahead of the list of files (they load their modules
 * while the main thread discovers the files), then used once by lint().
 */
export class WorkerPool {
  private readonly threads: Thread[] = [];
  private outcomes: FileOutcome[] = [];
  private readonly thrown: Thrown[] = [];
  /** What each worker that finished collected, when lint() was asked to time. */
  readonly times: LintTimes[] = [];
  /** Called when a busy thread finishes or stops. */
  private onChange: () => void = () => {};

  constructor(command: LintCommand, cwd: string, count: number) {
    const url = new URL('./worker.js', import.meta.url);
    // Loaded here, not with this module: a few milliseconds that a run on one thread need not pay.
    const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
    for (let i = 0; i < count; i++) {
      const thread: Thread = { worker: new Worker(url, { workerData: { command, cwd } }), state: 'loading' };
      thread.worker.on('message', (m: WorkerMessage) => this.receive(thread, m));
      thread.worker.on('error', (error) => this.stopped(thread, `worker thread failed: ${oneLine(error)}`));
      thread.worker.on('exit', (code) => this.stopped(thread, `worker thread stopped before it finished (exit code ${code})`));
      this.threads.push(thread);
    }
  }

  /** Worker threads started (the main thread not counted). */
  get size(): number {
    return this.threads.length;
  }

  /**
   * Lints `files` on the main thread (with `linter`) and on `threads - 1`
   * of the workers (the others are stopped); outcomes come back in the
   * order of `files`. Rejects as the main thread alone would (with the error
   * of the first file whose lintPath threw), or with a one-line error when
   * a worker died.
   */
  async lint(linter: FileLinter, files: string[], cached: (CachedFile | undefined)[], threads: number, timing = false): Promise<FileOutcome[]> {
    const used = this.threads.slice(0, threads - 1);
    for (const thread of this.threads.slice(threads - 1)) this.stop(thread);
    const failure = (): Error | undefined => used.find((thread) => thread.failure)?.failure;
    const total = files.length;
    const counter = new Int32Array(new SharedArrayBuffer(4));
    const job: Job = { files, cached, next: counter.buffer as SharedArrayBuffer, threads: used.length + 1, timing };
    this.outcomes = new Array(total);
    for (const thread of used) {
      if (thread.state !== 'loading') continue;
      thread.state = 'busy';
      thread.worker.postMessage(job);
    }

    for (let chunk; !failure() && (chunk = claimChunk(counter, total, job.threads)); ) {
      const [start, end] = chunk;
      for (let i = start; i < end; i++) {
        try {
          this.outcomes[i] = linter.lintPath(files[i]!, cached[i]);
        } catch (error) {
          this.thrown.push({ index: i, error });
          stopClaims(counter, total);
          break;
        }
      }
      // Take in what the workers sent, and hear of a worker that died.
      await new Promise(setImmediate);
    }
    // Wait for the chunks the workers still hold (a dead worker's never comes).
    while (!failure() && used.some((thread) => thread.state === 'busy')) {
      await new Promise<void>((resolve) => (this.onChange = resolve));
    }
    const died = failure();
    if (died) throw died;
    if (this.thrown.length > 0) {
      // The first file in order that threw: what one thread would have thrown.
      throw this.thrown.reduce((a, b) => (b.index < a.index ? b : a)).error;
    }
    return this.outcomes;
  }

  /** Stops the workers; safe to call more than once. */
  close(): void {
    for (const thread of this.threads) this.stop(thread);
  }

  private stop(thread: Thread): void {
    if (thread.state === 'stopped') return;
    thread.state = 'stopped';
    void thread.worker.terminate();
  }

  private receive(thread: Thread, m: WorkerMessage): void {
    if (m.kind === 'outcomes') {
      for (let k = 0; k < m.outcomes.length; k++) this.outcomes[m.start + k] = m.outcomes[k]!;
    } else if (m.kind === 'thrown') {
      this.thrown.push({ index: m.index, error: rethrown(m.name, m.message) });
    } else if (thread.state === 'busy') {
      if (m.times) this.times.push(m.times);
      thread.state = 'finished';
      this.onChange();
    }
  }

  /** The worker died ('error', or 'exit' unasked): a failure unless its work was done or no longer wanted. */
  private stopped(thread: Thread, message: string): void {
    if (thread.state === 'finished' || thread.state === 'stopped') return;
    thread.state = 'stopped';
    thread.failure = new Error(message);
    this.onChange();
  }
}
