// The headings of an ordinary `.md` file decide its message section (spec
// section 1). They are CommonMark's, so remark finds them (heading-blocks.ts):
// the line scanner knows no setext heading, HTML block, block quote or list
// item. Where remark and the format's line rules meet, the format wins (spec
// section 2): remark reads the text as the scanner sees it. docs/architecture.md,
// "Markdown where Markdown is prose", says what remark is given and when it
// is loaded; past remark's budget (heading-budget.ts) the headings are read
// line by line (heading-lines.ts).
//
// remark reads the text in pieces that start where no block is open (a
// line that starts with a letter after a blank line, at which remark's
// reading says so), and a version keeps where those are: an edit is read
// again from the last such place before it to the first after it at which
// the new reading is back in step with the old one.

import type { Line } from './lines.js';
import { readBlocks, type BlockHeading } from './heading-blocks.js';
import { budgetEnd } from './heading-budget.js';
import { lineHeadings } from './heading-lines.js';
import { plainHeadings } from './heading-plain.js';
import { blockLineStart, isMarkerCandidate } from './scan-lines.js';
import { scan, type ScanResult } from './scan.js';
import { candidatesIn, nextCandidate, quietRegion } from './heading-resets.js';

export interface Heading {
  line: Line;
  index: number;
  level: number;
  text: string;
}

/** How a version's headings were read: what the next version's reading takes over. */
export interface HeadingReading {
  readonly from: number;
  /** The headings, cell markers left out, in order. */
  readonly headings: readonly Heading[];
  /** Where remark's reading may start afresh (absolute offsets, ascending): no block is open there. */
  readonly resets: readonly number[];
  /** The blanked ranges of remark's input (start, end, start, end, …). */
  readonly blanks: readonly number[];
  /** Where the line-based reading takes over, and the line past the budget that makes it (-1, -1: nowhere). */
  readonly linesFrom: number;
  readonly overAt: number;
}

/** The previous version's reading and the edit that makes this version of it. */
export interface PreviousReading {
  reading: HeadingReading;
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** remark reads at least this much at a time. */
const CHUNK = 8192;

/** The ranges of [from, to) that remark reads as blanks: openers the scanner finds unclosed. */
function blanksOf(text: string, from: number, found: ScanResult): number[] {
  const blanks: [number, number][] = [];
  for (const f of found.fences) if (!f.close) blanks.push([f.open.start, f.open.contentEnd]);
  // Only a `<!--` at a line's start (after at most three spaces) opens an HTML block.
  for (const c of found.comments) if (!c.closed && blockLineStart(text, from, c.start) !== -1) blanks.push([c.start, c.start + 4]);
  blanks.sort((a, b) => a[0] - b[0]);
  return blanks.flat();
}

function scanBlocks(text: string, from: number, to: number): ScanResult {
  return scan(text, from, to, { markers: true, blocks: true, leadingLine: false, stopAtMarker: undefined });
}

function inputOf(text: string, from: number, to: number, blanks: readonly number[]): string {
  let out = text.slice(from, to);
  if (blanks.length) {
    const parts: string[] = [];
    let at = from;
    for (let i = 0; i < blanks.length; i += 2) {
      parts.push(text.slice(at, blanks[i]), ' '.repeat(blanks[i + 1]! - blanks[i]!));
      at = blanks[i + 1]!;
    }
    parts.push(text.slice(at, to));
    out = parts.join('');
  }
  return out.includes('\r') ? out.replace(/\r(?!\n)/g, ' ') : out;
}

/** What remark reads for [from, to): unclosed openers blanked, lone CRs as spaces (same length: every offset kept). */
export function remarkInput(text: string, from: number, to: number, found = scanBlocks(text, from, to)): string {
  return inputOf(text, from, to, blanksOf(text, from, found));
}

/** One reading of [from, to): the text, remark's input for it and what the scan found. */
interface Read {
  text: string;
  from: number;
  to: number;
  input: string;
  found: ScanResult;
  chunk: number;
  /** The headings found (offsets in `input`), the resets (absolute) and where the line-based reading took over. */
  headings: BlockHeading[];
  resets: number[];
  linesFrom: number;
  overAt: number;
}

/**
 * The document's headings in [from, to), in order, cell markers left out
 * (a `# %%` line is an ATX heading to CommonMark). `line` runs from the
 * heading's first character to the end of its last line (a setext heading's
 * underline); `text` is its source text without the `#`s or the underline.
 */
export function documentHeadings(text: string, from: number, to: number): Heading[] {
  return [...readHeadings(text, from, to).headings];
}

export interface ReadOptions {
  /** The scan of [from, to) with blocks, when the caller has one. */
  found?: ScanResult;
  /** The previous version's reading: only what the edit may change is read again, the rest is taken over. */
  previous?: PreviousReading;
  /** How much remark reads at least at a time (tests make it small to read in many pieces). */
  chunk?: number;
  /** Read with remark even a text whose headings the line rules find alike (heading-plain.ts): for tests. */
  remark?: boolean;
}

/** The headings of [from, to), and how they were read. */
export function readHeadings(text: string, from: number, to: number, options: ReadOptions = {}): HeadingReading {
  const found = options.found ?? scanBlocks(text, from, to);
  const blanks = blanksOf(text, from, found);
  const chunk = options.chunk ?? CHUNK;
  const read: Read = { text, from, to, input: inputOf(text, from, to, blanks), found, chunk, headings: [], resets: [], linesFrom: -1, overAt: -1 };
  const previous = options.previous;
  const result = previous && sameOutside(previous, from, blanks) ? readAgain(read, previous) : readWhole(read, options.remark === true);
  // Where the line-based reading takes over, remark's reading does not start again.
  const resets = result.linesFrom === -1 ? result.resets : result.resets.filter((r) => r < result.linesFrom);
  return { from, headings: result.headings, resets, blanks, linesFrom: result.linesFrom, overAt: result.overAt };
}

/** A reading but for what every reading has (`from`, `blanks`). */
type Found = Omit<HeadingReading, 'from' | 'blanks'>;

function readWhole(read: Read, remark: boolean): Found {
  // Past remark's budget its reading hands over to the line-based one: the same reading as a version read again makes.
  const plain = remark || budgetEnd(read.input, 0, read.input.length) ? undefined : plainHeadings(read.input, read.from, read.found);
  if (plain) {
    const resets = plain.resets.map((r) => r + read.from);
    return { headings: headingsOf(read, plain.headings, 0), resets, linesFrom: -1, overAt: -1 };
  }
  readFrom(read, 0, undefined, read.chunk);
  return { headings: headingsOf(read, read.headings, 0), resets: read.resets, linesFrom: read.linesFrom, overAt: read.overAt };
}

/** Whether the previous reading started at the same place and its blanks outside the edit are the new ones. */
function sameOutside(p: PreviousReading, from: number, blanks: readonly number[]): boolean {
  if (p.reading.from !== from || p.start <= from) return false;
  const delta = p.newEnd - p.oldEnd;
  const kept = (list: readonly number[], end: number, shift: number): number[] => {
    const out: number[] = [];
    for (let i = 0; i < list.length; i += 2) {
      const s = list[i]!;
      const e = list[i + 1]!;
      if (e <= p.start) out.push(s, e);
      else if (s >= end) out.push(s + shift, e + shift);
    }
    return out;
  };
  return kept(p.reading.blanks, p.oldEnd, delta).join() === kept(blanks, p.newEnd, 0).join();
}

/**
 * Remark reads [at, …) of `read.input` in pieces, from a place where no
 * block is open. A piece ends at the first candidate (nextCandidate) past
 * `size`, or at the first of `stops` past it; the line there is read too,
 * to see whether a block starts at it. If one does, the piece is kept up to
 * there; if not (fenced code or an HTML block runs on), the piece is kept
 * up to the last candidate in it where one does, and the next one reaches
 * twice as far past that (each character is read a bounded number of
 * times). Stops at the first of `stops` where a block starts (returned), or
 * at the end; past the budget, the line-based reading takes over.
 */
function readFrom(read: Read, at: number, stops: Stops | undefined, size: number): number {
  const { input } = read;
  const n = input.length;
  let s = at;
  while (s < n) {
    const e = stops ? stops.after(s + size) : nextCandidate(input, s + size);
    const end = e === -1 ? n : lineContentEnd(input, e);
    const over = budgetEnd(input, s, end);
    const upTo = over ? over.runStart : end;
    const blocks = upTo > s ? readBlocks(input.slice(s, upTo)) : { headings: [], topStarts: [] };
    const fresh = freshIn(input, s, upTo, blocks.topStarts);
    if (over || e === -1) {
      for (const h of blocks.headings) read.headings.push(shifted(h, s));
      for (const r of fresh) read.resets.push(read.from + r);
      if (over) lineRead(read, over.runStart, over.line);
      return -1;
    }
    const last = fresh.length ? fresh[fresh.length - 1]! : -1;
    // Something runs on over `e`: the next piece reaches twice as far past where this one starts again.
    if (last === -1) {
      size = 2 * (e - s);
      continue;
    }
    for (const h of blocks.headings) if (h.start + s < last) read.headings.push(shifted(h, s));
    for (const r of fresh) read.resets.push(read.from + r);
    if (stops?.has(last)) return last;
    size = last === e ? read.chunk : Math.max(read.chunk, 2 * (e - last));
    s = last;
  }
  return -1;
}

function lineRead(read: Read, at: number, over: number): void {
  read.linesFrom = read.from + at;
  read.overAt = read.from + over;
  // Loops, not push(...): a text may hold more headings than a call has arguments.
  for (const h of lineHeadings(read.input, at, read.from, read.found)) read.headings.push(h);
}

function shifted(h: BlockHeading, by: number): BlockHeading {
  return { start: h.start + by, end: h.end + by, level: h.level, textStart: h.textStart < 0 ? -1 : h.textStart + by, textEnd: h.textEnd < 0 ? -1 : h.textEnd + by };
}

/** The candidates in (s, end) at which remark's reading of [s, end) starts a block outside any other. */
function freshIn(input: string, s: number, end: number, topStarts: readonly number[]): number[] {
  const fresh: number[] = [];
  let k = 0;
  for (const c of candidatesIn(input, s + 1, end)) {
    while (k < topStarts.length && topStarts[k]! + s < c) k++;
    if (k < topStarts.length && topStarts[k]! + s === c) fresh.push(c);
  }
  return fresh;
}

function lineContentEnd(input: string, at: number): number {
  const nl = input.indexOf('\n', at);
  if (nl === -1) return input.length;
  return nl > at && input.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}

/** The old resets after an edit, as offsets in the new input, where a new reading may stop and take the old one over. */
class Stops {
  constructor(private readonly list: readonly number[]) {}
  /** The first stop at or after `at`, or -1. */
  after(at: number): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.list[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.list.length ? this.list[lo]! : -1;
  }
  has(at: number): boolean {
    return this.after(at) === at;
  }
}

/** The Heading of each heading read, cell markers left out; `index` counts from `first`. */
function headingsOf(read: Read, found: readonly BlockHeading[], first: number): Heading[] {
  const { text, from, to } = read;
  const headings: Heading[] = [];
  for (const h of found) {
    const lineStart = lineStartBefore(text, from, from + h.start);
    const contentEnd = from + h.end;
    if (isMarkerCandidate(text, lineStart, lineEndAfter(text, contentEnd, to, false))) continue;
    const body = h.textStart < 0 ? '' : text.slice(from + h.textStart, from + h.textEnd).trim();
    const line: Line = { start: lineStart, contentEnd, end: lineEndAfter(text, contentEnd, to, true) };
    headings.push({ line, index: first + headings.length, level: h.level, text: body });
  }
  return headings;
}

/**
 * The previous reading with the edit read again: from the last reset
 * before the edit to the first after it where the new reading is back in
 * step; not at all where no line there could be a heading or hide one.
 */
function readAgain(read: Read, p: PreviousReading): Found {
  const old = p.reading;
  const { from, input, text } = read;
  const delta = p.newEnd - p.oldEnd;
  // An edit after the line past the budget: the line-based reading of what follows is made again.
  if (old.linesFrom !== -1 && p.start > lineContentEnd(text, old.overAt)) {
    lineRead(read, old.linesFrom - from, old.overAt - from);
    const before = old.headings.filter((h) => h.line.start < old.linesFrom);
    return { headings: [...before, ...headingsOf(read, read.headings, before.length)], resets: old.resets, linesFrom: read.linesFrom, overAt: read.overAt };
  }
  // Resets before the edit hold (nothing before them changed); one after it holds where its blank line is after the edit.
  const resets = old.resets;
  let i = resets.length;
  while (i > 0 && resets[i - 1]! >= p.start) i--;
  const a = i > 0 ? resets[i - 1]! - from : 0;
  const after: number[] = [];
  for (let j = i; j < resets.length; j++) {
    const moved = resets[j]! + delta;
    if (after.length || (resets[j]! > p.oldEnd && lineStartBefore(text, from, moved - 1) > p.newEnd)) after.push(moved - from);
  }
  const b = after.length ? after[0]! : input.length;
  const keptBefore = old.headings.filter((h) => h.line.start < a + from);
  const keptResets = resets.slice(0, i);
  if (quietRegion(input, a, b) && !budgetEnd(input, a, b)) {
    // No line there that could be a heading or open fenced code or an HTML block: no heading, and no block open at its end.
    for (const c of candidatesIn(input, a + 1, b + 1)) read.resets.push(c + from);
    return spliced(read, old, keptBefore, keptResets, b, delta);
  }
  const stop = readFrom(read, a, new Stops(after), Math.max(b - a, 1));
  if (stop === -1) {
    const headings = [...keptBefore, ...headingsOf(read, read.headings, keptBefore.length)];
    return { headings, resets: [...keptResets, ...read.resets], linesFrom: read.linesFrom, overAt: read.overAt };
  }
  return spliced(read, old, keptBefore, keptResets, stop, delta);
}

/** The headings and resets before the edit, those read again, and the old ones from `at` (an offset in the new input) on, moved. */
function spliced(read: Read, old: HeadingReading, before: readonly Heading[], resetsBefore: readonly number[], at: number, delta: number): Found {
  const from = read.from;
  const oldAt = at + from - delta;
  const middle = headingsOf(read, read.headings, before.length);
  const headings = [...before, ...middle];
  for (const h of old.headings) {
    if (h.line.start < oldAt) continue;
    const line = { start: h.line.start + delta, contentEnd: h.line.contentEnd + delta, end: h.line.end + delta };
    headings.push({ line, index: headings.length, level: h.level, text: h.text });
  }
  const resets = [...resetsBefore, ...read.resets];
  for (const r of old.resets) if (r > oldAt) resets.push(r + delta);
  // The line-based reading after the budget's line, when that line is after what was read again.
  const kept = old.linesFrom >= oldAt;
  return { headings, resets, linesFrom: kept ? old.linesFrom + delta : -1, overAt: kept ? old.overAt + delta : -1 };
}

function lineStartBefore(text: string, from: number, at: number): number {
  const nl = text.lastIndexOf('\n', at - 1);
  return nl < from ? from : nl + 1;
}

/** The end of the line holding `at`: of its content, or after its line break. */
function lineEndAfter(text: string, at: number, to: number, withBreak: boolean): number {
  const nl = text.indexOf('\n', at);
  if (nl === -1 || nl >= to) return to;
  if (withBreak) return nl + 1;
  return nl > at && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}
