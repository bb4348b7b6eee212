// What a cell's id says (spec section 4), as facts: whether it is
// well-formed, and whether its shape fits the kind of cell. cell-id-syntax
// puts them in words; the version keeps the verdict on each cell
// (MessageDocument.idFits, kindKnown), so that other rules can leave
// alone what a misfit id makes unknown.

import type { CellKind } from './segment.js';

/** Segments of `A-Z a-z 0-9 _ -`, none empty. */
export const WELL_FORMED_ID = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/**
 * How an id misfits a kind of cell: more than three segments (no kind has
 * so many), the wrong number of segments for the kind, or a last segment
 * that is not the number N (1, 2, …) a tool result or code output ends with.
 */
export type IdMisfit = 'too-many' | 'count' | 'number';

/** Whether id[from..] is a whole number from 1, without leading zeros. */
function positiveFrom(id: string, from: number): boolean {
  if (from >= id.length) return false;
  const first = id.charCodeAt(from);
  if (first < 49 || first > 57) return false;
  for (let i = from + 1; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Why an id's shape fits no cell of this kind, or undefined when it fits
 * (output cells of unknown type take any shape). Segments are counted by
 * their dots, so a malformed id (an empty segment, a space) has a shape too.
 */
export function idMisfit(cellKind: CellKind, id: string): IdMisfit | undefined {
  let n = 1;
  for (let i = id.indexOf('.'); i !== -1 && n <= 3; i = id.indexOf('.', i + 1)) n++;
  if (n > 3) return 'too-many';
  const last = id.lastIndexOf('.') + 1;
  switch (cellKind) {
    case 'message':
    case 'agent-reply':
      return n === 1 ? undefined : 'count';
    case 'tool-call':
      return n === 2 ? undefined : 'count';
    case 'tool-result':
      return n !== 3 ? 'count' : positiveFrom(id, last) ? undefined : 'number';
    case 'code-output':
      return n !== 2 ? 'count' : positiveFrom(id, last) ? undefined : 'number';
    default:
      return undefined;
  }
}

/** An id that names a cell of this kind reliably: present, well-formed and of the kind's shape. */
export function idFits(cellKind: CellKind, id: string | undefined): boolean {
  return id !== undefined && id !== '' && WELL_FORMED_ID.test(id) && idMisfit(cellKind, id) === undefined;
}

/**
 * Whether the kind of an output cell is known rather than guessed from what
 * is missing or wrong. An agent reply is one by its type, and so is a code
 * output whose type is a language; a tool call or result is one by its
 * `[tool]` type and an id of its shape, and a code output of another type by
 * its `CODE.N` id. Without a type (no metadata line, or one whose type cannot
 * be read) the kind is a guess from the id's shape; with a type that names
 * nothing (`unknown-output`) there is none. (The caller also counts as a
 * guess the kind of a cell typed by the metadata line of another cell with
 * the same id.)
 */
export function outputKindKnown(cellKind: CellKind, type: string | undefined, fits: boolean, doc: { isLanguage(type: string): boolean }): boolean {
  switch (cellKind) {
    case 'agent-reply':
      return true;
    case 'code-output':
      return type !== undefined && (fits || doc.isLanguage(type));
    case 'tool-call':
    case 'tool-result':
      return type === 'tool' && fits;
    default:
      return false;
  }
}
