// Export notes on what a target does not send of the view as the file has
// it: several results of one call (no API takes two for one call: they go
// as one, joined by a blank line), the `name` of a message or a result
// (only --to openai has a field for each), and a result marked
// `output=json` whose text is not JSON (sent as text).

import type { ExportFormat, InternalMessage, LLMView } from './model.js';
import { jsonValue } from './vercel.js';

/** The targets whose results carry a tool name: a result's own name equal to its call's is sent. */
const RESULT_NAMED: ReadonlySet<ExportFormat> = new Set(['openai', 'vercel', 'vercel-legacy', 'context-json']);

/** Notes as notes.ts gives them (its ExportNote). */
export function resultNotes(view: LLMView, to: ExportFormat): { cell?: string; message: string }[] {
  if (to === 'console') return [];
  const notes: { cell?: string; message: string }[] = [];
  const unnamed: InternalMessage[] = [];
  for (const m of view.messages) {
    if (m.role === 'tool' && m.source.cells.length > 1) {
      const cells = m.source.cells;
      notes.push({
        cell: cells[0],
        message: `the ${cells.length} results of the call ${m.toolCallId} (${cells.join(', ')}) are sent as one, joined by a blank line: no API takes two results for one call`,
      });
    }
    if (m.role === 'tool' && m.source.output === 'json' && to === 'vercel' && jsonValue(m.content ?? '') === undefined) {
      notes.push({ cell: m.source.cells[0], message: `the result ${m.source.cells[0]} is marked output=json but its text is not JSON: it is sent as text` });
    }
    const name = m.source.name;
    if (name === undefined || to === 'openai') continue;
    // A result's name is sent where results carry the tool's name: as its call's, or (vercel) as its own.
    if (m.role === 'tool' && RESULT_NAMED.has(to) && (to === 'vercel' || name === m.name)) continue;
    unnamed.push(m);
  }
  if (unnamed.length) {
    const cells = unnamed.map((m) => m.source.cells[0]);
    notes.push({
      cell: cells[0],
      message: `the \`name\` of ${unnamed.length === 1 ? 'the cell' : `${unnamed.length} cells`} ${cells.join(', ')} is not sent: --to ${to} has no field for it (--to openai sends it)`,
    });
  }
  return notes;
}
