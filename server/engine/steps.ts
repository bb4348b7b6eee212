// A lint in steps. The engine is synchronous, so a caller that must stay
// responsive while it lints (the language server, which has to read a
// `$/cancelRequest` that arrives meanwhile) cannot interrupt it; instead
// the lint is a generator that yields between rules and between batches of
// segments, and the caller decides after each step whether to go on, to
// pause for the event loop, or to stop. The synchronous `lint` and
// `lintDocument` drain the same generator: one engine, not two.

/**
 * Segments checked between two steps of a lint: a step of a few
 * milliseconds at most on a cold file, and few enough steps that yielding
 * costs nothing measurable.
 */
export const SEGMENTS_PER_STEP = 64;

/** A computation in steps: each `yield` is a point where it may be paused or given up; the return value is its result. */
export type Steps<T> = Generator<void, T, void>;

/** What runs steps needs of them (a generator, or a StepRun shared by several callers). */
export interface Stepper<T> {
  next(): IteratorResult<void, T>;
}

/** Runs every step at once: the synchronous result. */
export function drain<T>(steps: Stepper<T>): T {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

/**
 * Steps that several callers may drive in turn (two requests waiting for
 * the same lint): once done, every further `next` answers the result
 * again, where a generator would answer `undefined`.
 */
export class StepRun<T> implements Stepper<T> {
  private result: IteratorReturnResult<T> | undefined;

  constructor(private readonly steps: Steps<T>) {}

  next(): IteratorResult<void, T> {
    if (this.result) return this.result;
    const r = this.steps.next();
    if (r.done) this.result = r;
    return r;
  }

  /** Gives the steps up for good: their `finally` blocks run, and nothing else of them will. */
  close(): void {
    if (!this.result) this.steps.return(undefined as T);
  }
}

export interface Cooperation {
  /**
   * Read before every step: true stops the run there (a cancelled request,
   * a document that changed). Called thousands of times in a long lint, so
   * it must be a field read or two.
   */
  stop(): boolean;
  /** Lets other work in (the event loop: messages are read, tokens cancelled); awaited once a slice has run `sliceMs`. */
  pause(): Promise<void>;
  /** How long steps run before a pause, in milliseconds. */
  sliceMs: number;
}

export type StepOutcome<T> = { done: true; value: T } | { done: false };

/** Where timestamps come from: `performance.now()` where there is one (Node, workers), else `Date.now()`. */
const now: () => number = typeof performance === 'object' && typeof performance.now === 'function' ? () => performance.now() : Date.now;

/**
 * Runs steps until they are done or `stop` says so, pausing every
 * `sliceMs`. A run whose steps all fit in one slice never pauses, so a
 * short lint (a keystroke's) costs one clock reading and one `stop` per
 * step. Stopped, the steps are left as they are: the caller closes them
 * (StepRun.close) or resumes them later.
 */
export async function runSteps<T>(steps: Stepper<T>, cooperation: Cooperation): Promise<StepOutcome<T>> {
  let sliceStart = now();
  for (;;) {
    if (cooperation.stop()) return { done: false };
    const r = steps.next();
    if (r.done) return { done: true, value: r.value };
    if (now() - sliceStart >= cooperation.sliceMs) {
      await cooperation.pause();
      sliceStart = now();
    }
  }
}
