// Where the time of a lint goes, rule by rule (the command's MSGLINT_TIMING,
// after ESLint's TIMING). Gathered only while a collector is set, so a lint
// without one takes no timestamps.

/** Milliseconds spent, summed over every file linted while collecting. */
export interface LintTimes {
  /** Splitting texts into lines and cells and parsing the cells and frontmatter. */
  parse: number;
  /**
   * Per rule id. Parts of the tree that are built on first use (a cell's
   * Markdown tree, a tool call's XML, the agent list) are charged to the
   * rule that first asks for them.
   */
  rules: Map<string, number>;
  /** Texts linted (a --fix pass counts as one more). */
  lints: number;
}

let collector: LintTimes | undefined;

/** Starts collecting into a new, empty LintTimes, which it returns; `stopTiming` ends it. */
export function startTiming(): LintTimes {
  collector = { parse: 0, rules: new Map(), lints: 0 };
  return collector;
}

export function stopTiming(): void {
  collector = undefined;
}

/** The collector of the lint under way, if any. */
export function timingCollector(): LintTimes | undefined {
  return collector;
}

export function addRuleTime(times: LintTimes, ruleId: string, ms: number): void {
  times.rules.set(ruleId, (times.rules.get(ruleId) ?? 0) + ms);
}

/** Adds `from` into `into` (the threads of one run). */
export function mergeTimes(into: LintTimes, from: LintTimes): void {
  into.parse += from.parse;
  into.lints += from.lints;
  for (const [id, ms] of from.rules) addRuleTime(into, id, ms);
}
