// Metadata lines (spec section 5):
//   META  = "[^" ID "]: [" TYPE "]" { " " ATTR }
//   ATTR  = KEY "=" VALUE

import { interned } from '../../base/intern.js';
import { kept, NONE } from '../../base/lists.js';
import { IdRef, type IdNode } from './marker.js';
import type { Span } from '../../base/text.js';

export interface AttributeNode {
  readonly span: Span;
  key: string;
  readonly keySpan: Span;
  /** The value as written, with its quotes. */
  readonly valueSpan: Span;
  /** The value with quotes removed and escapes resolved. */
  value: string;
  quoted: boolean;
}

/**
 * An attribute whose spans are made when asked: rules read keys and
 * values, and only a report or the editor asks where they are. Three span
 * objects per attribute would be kept for nothing in a whole-file lint, and
 * a field per span cost every attribute 24 bytes: made again when asked.
 */
class Attribute implements AttributeNode {
  constructor(
    readonly key: string,
    readonly value: string,
    readonly quoted: boolean,
    private readonly keyStart: number,
    private readonly valueStart: number,
    private readonly valueEnd: number,
  ) {}

  get span(): Span {
    return { start: this.keyStart, end: this.valueEnd };
  }

  get keySpan(): Span {
    return { start: this.keyStart, end: this.keyStart + this.key.length };
  }

  get valueSpan(): Span {
    return { start: this.valueStart, end: this.valueEnd };
  }
}

export type MetadataProblemKind =
  | 'no-type'
  | 'no-space-after-type'
  | 'optional-brackets'
  | 'not-key-value'
  | 'unclosed-quote'
  | 'single-quotes'
  | 'curly-quotes'
  | 'bad-value'
  | 'no-value'
  | 'no-space-between';

/** What does not parse on a metadata line, and where; the rule metadata-syntax words it and makes its fix. */
export interface MetadataProblem {
  kind: MetadataProblemKind;
  span: Span;
  /** The attribute whose value is concerned. */
  key?: string;
  /** The token found (`not-key-value`), or the text inside the brackets or quotes. */
  text?: string;
  /** Brackets or quotes: whether writing `text` without brackets, or in straight double quotes, over `span` is safe. */
  fixable?: boolean;
}

export interface MetadataNode {
  /** The line's content. */
  readonly span: Span;
  /** The `[^ID]` that starts the line, made when asked. */
  readonly id: IdNode;
  /** Its ID, without making the reference. */
  readonly idText: string;
  /** TYPE without brackets, when the line has a well-formed `[TYPE]`. */
  type?: string;
  readonly typeSpan?: Span;
  readonly attributes: readonly AttributeNode[];
  readonly problems: readonly MetadataProblem[];
}

/** What reading a line collects, before the node keeps it. */
interface Found {
  attributes: AttributeNode[];
  problems: MetadataProblem[];
}

/**
 * A metadata line with every field from the start (a literal that gains
 * `type` later changes shape twice and grows a property store per line), and
 * the span of its type made on first use.
 */
class MetadataLine implements MetadataNode {
  type: string | undefined = undefined;
  attributes: readonly AttributeNode[] = NONE;
  problems: readonly MetadataProblem[] = NONE;
  /** Offset of the type's first character, or -1 without a type. */
  typeStart = -1;
  typeEnd = -1;
  constructor(
    private readonly start: number,
    private readonly end: number,
    /** Just after the `]` of the id reference, which starts at `start`. */
    private readonly idEnd: number,
    readonly idText: string,
  ) {}

  /** Made when asked, as Attribute's spans: a kept span object cost every cell 40 bytes. */
  get span(): Span {
    return { start: this.start, end: this.end };
  }

  /** Made when asked, not kept, as the marker's (an IdRef per line cost every cell 48 bytes). */
  get id(): IdNode {
    return new IdRef(this.start, this.idEnd, this.idText);
  }

  get typeSpan(): Span | undefined {
    if (this.typeStart < 0) return undefined;
    return { start: this.typeStart, end: this.typeEnd };
  }
}

const TYPE_CHARS = /^[^\s[\]="'“”]+$/;
const BARE = /[^\s"'[\]“”„‟]+/y;
const CURLY_OPEN = new Set(['“', '”', '„', '‟']);
const CURLY_SINGLE = new Set(['‘', '’', '‚', '‛']);
const STRAIGHT_SINGLE = new Set(["'"]);

/** Whether the line at [start, end) is shaped like a footnote definition `[^...]:`. */
export function isFootnoteDefinition(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(start) !== 91 || text.charCodeAt(start + 1) !== 94) return false;
  const close = indexBefore(text, 93 /* ] */, start + 2, end);
  return close !== -1 && close + 1 < end && text.charCodeAt(close + 1) === 58;
}

/**
 * The quoted attribute values of a metadata line, as [start, end) offsets
 * one after the other (quotes included; an unclosed one runs to the end of
 * the line, as parseAttributes reads it), or undefined when the line at
 * [start, end) is no metadata line (`[^ID]: [TYPE]`). Attribute values are
 * text (spec section 5): the block scanner reads no comment and no `<tool>`
 * inside them, so a `summary="see <tool>"` is a summary, not a call.
 */
export function quotedValues(text: string, start: number, end: number): number[] | undefined {
  if (!isFootnoteDefinition(text, start, end)) return undefined;
  const stop = withoutTrailingComments(text, start, end);
  let i = skipBlank(text, indexBefore(text, 93 /* ] */, start + 2, end) + 2, stop);
  if (text.charCodeAt(i) !== 91) return undefined;
  i = indexBefore(text, 93 /* ] */, i + 1, stop);
  if (i === -1) return undefined;
  const spans: number[] = [];
  for (let q = indexBefore(text, 34 /* " */, i, stop); q !== -1; q = indexBefore(text, 34 /* " */, i, stop)) {
    i = q + 1;
    if (text.charCodeAt(q - 1) !== 61 /* = */) continue;
    // `\"` and `\\` are escapes; any other backslash is literal.
    while (i < stop && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 && (text.charCodeAt(i + 1) === 34 || text.charCodeAt(i + 1) === 92) ? 2 : 1;
    i = Math.min(i + 1, stop);
    spans.push(q, i);
  }
  return spans;
}

/**
 * The end of a metadata line without the HTML comments at its end (such as
 * `<!-- msglint-disable-line … -->`): they are invisible in Markdown and not
 * part of the metadata.
 */
function withoutTrailingComments(text: string, start: number, end: number): number {
  for (;;) {
    let e = end;
    while (e > start && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
    if (e - start < 7 || !text.startsWith('-->', e - 3)) return end;
    const open = text.lastIndexOf('<!--', e - 3);
    // A comment may not hold `-->`; `<!-->` and `<!--->` are not comments.
    if (open < start || open + 4 > e - 3 || text.slice(open + 4, e - 3).includes('-->')) return end;
    end = open;
  }
}

/** `cellId`: the cell's id, whose string the line takes when it names the cell (one string for both, not two). */
export function parseMetadata(text: string, start: number, lineEnd: number, cellId?: string): MetadataNode {
  const found: Found = { attributes: [], problems: [] };
  const node = readMetadata(text, start, lineEnd, found, cellId);
  // Nearly every line has no problem: they share the one empty list.
  node.problems = kept(found.problems);
  node.attributes = kept(found.attributes);
  return node;
}

function readMetadata(text: string, start: number, lineEnd: number, found: Found, cellId: string | undefined): MetadataLine {
  const end = withoutTrailingComments(text, start, lineEnd);
  const close = text.indexOf(']', start + 2);
  const names = cellId !== undefined && close - start - 2 === cellId.length && text.startsWith(cellId, start + 2);
  const node = new MetadataLine(start, lineEnd, close + 1, names ? cellId : text.slice(start + 2, close));
  let i = skipBlank(text, close + 2, end); // past "]:" and the blanks after it
  if (text.charCodeAt(i) !== 91) {
    found.problems.push({ kind: 'no-type', span: i < end ? { start: i, end } : { start, end } });
    return node;
  }
  const typeClose = indexBefore(text, 93 /* ] */, i + 1, end);
  const typeText = typeClose !== -1 && typeClose < end ? text.slice(i + 1, typeClose) : '';
  if (typeClose === -1 || typeClose >= end || !TYPE_CHARS.test(typeText)) {
    const stop = typeClose === -1 || typeClose >= end ? end : typeClose + 1;
    found.problems.push({ kind: 'no-type', span: { start: i, end: stop } });
    return node;
  }
  // Keys and types repeat line after line (`name`, `summary`, an agent's name): one string each (73 bytes a cell on 5,000 turns).
  node.type = interned(typeText);
  node.typeStart = i + 1;
  node.typeEnd = typeClose;
  i = typeClose + 1;
  if (i < end && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) {
    found.problems.push({ kind: 'no-space-after-type', span: { start: i, end: end } });
    return node;
  }
  parseAttributes(text, i, end, found);
  return node;
}

function skipBlank(text: string, i: number, end: number): number {
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i;
}

function tokenEnd(text: string, i: number, end: number): number {
  while (i < end && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) i++;
  return i;
}

/** The end of the attribute key at `i` (a letter, then letters, digits, `_` and `-`), or `i` when none starts there. */
function keyEnd(text: string, i: number): number {
  let c = text.charCodeAt(i);
  if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return i;
  for (;;) {
    c = text.charCodeAt(++i);
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45)) return i;
  }
}

/**
 * The first `code` in text[from, end), or -1: the search stops at the end of
 * the line, where indexOf would read on to the end of the cell (once per
 * metadata line of a cell with thousands of them).
 */
function indexBefore(text: string, code: number, from: number, end: number): number {
  for (let k = from; k < end; k++) if (text.charCodeAt(k) === code) return k;
  return -1;
}

function parseAttributes(text: string, i: number, end: number, found: Found): void {
  // The next backslash at or after the scan, looked up again only once passed:
  // one look-up per attribute would read to the end of the line each time.
  let bs = -2;
  for (;;) {
    i = skipBlank(text, i, end);
    if (i >= end) return;
    if (text.charCodeAt(i) === 91) {
      // `[reasoning=1]`: the original document's notation for "optional".
      const close = indexBefore(text, 93 /* ] */, i + 1, end);
      if (close !== -1) {
        const inner = text.slice(i + 1, close);
        const probe: Found = { attributes: [], problems: [] };
        parseAttributes(text, i + 1, close, probe);
        const ok = probe.problems.length === 0 && probe.attributes.length > 0;
        found.problems.push({ kind: 'optional-brackets', span: { start: i, end: close + 1 }, text: inner, fixable: ok });
        // A loop, not push(...): a line may hold more attributes than a call has arguments.
        if (ok) for (const a of probe.attributes) found.attributes.push(a);
        i = close + 1;
        continue;
      }
    }
    const ke = keyEnd(text, i);
    if (ke === i || ke > end || text.charCodeAt(ke) !== 61 /* = */) {
      const te = tokenEnd(text, i, end);
      found.problems.push({ kind: 'not-key-value', span: { start: i, end: te }, text: text.slice(i, te) });
      i = te;
      continue;
    }
    const key = interned(text.slice(i, ke));
    const keySpan = { start: i, end: ke };
    let v = keySpan.end + 1;
    const c = text[v];
    if (c === '"') {
      let j = v + 1;
      let value = '';
      let closed = false;
      let chunk = j;
      // The next quote, as the next backslash: looked up again only once passed.
      let q = -2;
      while (j < end) {
        if (q !== -1 && q < j) q = indexBefore(text, 34 /* " */, j, end);
        if (bs !== -1 && bs < j) bs = indexBefore(text, 92 /* \\ */, j, end);
        if (bs !== -1 && bs < end && (q === -1 || bs < q)) {
          // `\"` and `\\` are escapes; any other backslash is literal.
          const nx = text[bs + 1];
          if (nx === '"' || nx === '\\') {
            value += text.slice(chunk, bs) + nx;
            j = bs + 2;
            chunk = j;
          } else j = bs + 1;
          continue;
        }
        if (q === -1 || q >= end) break;
        value += text.slice(chunk, q);
        j = q;
        closed = true;
        break;
      }
      if (!closed) {
        found.problems.push({ kind: 'unclosed-quote', span: { start: v, end }, key });
        return;
      }
      found.attributes.push(new Attribute(key, value, true, i, v, j + 1));
      i = j + 1;
    } else if (c !== undefined && (CURLY_OPEN.has(c) || CURLY_SINGLE.has(c) || c === "'") && v < end) {
      // The closing quote is the first one of the same kind that ends the
      // value (followed by a blank or the end), so `‘don’t’` keeps its apostrophe.
      const quotes = CURLY_OPEN.has(c) ? CURLY_OPEN : CURLY_SINGLE.has(c) ? CURLY_SINGLE : STRAIGHT_SINGLE;
      let j = v + 1;
      while (j < end && !(quotes.has(text[j]!) && (j + 1 === end || text.charCodeAt(j + 1) === 32 || text.charCodeAt(j + 1) === 9))) j++;
      const inner = text.slice(v + 1, j);
      const closed = j < end;
      const valueEnd = closed ? j + 1 : end;
      const fixable = closed && !inner.includes('"') && !inner.includes('\\');
      found.problems.push({ kind: c === "'" ? 'single-quotes' : 'curly-quotes', span: { start: v, end: valueEnd }, key, text: inner, fixable });
      if (fixable) {
        found.attributes.push(new Attribute(key, inner, true, i, v, valueEnd));
      }
      i = valueEnd;
    } else {
      BARE.lastIndex = v;
      const bm = BARE.exec(text);
      const j = bm ? Math.min(v + bm[0].length, end) : v;
      if (j === v) {
        const te = tokenEnd(text, v, end);
        found.problems.push(te > v ? { kind: 'bad-value', span: { start: v, end: te }, key } : { kind: 'no-value', span: keySpan, key });
        i = te;
        continue;
      }
      found.attributes.push(new Attribute(key, text.slice(v, j), false, i, v, j));
      i = j;
    }
    if (i < end && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) {
      const te = tokenEnd(text, i, end);
      found.problems.push({ kind: 'no-space-between', span: { start: i, end: te } });
      i = te;
    }
  }
}
