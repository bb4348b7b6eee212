// Messages that name the line of another place ("already used by the cell
// on line 9") say `{{line}}`, and give that place as their first related
// location: the engine renders the line (rules/duplicate-id.ts and the
// others that name lines).

import type { LineIndex } from '../syntax/format/lines.js';

const PLACEHOLDER = '{{line}}';

/** `message` with `{{line}}` replaced by the 1-based line of `at` (unchanged without a placeholder or a place). */
export function renderLines(message: string, at: number | undefined, lines: LineIndex): string {
  if (at === undefined || !message.includes(PLACEHOLDER)) return message;
  return message.replaceAll(PLACEHOLDER, String(lines.lineOf(at) + 1));
}
