// A full garbage collection when the server has been idle and its heap has
// grown. Every keystroke in a large file makes a new version of the tree
// that lives until the next keystroke, long enough for V8 to move it to the
// old generation, where it stays as garbage until the heap reaches V8's next
// limit: while someone edits, the resident set climbs to several times what
// the live versions need. Collecting in a pause in the editing gives it back
// without a collection in the middle of a keystroke.

import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { garbageCollector } from '../base/collect.js';

/** How often the server looks at its load and heap. */
const PERIOD_MS = 1000;
/** Busy at most this share of the last period: a pause in the editing. */
const IDLE_UTILIZATION = 0.05;
/** Collect when the heap has grown by this much since the last collection. */
const GROWTH_BYTES = 48 * 1024 * 1024;

/** Starts the idle collector; a no-op where V8 will not expose `gc`. */
export function collectWhenIdle(): void {
  const collect = garbageCollector();
  if (!collect) return;
  let after = v8.getHeapStatistics().used_heap_size;
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy > IDLE_UTILIZATION || v8.getHeapStatistics().used_heap_size - after < GROWTH_BYTES) return;
    collect();
    after = v8.getHeapStatistics().used_heap_size;
  }, PERIOD_MS).unref();
}
