// A full garbage collection on request, under Node: --expose-gc set at run
// time exposes `gc` to a new context (node:vm). Used between the phases of
// a long run whose earlier phase left much garbage (export), and by the
// language server in pauses (lsp/idle-gc.ts): V8 would otherwise grow the
// heap for the next phase and collect only at its next limit, so the
// process's peak memory holds the garbage of the phase before.

import v8 from 'node:v8';
import vm from 'node:vm';

/** The collector, once looked for; null where V8 will not expose it. */
let collector: (() => void) | null | undefined;

/** V8's `gc`, or null where V8 will not expose it. */
export function garbageCollector(): (() => void) | null {
  if (collector !== undefined) return collector;
  collector = null;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    if (typeof gc === 'function') collector = gc as () => void;
  } catch {
    // None: V8 collects when it will.
  }
  return collector;
}
