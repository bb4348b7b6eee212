// The incremental contract check (MSGLINT_CHECK_INCREMENTAL, see lint.ts):
// which rules' findings differ between an incremental and a full lint.

import type { Diagnostic, Range, TextEdit } from './types.js';

function rangeKey(r: Range): number[] {
  return [r.start.offset, r.end.offset, r.start.line, r.start.character, r.end.line, r.end.character];
}

function editKey(e: TextEdit): unknown[] {
  return [e.range[0], e.range[1], e.text];
}

/** Everything of a finding a user sees, independent of how the finding object was built. */
function findingKey(d: Diagnostic): string {
  return JSON.stringify([
    d.ruleId,
    d.severity,
    d.message,
    rangeKey(d.range),
    d.fix ? editKey(d.fix) : null,
    d.suggestions?.map((s) => [s.desc, editKey(s.fix)]) ?? null,
    d.related?.map((r) => [rangeKey(r.range), r.message]) ?? null,
    d.tags ?? null,
  ]);
}

/**
 * Undefined when both lists hold the same findings (in any order); otherwise
 * the ids of the rules whose findings differ and one example of each side.
 */
export function differences(incremental: readonly Diagnostic[], full: readonly Diagnostic[]): string | undefined {
  const count = new Map<string, number>();
  for (const d of incremental) {
    const key = findingKey(d);
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  for (const d of full) {
    const key = findingKey(d);
    count.set(key, (count.get(key) ?? 0) - 1);
  }
  const rules = new Set<string>();
  let onlyIncremental: string | undefined;
  let onlyFull: string | undefined;
  for (const [key, n] of count) {
    if (n === 0) continue;
    rules.add(JSON.parse(key)[0] as string);
    if (n > 0) onlyIncremental ??= key;
    else onlyFull ??= key;
  }
  if (rules.size === 0) return undefined;
  const ids = [...rules].sort();
  return (
    `rule${ids.length > 1 ? 's' : ''} ${ids.map((id) => `'${id}'`).join(', ')}` +
    (onlyIncremental ? `; only incremental: ${onlyIncremental}` : '') +
    (onlyFull ? `; only full: ${onlyFull}` : '')
  );
}
