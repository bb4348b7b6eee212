// Shared test helpers: lint text through the real engine (from source).
import { lint, lintAndFix } from '../server/linter.js';
import type { Diagnostic, LintOptions, MsglintConfig } from '../server/engine/types.js';

export interface Found {
  ruleId: string;
  /** 1-based line and column of the start, as the CLI prints them. */
  line: number;
  column: number;
  /** The text the diagnostic's range covers. */
  text: string;
  message: string;
  diagnostic: Diagnostic;
}

/** Joins lines with LF (tests write files as arrays of lines for legibility). */
export function file(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

export function check(text: string, options: LintOptions & { config?: MsglintConfig } = {}): Found[] {
  const result = lint(text, { fileName: 'test.msg.md', ...options });
  return result.diagnostics.map((d) => ({
    ruleId: d.ruleId,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    text: text.slice(d.range.start.offset, d.range.end.offset),
    message: d.message,
    diagnostic: d,
  }));
}

/** Only the findings of one rule. */
export function checkRule(ruleId: string, text: string, options: LintOptions = {}): Found[] {
  return check(text, options).filter((f) => f.ruleId === ruleId);
}

/** The text after applying all safe fixes until stable. */
export function fixText(text: string, options: LintOptions = {}): string {
  return lintAndFix(text, { fileName: 'test.msg.md', ...options }).text;
}

/** Applies one diagnostic's fix (or suggestion i) to the text. */
export function applyFix(text: string, d: Diagnostic, suggestion?: number): string {
  const fix = suggestion === undefined ? d.fix : d.suggestions?.[suggestion]?.fix;
  if (!fix) throw new Error(`no ${suggestion === undefined ? 'fix' : 'suggestion'} on ${d.ruleId}`);
  return text.slice(0, fix.range[0]) + fix.text + text.slice(fix.range[1]);
}

/** The edit from one text to the next, as one range (what an editor's change says). */
export function editBetween(a: string, b: string): { start: number; oldEnd: number; text: string } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { start, oldEnd: a.length - end, text: b.slice(start, b.length - end) };
}
