// SARIF 2.1.0, as GitHub code scanning ingests it (upload-sarif).

import { pathToFileURL } from 'node:url';
import { relativePosix } from './paths.js';
import type { Formatter } from './types.js';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
// The repository, where the README and the rules' pages are (no registry page exists yet).
const FALLBACK_INFORMATION_URI = 'https://github.com/msglint/msglint';

export const format: Formatter = (reports, { cwd, rules, version, homepage }) => {
  const descriptors: Record<string, unknown>[] = [];
  const indexById = new Map<string, number>();
  const addRule = (id: string, descriptor: Record<string, unknown>) => {
    indexById.set(id, descriptors.length);
    descriptors.push(descriptor);
  };
  for (const meta of rules) {
    addRule(meta.id, {
      id: meta.id,
      shortDescription: { text: meta.description || meta.id },
      ...(isAbsoluteUri(meta.docs) ? { helpUri: meta.docs } : {}),
      defaultConfiguration: { level: meta.severity === 'error' ? 'error' : 'warning' },
      properties: { tags: [meta.group] },
    });
  }

  const results: Record<string, unknown>[] = [];
  for (const report of reports) {
    const relative = relativePosix(report.filePath, cwd);
    const artifactLocation =
      relative !== undefined
        ? { uri: relative.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' }
        : { uri: pathToFileURL(report.filePath).href };
    for (const m of report.messages) {
      // Ids the registry does not list (directive diagnostics) still need a descriptor for ruleIndex.
      if (!indexById.has(m.ruleId)) {
        addRule(m.ruleId, { id: m.ruleId, shortDescription: { text: m.ruleId } });
      }
      results.push({
        ruleId: m.ruleId,
        ruleIndex: indexById.get(m.ruleId),
        level: m.severity === 2 ? 'error' : 'warning',
        message: { text: m.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation,
              region: { startLine: m.line, startColumn: m.column, endLine: m.endLine, endColumn: m.endColumn },
            },
          },
        ],
      });
    }
  }

  const informationUri = isAbsoluteUri(homepage) ? homepage : FALLBACK_INFORMATION_URI;
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'msglint', version, informationUri, rules: descriptors } },
        // Columns count UTF-16 code units, as the engine's positions do.
        columnKind: 'utf16CodeUnits',
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd.endsWith('/') ? cwd : `${cwd}/`).href } },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};

function isAbsoluteUri(value: string | undefined): value is string {
  return typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
}
