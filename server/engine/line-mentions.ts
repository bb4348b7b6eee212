// Messages that name the line of another place ("already used by the cell
// on line 9") say `{{line}}`, and give that place as their first related
// location: the engine renders the line from the version it reports on, so
// a finding moved to a later version names the line where the place is now
// (rules/duplicate-id.ts and the others that name lines).

import type { LineIndex } from '../syntax/format/lines.js';
import type { Diagnostic } from './types.js';

const PLACEHOLDER = '{{line}}';

/** The template of a diagnostic whose message names a line: kept off its enumerable fields (JSON, equality). */
const TEMPLATE: unique symbol = Symbol('msglint.lineTemplate');

type WithTemplate = Diagnostic & { [TEMPLATE]?: string };

/** `message` with `{{line}}` replaced by the 1-based line of `at` (unchanged without a placeholder or a place). */
export function renderLines(message: string, at: number | undefined, lines: LineIndex): string {
  if (at === undefined || !message.includes(PLACEHOLDER)) return message;
  return message.replaceAll(PLACEHOLDER, String(lines.lineOf(at) + 1));
}

/** Keeps the template a diagnostic's message was rendered from, when it names a line. */
export function keepTemplate(d: Diagnostic, template: string): Diagnostic {
  if (template.includes(PLACEHOLDER)) Object.defineProperty(d, TEMPLATE, { value: template, enumerable: false });
  return d;
}

/** A diagnostic moved to another version: its message rendered again from its template, for its moved related location. */
export function rerender(moved: Diagnostic, from: Diagnostic): Diagnostic {
  const template = (from as WithTemplate)[TEMPLATE];
  if (template === undefined) return moved;
  const place = moved.related?.[0]?.range.start.line;
  moved.message = place === undefined ? template : template.replaceAll(PLACEHOLDER, String(place + 1));
  return keepTemplate(moved, template);
}
