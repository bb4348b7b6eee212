// Shared helpers for the export tests: the examples, the formats and the
// golden files (test/fixtures/export/NAME.FORMAT.json|txt).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '../../server/syntax/document.js';
import { exportText, toLLMView, type ExportFormat, type ToLLMViewOptions } from '../../server/export/index.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const GOLDEN_DIR = path.join(ROOT, 'test/fixtures/export');

/** The examples of the repository, each exported in every format. */
export const EXAMPLES = ['coding-session.msg.md', 'temporary-agents.msg.md', 'release-notes.md'] as const;

/** test/fixtures/export/features.msg.md (a path: not one of the examples). */
export const FEATURES = 'test/fixtures/export/features.msg.md';

/** Extra golden cases: [golden name, example, options]. */
export const VARIANTS: [string, string, ToLLMViewOptions][] = [
  ['coding-session.code-as-tool', 'coding-session.msg.md', { codeAsTool: true }],
  ['coding-session.until-3', 'coding-session.msg.md', { until: '3' }],
  ['coding-session.agent-reviewer', 'coding-session.msg.md', { agent: 'reviewer' }],
  // A fixture with every construct the export maps (parallel calls, several
  // results, errors, summaries, a legacy call, an MCP server, a running call).
  ['features', FEATURES, {}],
  ['features.code-as-tool', FEATURES, { codeAsTool: true }],
];

export const FORMATS: readonly ExportFormat[] = ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json', 'console'];

/** An example by name, or a file by its path from the repository root. */
export function exampleText(name: string): string {
  return readFileSync(path.join(ROOT, name.includes('/') ? name : path.join('examples', name)), 'utf8');
}

export function goldenPath(name: string, format: ExportFormat): string {
  return path.join(GOLDEN_DIR, `${name}.${format}.${format === 'console' ? 'txt' : 'json'}`);
}

/** What `msglint export examples/EXAMPLE --to FORMAT` writes (console without colour). */
export function exportExample(example: string, format: ExportFormat, options: ToLLMViewOptions = {}): string {
  const doc = parse(exampleText(example), { fileName: path.basename(example) });
  return exportText(toLLMView(doc, options), format);
}

/** Every golden case: [golden name, example, options]. */
export function goldenCases(): [string, string, ToLLMViewOptions][] {
  return [...EXAMPLES.map((e): [string, string, ToLLMViewOptions] => [e.replace(/\.(msg\.)?md$/, ''), e, {}]), ...VARIANTS];
}
