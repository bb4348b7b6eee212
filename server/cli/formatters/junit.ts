// JUnit XML for CI systems that show test reports (GitLab, Jenkins, Azure):
// one <testsuite> per file, one failing <testcase> per problem, and one
// passing <testcase> for a file without problems so it still shows up.

import { relativePosix } from './paths.js';
import type { Formatter } from './types.js';

/**
 * Escapes text for XML attributes and content. Characters XML 1.0 cannot
 * carry at all (most control characters, lone surrogates, U+FFFE/U+FFFF) are
 * replaced by U+FFFD: messages may quote bytes from a broken file, and one
 * such character would make the whole report unreadable.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export const format: Formatter = (reports, { cwd }) => {
  let tests = 0;
  let failures = 0;
  let suites = '';
  for (const report of reports) {
    const file = escapeXml(relativePosix(report.filePath, cwd) ?? report.filePath);
    const count = Math.max(report.messages.length, 1);
    tests += count;
    failures += report.messages.length;
    suites += `  <testsuite name="${file}" tests="${count}" failures="${report.messages.length}" errors="0" skipped="0" time="0">\n`;
    if (report.messages.length === 0) {
      suites += `    <testcase name="${file}" classname="${file}" time="0"/>\n`;
    }
    for (const m of report.messages) {
      const type = m.severity === 2 ? 'error' : 'warning';
      const message = escapeXml(m.message);
      const rule = escapeXml(m.ruleId);
      suites +=
        `    <testcase name="${rule} (${m.line}:${m.column})" classname="${file}" time="0">\n` +
        `      <failure message="${message}" type="${type}">${file}:${m.line}:${m.column}: ${type}: ${message} (${rule})</failure>\n` +
        `    </testcase>\n`;
    }
    suites += '  </testsuite>\n';
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="msglint" tests="${tests}" failures="${failures}" errors="0" time="0">\n` +
    suites +
    '</testsuites>\n'
  );
};
