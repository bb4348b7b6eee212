// GitHub Actions workflow commands: each problem becomes an annotation on the
// pull request. Paths are relative to the working directory, which in a
// workflow is the repository root.

import { visibleControls } from '../../base/terminal.js';
import { relativePosix } from './paths.js';
import type { Formatter } from './types.js';

/**
 * Escaping as GitHub's own toolkit does (@actions/core escapeData): the
 * runner turns %0A back into a line break inside the annotation, so a line
 * break in a name or message never ends the command. Control characters the
 * runner would pass on raw (ESC, BEL: a terminal escape in the log) and the
 * bidi overrides are shown first (visibleControls), as on a terminal.
 */
export function escapeData(text: string): string {
  return visibleControls(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Property values additionally escape the separators (@actions/core escapeProperty). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export const format: Formatter = (reports, { cwd }) => {
  let out = '';
  for (const report of reports) {
    const file = relativePosix(report.filePath, cwd) ?? report.filePath;
    for (const m of report.messages) {
      const command = m.severity === 2 ? 'error' : 'warning';
      const properties = [
        `file=${escapeProperty(file)}`,
        `line=${m.line}`,
        `col=${m.column}`,
        `endLine=${m.endLine}`,
        `endColumn=${m.endColumn}`,
        `title=${escapeProperty(m.ruleId)}`,
      ].join(',');
      out += `::${command} ${properties}::${escapeData(m.message)}\n`;
    }
  }
  return out;
};
