// Cell marker lines (spec section 3):
//   MARKER = HASHES " " PERCENTS [ " " [ TITLE ] [ "[^" ID "]" ] ]

import { kept } from '../../base/lists.js';
import type { Span } from '../../base/text.js';

export type MarkerKind = 'message' | 'output';

export type MarkerProblemKind = 'indented' | 'too-many-hashes' | 'no-space' | 'extra-space' | 'too-many-percents' | 'glued';

/** What is wrong with a marker line, and where; the rule cell-marker words it and makes its fix. */
export interface MarkerProblem {
  kind: MarkerProblemKind;
  span: Span;
  /** Where the fix goes when not at `span`: the missing space (`no-space`, `glued`). */
  fixSpan?: Span;
}

export interface IdNode {
  /** The whole `[^ID]` reference. */
  readonly refSpan: Span;
  /** The id text inside the brackets. */
  readonly span: Span;
  id: string;
  /** The dot-separated parts, with their spans. */
  readonly segments: { span: Span; text: string }[];
}

/**
 * An id reference `[^ID]` whose spans and segments are made when asked,
 * and not kept: ids are mostly read whole (a metadata line's always, and
 * the tool graph's from the id string), so kept segments and spans (four
 * to six objects per id) would live as long as the document for nothing.
 */
export class IdRef implements IdNode {
  constructor(
    /** Offsets of `[^` and just after `]`. */
    private readonly refStart: number,
    private readonly refEnd: number,
    readonly id: string,
  ) {}

  get refSpan(): Span {
    return { start: this.refStart, end: this.refEnd };
  }

  get span(): Span {
    return { start: this.refStart + 2, end: this.refEnd - 1 };
  }

  get segments(): IdNode['segments'] {
    return parseIdSegments(this.id, this.refStart + 2);
  }
}

export interface MarkerNode {
  /** The marker line's content (without its line break). */
  readonly span: Span;
  readonly indent: Span;
  readonly hashes: Span;
  readonly percents: Span;
  kind: MarkerKind;
  readonly title?: Span;
  titleText: string;
  /** The id reference `[^ID]`, made when asked. */
  readonly idRef?: IdNode;
  /** Its ID, without making the reference. */
  readonly id: string | undefined;
  /** True when the id reference is not the last thing on the line. */
  idNotLast: boolean;
  readonly problems: readonly MarkerProblem[];
}

/** Offsets of a marker line's parts, and what it says. */
interface MarkerFields {
  start: number;
  end: number;
  hashStart: number;
  hashEnd: number;
  percentStart: number;
  percentEnd: number;
  /** -1 without a title. */
  titleStart: number;
  titleEnd: number;
  kind: MarkerKind;
  titleText: string;
  /** -1 without an id reference. */
  refStart: number;
  refEnd: number;
  id: string | undefined;
  idNotLast: boolean;
  problems: readonly MarkerProblem[];
}

/**
 * A marker line whose spans are made when asked: rules read its kind,
 * title and id, and only reports and the editor ask where its parts are
 * (five span objects per cell would be kept for nothing in a whole-file lint).
 * Not kept once made either: a field per span costs every marker 40 bytes,
 * for the few whose spans are asked.
 */
class Marker implements MarkerNode {
  private readonly start: number;
  private readonly end: number;
  private readonly hashStart: number;
  private readonly hashEnd: number;
  private readonly percentStart: number;
  private readonly percentEnd: number;
  private readonly titleStart: number;
  private readonly titleEnd: number;
  readonly kind: MarkerKind;
  readonly titleText: string;
  private readonly refStart: number;
  private readonly refEnd: number;
  readonly id: string | undefined;
  readonly idNotLast: boolean;
  readonly problems: readonly MarkerProblem[];

  // Every field assigned here, in one order: all markers share one hidden class.
  constructor(fields: MarkerFields) {
    this.start = fields.start;
    this.end = fields.end;
    this.hashStart = fields.hashStart;
    this.hashEnd = fields.hashEnd;
    this.percentStart = fields.percentStart;
    this.percentEnd = fields.percentEnd;
    this.titleStart = fields.titleStart;
    this.titleEnd = fields.titleEnd;
    this.kind = fields.kind;
    this.titleText = fields.titleText;
    this.refStart = fields.refStart;
    this.refEnd = fields.refEnd;
    this.id = fields.id;
    this.idNotLast = fields.idNotLast;
    this.problems = fields.problems;
  }

  get span(): Span {
    return { start: this.start, end: this.end };
  }

  /** Made when asked, not kept: an IdRef per marker cost every cell 48 bytes. */
  get idRef(): IdNode | undefined {
    return this.id === undefined ? undefined : new IdRef(this.refStart, this.refEnd, this.id);
  }

  get indent(): Span {
    return { start: this.start, end: this.hashStart };
  }

  get hashes(): Span {
    return { start: this.hashStart, end: this.hashEnd };
  }

  get percents(): Span {
    return { start: this.percentStart, end: this.percentEnd };
  }

  get title(): Span | undefined {
    if (this.titleStart < 0) return undefined;
    return { start: this.titleStart, end: this.titleEnd };
  }
}

const ID_SEGMENT = /^[A-Za-z0-9_-]+$/;

export function parseIdSegments(id: string, offset: number): IdNode['segments'] {
  // Most ids have one to three segments: an array literal of that size, not
  // one grown by push (which reserves room for 16 in each of ten thousand ids).
  const d1 = id.indexOf('.');
  if (d1 === -1) return [segment(id, offset, 0, id.length)];
  const d2 = id.indexOf('.', d1 + 1);
  if (d2 === -1) return [segment(id, offset, 0, d1), segment(id, offset, d1 + 1, id.length)];
  const d3 = id.indexOf('.', d2 + 1);
  if (d3 === -1) return [segment(id, offset, 0, d1), segment(id, offset, d1 + 1, d2), segment(id, offset, d2 + 1, id.length)];
  const segments: IdNode['segments'] = [];
  let start = 0;
  for (let i = 0; i <= id.length; i++) {
    if (i === id.length || id.charCodeAt(i) === 46 /* . */) {
      segments.push(segment(id, offset, start, i));
      start = i + 1;
    }
  }
  return segments;
}

function segment(id: string, offset: number, start: number, end: number): { span: Span; text: string } {
  return { span: { start: offset + start, end: offset + end }, text: id.slice(start, end) };
}

export function isValidSegment(s: string): boolean {
  return ID_SEGMENT.test(s);
}

/** Parses the marker line found at [start, end) of text (offsets relative to the same base). */
export function parseMarker(text: string, start: number, end: number): MarkerNode {
  const problems: MarkerProblem[] = [];
  let i = start;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  const indent = { start, end: i };
  const hashStart = i;
  while (i < end && text.charCodeAt(i) === 35) i++;
  const hashes = { start: hashStart, end: i };
  const gapStart = i;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  const gap = { start: gapStart, end: i };
  const pctStart = i;
  while (i < end && text.charCodeAt(i) === 37) i++;
  const percents = { start: pctStart, end: i };
  const nPct = percents.end - percents.start;
  const nHash = hashes.end - hashes.start;
  const kind: MarkerKind = nPct >= 3 ? 'output' : 'message';

  if (indent.end > indent.start) {
    problems.push({ kind: 'indented', span: indent });
  }
  if (nHash > 5) {
    problems.push({ kind: 'too-many-hashes', span: hashes });
  }
  const gapLength = gap.end - gap.start;
  if (gapLength === 0) {
    // Shown on the last '#' and the first '%', where the space is missing.
    problems.push({
      kind: 'no-space',
      span: { start: Math.max(hashes.start, hashes.end - 1), end: percents.start + 1 },
      fixSpan: { start: hashes.end, end: percents.start },
    });
  } else if (gapLength !== 1 || text.charCodeAt(gap.start) !== 32) {
    problems.push({ kind: 'extra-space', span: gap });
  }
  if (nPct > 3) {
    problems.push({ kind: 'too-many-percents', span: percents });
  }

  let titleText = '';
  let title: Span | undefined;
  let idRef: { start: number; end: number; id: string } | undefined;
  let idNotLast = false;

  // Trailing blanks are not part of the title.
  let restEnd = end;
  while (restEnd > percents.end && (text.charCodeAt(restEnd - 1) === 32 || text.charCodeAt(restEnd - 1) === 9)) restEnd--;
  // A trailing HTML comment (a disable directive, say) is not part of the title.
  const trailing = text.endsWith('-->', restEnd) ? /\s*<!--(?:(?!-->)[\s\S])*-->$/.exec(text.slice(percents.end, restEnd)) : null;
  if (trailing) {
    restEnd = percents.end + trailing.index;
    while (restEnd > percents.end && (text.charCodeAt(restEnd - 1) === 32 || text.charCodeAt(restEnd - 1) === 9)) restEnd--;
  }

  if (percents.end < restEnd) {
    let restStart = percents.end;
    const c = text[restStart];
    if (c !== ' ' && c !== '\t') {
      // The glued word, up to the next blank (the fix only inserts the space).
      let wordEnd = percents.end;
      while (wordEnd < restEnd && text.charCodeAt(wordEnd) !== 32 && text.charCodeAt(wordEnd) !== 9 && !(wordEnd > percents.end && text.startsWith('[^', wordEnd))) wordEnd++;
      problems.push({
        kind: 'glued',
        span: { start: percents.end, end: wordEnd },
        fixSpan: { start: percents.end, end: percents.end },
      });
    } else {
      restStart++;
    }
    while (restStart < restEnd && (text.charCodeAt(restStart) === 32 || text.charCodeAt(restStart) === 9)) restStart++;
    // `[^ID]` at the end of the line (ID without `]`): the first `[^` after
    // the last `]` before the final one. Found with indexOf, not a regular
    // expression, so a line full of `[^` stays linear.
    let titleEnd = restEnd;
    const last = text.charCodeAt(restEnd - 1) === 93 ? text.indexOf('[^', Math.max(restStart, text.lastIndexOf(']', restEnd - 2) + 1)) : -1;
    if (last !== -1 && last >= restStart && last + 2 < restEnd) {
      idRef = { start: last, end: restEnd, id: text.slice(last + 2, restEnd - 1) };
      titleEnd = last;
    } else {
      // An id reference that is not last on the line still names the cell:
      // the first `[^` with a `]` after it.
      const open = text.indexOf('[^', restStart);
      const close = open !== -1 && open < restEnd ? text.indexOf(']', open + 2) : -1;
      if (close !== -1 && close < restEnd) {
        idRef = { start: open, end: close + 1, id: text.slice(open + 2, close) };
        idNotLast = true;
      }
    }
    let tEnd = titleEnd;
    while (tEnd > restStart && (text.charCodeAt(tEnd - 1) === 32 || text.charCodeAt(tEnd - 1) === 9)) tEnd--;
    if (tEnd > restStart) {
      title = { start: restStart, end: tEnd };
      titleText = text.slice(restStart, tEnd);
    }
  }

  return new Marker({
    start,
    end,
    hashStart: hashes.start,
    hashEnd: hashes.end,
    percentStart: percents.start,
    percentEnd: percents.end,
    titleStart: title ? title.start : -1,
    titleEnd: title ? title.end : -1,
    kind,
    titleText,
    refStart: idRef ? idRef.start : -1,
    refEnd: idRef ? idRef.end : -1,
    id: idRef?.id,
    idNotLast,
    problems: kept(problems),
  });
}
