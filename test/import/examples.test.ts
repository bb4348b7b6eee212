// The round trip from the other side: every message file of the
// repository that lints clean (examples/, test fixtures, the LLM view tests'
// files and the rule pages' examples), exported to every target T, imported
// and exported again: export(import(export(f, T)), T) equals export(f, T).
// The imported file lints with 0 errors and 0 warnings.

import { describe, expect, it } from 'vitest';
import { formatLLMView, toLLMView, type ExportFormat } from '../../server/export/index.js';
import { importConversation } from '../../server/import/index.js';
import { lint } from '../../server/linter.js';
import { corpus } from '../export/corpus.js';
import { seeded } from './shared.js';

const TARGETS: ExportFormat[] = ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json'];
const TIME = '2026-01-01T00:00:00Z';

const exported = (text: string, to: ExportFormat, fileName = 'f.msg.md'): unknown => formatLLMView(toLLMView(text, { fileName }), to, { time: TIME });

const clean = corpus().filter((f) => lint(f.text, { fileName: f.fileName }).diagnostics.length === 0);

describe('export, import, export gives the same export', () => {
  it('has files to try', () => {
    expect(clean.length).toBeGreaterThan(20);
  });
  for (const to of TARGETS) {
    describe(to, () => {
      for (const f of clean) {
        it(f.name, () => {
          const first = exported(f.text, to, f.fileName);
          const imported = importConversation(JSON.stringify(first), { from: to, random: seeded() });
          expect(lint(imported.text, { fileName: 'import.msg.md' }).diagnostics.map((d) => `${d.ruleId} ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
          expect(exported(imported.text, to)).toEqual(first);
        });
      }
    });
  }
});
