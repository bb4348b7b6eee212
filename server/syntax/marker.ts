// Cell marker lines (spec section 3):
//   MARKER = HASHES " " PERCENTS [ " " [ TITLE ] [ "[^" ID "]" ] ]

import type { Span } from './scan.js';

export type CellKind = 'message' | 'output';

export interface MarkerProblem {
  span: Span;
  message: string;
  /** Replacement of `span` when the intent is clear. */
  fix?: string;
}

export interface IdNode {
  /** The whole `[^ID]` reference. */
  refSpan: Span;
  /** The id text inside the brackets. */
  span: Span;
  id: string;
  segments: { span: Span; text: string }[];
}

export interface MarkerNode {
  /** The marker line's content (without its line break). */
  span: Span;
  indent: Span;
  hashes: Span;
  percents: Span;
  kind: CellKind;
  title?: Span;
  titleText: string;
  idRef?: IdNode;
  /** True when the id reference is not the last thing on the line. */
  idNotLast: boolean;
  problems: MarkerProblem[];
}

const ID_SEGMENT = /^[A-Za-z0-9_-]+$/;

export function parseIdSegments(id: string, offset: number): IdNode['segments'] {
  const segments: IdNode['segments'] = [];
  let start = 0;
  for (let i = 0; i <= id.length; i++) {
    if (i === id.length || id[i] === '.') {
      segments.push({ span: { start: offset + start, end: offset + i }, text: id.slice(start, i) });
      start = i + 1;
    }
  }
  return segments;
}

export function isValidSegment(s: string): boolean {
  return ID_SEGMENT.test(s);
}

/** Parses the marker line found at [start, end) of text (offsets relative to the same base). */
export function parseMarker(text: string, start: number, end: number): MarkerNode {
  const problems: MarkerProblem[] = [];
  let i = start;
  while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
  const indent = { start, end: i };
  const hashStart = i;
  while (i < end && text[i] === '#') i++;
  const hashes = { start: hashStart, end: i };
  const gapStart = i;
  while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
  const gap = { start: gapStart, end: i };
  const pctStart = i;
  while (i < end && text[i] === '%') i++;
  const percents = { start: pctStart, end: i };
  const nPct = percents.end - percents.start;
  const nHash = hashes.end - hashes.start;
  const kind: CellKind = nPct >= 3 ? 'output' : 'message';

  if (indent.end > indent.start) {
    problems.push({ span: indent, message: 'A cell marker must start at the beginning of the line.', fix: '' });
  }
  if (nHash > 5) {
    problems.push({
      span: hashes,
      message: `A cell marker has 1 to 5 '#', not ${nHash}.`,
      fix: '#####',
    });
  }
  const gapText = text.slice(gap.start, gap.end);
  if (gapText === '') {
    problems.push({ span: { start: hashes.end, end: percents.start }, message: "A cell marker needs one space between '#' and '%'.", fix: ' ' });
  } else if (gapText !== ' ') {
    problems.push({ span: gap, message: "A cell marker has exactly one space between '#' and '%'.", fix: ' ' });
  }
  if (nPct > 3) {
    problems.push({
      span: percents,
      message: `A cell marker has '%%' (message cell) or '%%%' (output cell), not ${nPct} '%'.`,
    });
  }

  let titleText = '';
  let title: Span | undefined;
  let idRef: IdNode | undefined;
  let idNotLast = false;

  // Trailing blanks are not part of the title.
  let restEnd = end;
  while (restEnd > percents.end && (text[restEnd - 1] === ' ' || text[restEnd - 1] === '\t')) restEnd--;

  if (percents.end < restEnd) {
    let restStart = percents.end;
    const c = text[restStart];
    if (c !== ' ' && c !== '\t') {
      problems.push({
        span: { start: percents.end, end: Math.min(restEnd, percents.end + 1) },
        message: 'Text is glued to the percent signs of the cell marker; put a space after them.',
        fix: ' ' + (text[percents.end] ?? ''),
      });
    } else {
      restStart++;
    }
    while (restStart < restEnd && (text[restStart] === ' ' || text[restStart] === '\t')) restStart++;
    const rest = text.slice(restStart, restEnd);
    const m = /\[\^([^\]]*)\]$/.exec(rest);
    let titleEnd = restEnd;
    if (m) {
      const refStart = restStart + m.index;
      idRef = makeIdNode(m[1]!, refStart, restEnd);
      titleEnd = refStart;
    } else {
      // An id reference that is not last on the line still names the cell.
      const inner = /\[\^([^\]]*)\]/.exec(rest);
      if (inner) {
        const refStart = restStart + inner.index;
        idRef = makeIdNode(inner[1]!, refStart, refStart + inner[0].length);
        idNotLast = true;
      }
    }
    let tEnd = titleEnd;
    while (tEnd > restStart && (text[tEnd - 1] === ' ' || text[tEnd - 1] === '\t')) tEnd--;
    if (tEnd > restStart) {
      title = { start: restStart, end: tEnd };
      titleText = text.slice(restStart, tEnd);
    }
  }

  return { span: { start, end }, indent, hashes, percents, kind, title, titleText, idRef, idNotLast, problems };
}

function makeIdNode(id: string, refStart: number, refEnd: number): IdNode {
  const span = { start: refStart + 2, end: refEnd - 1 };
  return { refSpan: { start: refStart, end: refEnd }, span, id, segments: parseIdSegments(id, span.start) };
}
