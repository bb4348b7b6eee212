// reviewdog's Diagnostic Format (rdjson: `reviewdog -f=rdjson`), one
// DiagnosticResult, with each safe fix as a suggestion reviewdog can post.
//
// rdjson counts columns in UTF-8 bytes, the reports in UTF-16 code units, so
// they are converted on the text the report was made from: the fixed text
// after --fix-dry-run, else the text linted (the context's `sources`, which
// always holds standard input's). Only a report taken from --cache has no
// text with it: that file is read (unchanged, or it would not have been
// cached), through the guarded reader; when it cannot be, its columns stay
// in code units, which differ only on lines with characters outside ASCII.

import { lineAtOffset, lineStarts } from '../../base/text.js';
import { MESSAGE_FILE_MAX_BYTES, readRegularFile } from '../../base/read-file.js';
import { relativePosix } from './paths.js';
import type { FileReport, Formatter } from './types.js';

interface Position {
  line: number;
  column: number;
}

export const format: Formatter = (reports, { cwd, rules, homepage, sources }) => {
  const docs = new Map(rules.map((meta) => [meta.id, meta.docs]));
  const diagnostics: Record<string, unknown>[] = [];
  for (const report of reports) {
    const path = relativePosix(report.filePath, cwd) ?? report.filePath;
    const source = sourceOf(report, sources);
    const at = (line: number, column: number): Position => ({ line, column: source ? source.utf8Column(line - 1, column - 1) : column });
    for (const m of report.messages) {
      const url = docs.get(m.ruleId);
      const diagnostic: Record<string, unknown> = {
        message: m.message,
        location: { path, range: { start: at(m.line, m.column), end: at(m.endLine, m.endColumn) } },
        severity: m.severity === 2 ? 'ERROR' : 'WARNING',
        code: { value: m.ruleId, ...(url && /^https?:/.test(url) ? { url } : {}) },
      };
      if (m.fix && source) {
        const { range, text } = m.fix;
        diagnostic.suggestions = [{ range: { start: source.position(range[0]), end: source.position(range[1]) }, text }];
      }
      diagnostics.push(diagnostic);
    }
  }
  return `${JSON.stringify({ source: { name: 'msglint', ...(homepage !== undefined ? { url: homepage } : {}) }, diagnostics }, null, 2)}\n`;
};

interface Source {
  /** A 0-based line and UTF-16 column as a 1-based UTF-8 byte column. */
  utf8Column(line: number, column: number): number;
  /** An offset as an rdjson position: 1-based line and UTF-8 column. */
  position(offset: number): Position;
}

/** The report's text (the fixed text after --fix-dry-run), or undefined when it cannot be read. */
function sourceOf(report: FileReport, sources: ReadonlyMap<string, string> | undefined): Source | undefined {
  let text = report.output ?? sources?.get(report.filePath);
  if (text === undefined) {
    try {
      text = readRegularFile(report.filePath, MESSAGE_FILE_MAX_BYTES).toString('utf8');
    } catch {
      return undefined;
    }
  }
  const starts = lineStarts(text);
  const utf8Column = (line: number, column: number): number => {
    const start = starts[Math.min(line, starts.length - 1)]!;
    return Buffer.byteLength(text.slice(start, start + column), 'utf8') + 1;
  };
  return {
    utf8Column,
    position(offset) {
      const line = lineAtOffset(starts, offset);
      return { line: line + 1, column: utf8Column(line, offset - starts[line]!) };
    },
  };
}
