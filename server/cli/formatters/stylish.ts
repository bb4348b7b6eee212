// ESLint's "stylish" layout, so people and editors' problem matchers that
// know ESLint read it without configuration.

import path from 'node:path';
import { visibleLine } from '../../base/terminal.js';
import { leavesBase } from '../../config/paths.js';
import { palette } from '../color.js';
import type { Formatter } from './types.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Terminal width of a string: escapes take no columns. */
const visibleLength = (text: string) => text.replace(/\u001b\[\d+m/g, '').length;

export const format: Formatter = (reports, { cwd, color }) => {
  const c = palette(color);
  let errors = 0;
  let warnings = 0;
  let fixableErrors = 0;
  let fixableWarnings = 0;
  let out = '';

  for (const report of reports) {
    if (report.messages.length === 0) continue;
    errors += report.errorCount;
    warnings += report.warningCount;
    fixableErrors += report.fixableErrorCount;
    fixableWarnings += report.fixableWarningCount;

    const rows = report.messages.map((m) => ({
      line: String(m.line),
      column: String(m.column),
      type: m.severity === 2 ? 'error' : 'warning',
      // One message per row: a line break would break the table and
      // line-based problem matchers.
      // Messages quote the file: its control characters must not reach the terminal.
      text: visibleLine(m.message.replace(/\s*\r?\n\s*/g, ' ').replace(/([^ ])\.$/, '$1')),
      ruleId: visibleLine(m.ruleId),
    }));
    // A loop, not Math.max(...rows): spreading 130,000 rows overflows the stack.
    const width = (key: 'line' | 'column' | 'type' | 'text') => {
      let max = 0;
      for (const r of rows) max = Math.max(max, visibleLength(r[key]));
      return max;
    };
    const [lineWidth, columnWidth, typeWidth, textWidth] = [width('line'), width('column'), width('type'), width('text')];

    out += `\n${c.underline(heading(report.filePath, cwd))}\n`;
    for (const r of rows) {
      const position = c.dim(`${r.line.padStart(lineWidth)}:${r.column.padEnd(columnWidth)}`);
      const type = r.type === 'error' ? c.red(r.type) : c.yellow(r.type);
      const padding = ' '.repeat(typeWidth - r.type.length);
      out += `  ${position}  ${type}${padding}  ${r.text.padEnd(textWidth)}  ${c.dim(r.ruleId)}\n`;
    }
  }

  const total = errors + warnings;
  if (total === 0) return '';
  const emphasis = (text: string) => c.bold(errors > 0 ? c.red(text) : c.yellow(text));
  out += `\n${emphasis(`\u2716 ${plural(total, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`)}\n`;
  if (fixableErrors + fixableWarnings > 0) {
    out += `${emphasis(
      `  ${plural(fixableErrors, 'error')} and ${plural(fixableWarnings, 'warning')} potentially fixable with the --fix option.`,
    )}\n`;
  }
  return `${out}\n`;
};

/**
 * The file's line: its name on one line, control characters shown. A name
 * that starts with `::` (after blanks) would make the line a workflow command
 * in a GitHub Actions log, so it is written `./::…`, the same file.
 */
function heading(filePath: string, cwd: string): string {
  const shown = visibleLine(displayPath(filePath, cwd));
  return /^\s*::/.test(shown) ? `./${shown}` : shown;
}

/** Relative to the working directory when inside it: shorter, and still clickable in terminals. */
function displayPath(filePath: string, cwd: string): string {
  if (!path.isAbsolute(filePath)) return filePath;
  const relative = path.relative(cwd, filePath);
  return relative && !leavesBase(relative) ? relative : filePath;
}
