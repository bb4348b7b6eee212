// At most MAX_PROBLEMS_PER_RULE problems of one rule per file, and one more
// that says how many were left out. A few megabytes of empty cells give
// millions of findings: listing them helps nobody, and keeping them took
// gigabytes. A lint of a text linted once offers each finding here before it
// makes the finding's diagnostic, so memory stays bounded whatever the file.

import type { Diagnostic, Severity } from './types.js';

/** Problems of one rule reported per file; the rest are counted in one more problem. */
export const MAX_PROBLEMS_PER_RULE = 1000;

interface RuleProblems {
  kept: Diagnostic[];
  /** Findings offered, kept or not. */
  count: number;
  /** The highest severity offered. */
  severity: Severity;
  /** Once `kept` was cut: findings starting after this offset are not among the first ones. */
  after: number;
}

const byPlace = (a: Diagnostic, b: Diagnostic): number => a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset;

/**
 * The first MAX_PROBLEMS_PER_RULE problems of each rule in file order (as
 * the report sorts them), whatever order they come in: each rule keeps at
 * most twice that many, cut back to the first ones (plus the one after,
 * where the note goes) when it fills up, so n findings cost n log n.
 */
export class ProblemCap {
  private readonly rules = new Map<string, RuleProblems>();

  /** Counts a finding; whether it may be among the first (then `keep` its diagnostic). */
  offer(ruleId: string, offset: number, severity: Severity): boolean {
    let r = this.rules.get(ruleId);
    if (!r) this.rules.set(ruleId, (r = { kept: [], count: 0, severity, after: Infinity }));
    r.count++;
    if (severity > r.severity) r.severity = severity;
    return offset <= r.after;
  }

  /** Keeps the diagnostic of a finding `offer` let through. */
  keep(d: Diagnostic): void {
    const r = this.rules.get(d.ruleId)!;
    r.kept.push(d);
    if (r.kept.length >= 2 * (MAX_PROBLEMS_PER_RULE + 1)) cut(r);
  }

  /** `offer` and `keep` in one, for a diagnostic already made. */
  take(d: Diagnostic): void {
    if (this.offer(d.ruleId, d.range.start.offset, d.severity)) this.keep(d);
  }

  /** The kept problems, and for each rule with more, one problem at the first left out that counts them. */
  result(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const [ruleId, r] of this.rules) {
      if (r.count <= MAX_PROBLEMS_PER_RULE) {
        for (let i = 0; i < r.kept.length; i++) out.push(r.kept[i]!);
        continue;
      }
      cut(r);
      for (let i = 0; i < MAX_PROBLEMS_PER_RULE; i++) out.push(r.kept[i]!);
      const first = r.kept[MAX_PROBLEMS_PER_RULE]!;
      const more = r.count - MAX_PROBLEMS_PER_RULE;
      out.push({
        ruleId,
        severity: r.severity,
        message: `${more.toLocaleString('en-US')} more ${more === 1 ? 'problem' : 'problems'} of this rule in this file, from here on, not shown: msglint reports the first ${MAX_PROBLEMS_PER_RULE.toLocaleString('en-US')} of each rule.`,
        range: first.range,
        count: more,
      });
    }
    return out;
  }
}

function cut(r: RuleProblems): void {
  r.kept.sort(byPlace);
  if (r.kept.length > MAX_PROBLEMS_PER_RULE + 1) r.kept.length = MAX_PROBLEMS_PER_RULE + 1;
  if (r.kept.length === MAX_PROBLEMS_PER_RULE + 1) r.after = r.kept[MAX_PROBLEMS_PER_RULE]!.range.start.offset;
}
