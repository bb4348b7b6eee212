// GitLab Code Quality: the report artifact (`artifacts: reports: codequality`)
// that GitLab shows in merge requests. Its format is the subset of Code
// Climate's issue that GitLab reads (docs.gitlab.com, "Code Quality report
// format"): description, check_name, fingerprint, severity, location.

import { loadCrypto } from '../../base/lazy.js';
import { relativePosix } from './paths.js';
import type { Formatter } from './types.js';

export const format: Formatter = (reports, { cwd }) => {
  const issues: Record<string, unknown>[] = [];
  for (const report of reports) {
    const file = relativePosix(report.filePath, cwd) ?? report.filePath;
    // GitLab compares fingerprints across pipelines to tell new problems
    // from old ones, so they leave out line numbers, which any edit above
    // shifts; a repeat of the same problem in a file is told by its rank.
    const seen = new Map<string, number>();
    for (const m of report.messages) {
      const identity = `${file}\0${m.ruleId}\0${m.message}`;
      const rank = seen.get(identity) ?? 0;
      seen.set(identity, rank + 1);
      issues.push({
        type: 'issue',
        check_name: m.ruleId,
        description: m.message,
        severity: m.severity === 2 ? 'major' : 'minor',
        fingerprint: loadCrypto().createHash('md5').update(`${identity}\0${rank}`).digest('hex'),
        location: { path: file, lines: { begin: m.line, end: m.endLine } },
      });
    }
  }
  return `${JSON.stringify(issues, null, 2)}\n`;
};
