import type { Diagnostic, LintResult } from '../engine/types.js';
import type { FileReport, LintMessage } from './formatters/types.js';

export function toFileReport(filePath: string, result: LintResult, output?: string): FileReport {
  const messages = result.diagnostics.map(toMessage);
  // The engine reports rule by rule; people read top to bottom.
  messages.sort((a, b) => a.line - b.line || a.column - b.column);
  return reportOf(filePath, messages, output);
}

/** The report of a file with these messages (in order), its counters computed. */
export function reportOf(filePath: string, messages: LintMessage[], output?: string): FileReport {
  return withCounts({
    filePath,
    messages,
    suppressedMessages: [],
    errorCount: 0,
    fatalErrorCount: 0,
    warningCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
    ...(output !== undefined ? { output } : {}),
    usedDeprecatedRules: [],
  });
}

function toMessage(d: Diagnostic): LintMessage {
  const message: LintMessage = {
    ruleId: d.ruleId,
    severity: d.severity,
    message: d.message,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
  };
  if (d.fix) message.fix = d.fix;
  if (d.suggestions?.length) message.suggestions = d.suggestions.map(({ desc, fix }) => ({ desc, fix }));
  if (d.count !== undefined) message.count = d.count;
  return message;
}

/** Recomputes the counters from the messages (after filtering, for --quiet). */
export function withCounts(report: FileReport): FileReport {
  let errorCount = 0;
  let warningCount = 0;
  let fixableErrorCount = 0;
  let fixableWarningCount = 0;
  for (const m of report.messages) {
    // The note of problems not shown counts them all (LintMessage.count).
    const n = m.count ?? 1;
    if (m.severity === 2) {
      errorCount += n;
      if (m.fix) fixableErrorCount++;
    } else {
      warningCount += n;
      if (m.fix) fixableWarningCount++;
    }
  }
  return { ...report, errorCount, warningCount, fixableErrorCount, fixableWarningCount };
}

export function errorsOnly(report: FileReport): FileReport {
  return withCounts({ ...report, messages: report.messages.filter((m) => m.severity === 2) });
}
