// A small, strict XML reader for one `<tool>` element (spec section 8).
//
// It works directly on the cell text with cell-relative offsets, so every
// element, text run and CDATA section keeps its exact span. It is stricter
// than most XML libraries in the ways that matter here: only the five XML
// entities and numeric character references are expanded, a DOCTYPE is an
// error (so nothing can be expanded or fetched), nesting is bounded, and it
// stops at the first well-formedness error, which it reports at the exact
// character where the XML breaks. It never recurses, so no input can
// overflow the stack.
//
// The placeholder spelling `CDATA-START[` … `]CDATA-END` (seed 000 uses it to
// escape its own Markdown) is read as the CDATA section it stands for, so one
// placeholder gives one diagnostic (cdata-placeholder) and not a cascade of
// XML errors for the `<` and `&` inside it.
//
// One file of about 590 lines: the reader is one loop over the text whose
// steps share its position, element stack and first error; split, they
// would pass that state between files.

import { interned } from '../base/intern.js';
import { kept, NONE } from '../base/lists.js';
import type { Span } from '../base/text.js';

/** Deepest element nesting read (the `<tool>` element is depth 1). */
export const MAX_DEPTH = 256;

export type PieceKind = 'text' | 'ref' | 'cdata' | 'placeholder';

/**
 * One run of character data directly inside an element. `text` runs are
 * literal text (their leading/trailing whitespace is not significant at the
 * ends of a value); `ref` is one entity or character reference; `cdata` and
 * `placeholder` are sections whose every character is kept.
 */
export interface XmlPiece {
  kind: PieceKind;
  /** The piece as written: for sections, from the opener to the end of the closer. */
  start: number;
  end: number;
  /** The characters it contributes to the value (references decoded, line ends normalized). */
  value: string;
}

/** An attribute of a start tag (`type="number"`). */
export interface XmlAttribute {
  name: string;
  /** From the name to the closing quote, included. */
  start: number;
  end: number;
  /** Inside the quotes. */
  valueStart: number;
  valueEnd: number;
  /** The value as XML reads it: references decoded, each literal tab, line feed, carriage return or CRLF a space. */
  value: string;
}

export interface XmlElement {
  name: string;
  /** From `<` of the start tag to the end of the end tag. */
  start: number;
  end: number;
  /** The name in the start tag. */
  nameStart: number;
  /** Just after the start tag's `>` (for `<x/>`: its end). */
  openEnd: number;
  /** The `<` of the end tag (for `<x/>`: equal to `openEnd`). */
  closeStart: number;
  selfClosing: boolean;
  /** In the order written; most elements have none (the shared empty list). */
  attributes: readonly XmlAttribute[];
  parent: XmlElement | undefined;
  children: readonly XmlElement[];
  /** Character data directly inside, in order (comments and PIs left out). */
  pieces: readonly XmlPiece[];
}

/** An element the reader is still inside: its lists grow until its end tag. */
interface OpenElement extends XmlElement {
  parent: OpenElement | undefined;
  children: XmlElement[];
  pieces: XmlPiece[];
}

export interface XmlError {
  start: number;
  end: number;
  message: string;
  /**
   * What broke the XML when it may be text meant literally: an unescaped `<`
   * or `&`, or a start tag that is not well-formed (`if a<b && c`).
   */
  cause?: 'lt' | 'amp' | 'tag';
  /** The innermost open element when the error happened. */
  element?: XmlElement;
  related?: { start: number; end: number; message: string };
}

/** Placeholder markers: a pair, or a lone opener or closer. */
export interface PlaceholderPair {
  /** `CDATA-START[` */
  open?: Span;
  /** `]CDATA-END` */
  close?: Span;
}

export interface XmlReadResult {
  root?: XmlElement;
  error?: XmlError;
  /** True when reading stopped at a CDATA section without `]]>` (reported by cdata-unterminated, not as an XML error). */
  unterminatedCdata?: Span;
  /** Placeholder markers met in character data. */
  placeholders: PlaceholderPair[];
}

export const PLACEHOLDER_OPEN = 'CDATA-START[';
export const PLACEHOLDER_CLOSE = ']CDATA-END';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const NAME_START =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = NAME_START + '\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040';
const NAME_RE = new RegExp(`[${NAME_START}][${NAME_CHAR}]*`, 'uy');
const FULL_NAME_RE = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`, 'u');

/** @internal The regular expression's answer alone, for tests of nameAt. */
export function nameAtByRegExp(text: string, at: number): string | undefined {
  NAME_RE.lastIndex = at;
  return NAME_RE.exec(text)?.[0];
}

/**
 * The XML name at `at`, as NAME_RE would match it, or null. ASCII names
 * (nearly all) are read without the regular expression: its Unicode classes
 * made it most of the cost of reading a tag before the JIT warmed up.
 */
export function nameAt(text: string, at: number): [string] | null {
  let c = text.charCodeAt(at);
  if (c === 58 || c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
    let i = at + 1;
    for (;;) {
      c = text.charCodeAt(i);
      if (c === 58 || c === 95 || c === 45 || c === 46 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) i++;
      else break;
    }
    // Ended by a character that cannot continue a name (or the end of the text): done.
    if (!(c >= 0x80)) return [text.slice(at, i)];
  } else if (!(c >= 0x80)) {
    return null;
  }
  NAME_RE.lastIndex = at;
  const m = NAME_RE.exec(text);
  return m ? [m[0]] : null;
}
/** Characters XML 1.0 does not allow anywhere (control characters, lone surrogates, U+FFFE/U+FFFF). */
const MAYBE_INVALID_CHAR_RE = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF\uD800-\uDFFF]/;
export const INVALID_CHAR_RE = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Whether a string is an XML Name. */
export function isXmlName(name: string): boolean {
  return FULL_NAME_RE.test(name);
}

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** XML end-of-line handling: CRLF and lone CR become LF. */
export function normalizeEol(s: string): string {
  return s.indexOf('\r') === -1 ? s : s.replace(/\r\n?/g, '\n');
}

function isXmlChar(cp: number): boolean {
  return cp === 9 || cp === 10 || cp === 13 || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

function describe(c: string | undefined): string {
  if (c === undefined) return 'the end of the element';
  if (c === '\n' || c === '\r') return 'a line break';
  if (c === ' ' || c === '\t') return 'a blank';
  return `\`${c}\``;
}

/**
 * Reads an entity or character reference at `amp` (the `&`). Returns the
 * decoded text and the end offset, or an error.
 */
export function readReference(text: string, amp: number, limit: number): { value: string; end: number } | { error: XmlError } {
  const bare = (): { error: XmlError } => ({
    error: { start: amp, end: amp + 1, message: 'Unescaped `&`: write `&amp;`, or put the value in a CDATA section.', cause: 'amp' },
  });
  if (text.charCodeAt(amp + 1) === 35 /* # */) {
    const hex = text.charCodeAt(amp + 2) === 120; /* x */
    const digitsStart = amp + (hex ? 3 : 2);
    let i = digitsStart;
    const re = hex ? /[0-9a-fA-F]/ : /[0-9]/;
    while (i < limit && re.test(text[i]!)) i++;
    if (i === digitsStart || text.charCodeAt(i) !== 59 || i >= limit) return bare();
    const cp = i - digitsStart > 8 ? -1 : parseInt(text.slice(digitsStart, i), hex ? 16 : 10);
    if (!isXmlChar(cp)) {
      return { error: { start: amp, end: i + 1, message: `\`${text.slice(amp, i + 1)}\` refers to a character that XML does not allow.` } };
    }
    return { value: String.fromCodePoint(cp), end: i + 1 };
  }
  const m = nameAt(text, amp + 1);
  const semi = m ? amp + 1 + m[0].length : -1;
  if (!m || semi >= limit || text.charCodeAt(semi) !== 59) return bare();
  const v = ENTITIES[m[0]];
  if (v === undefined) {
    return {
      error: {
        start: amp,
        end: semi + 1,
        message: `\`&${m[0]};\` is not an XML entity (only \`&amp;\` \`&lt;\` \`&gt;\` \`&quot;\` \`&apos;\` and numeric references are); put the value in a CDATA section or escape the \`&\` as \`&amp;\`.`,
      },
    };
  }
  return { value: v, end: semi + 1 };
}

/** Attribute-value normalization of literal text (XML 1.0 section 3.3.3, after line-end handling). */
function literalAttr(s: string): string {
  return /[\t\n\r]/.test(s) ? s.replace(/\r\n|[\t\n\r]/g, ' ') : s;
}

interface StartTag {
  name: string;
  nameStart: number;
  end: number;
  selfClosing: boolean;
  attributes: readonly XmlAttribute[];
}

/** Reads a start tag at `lt`. */
function readStartTag(text: string, lt: number, limit: number): StartTag | XmlError {
  const m = nameAt(text, lt + 1);
  if (!m || lt + 1 + m[0].length > limit) {
    return {
      start: lt,
      end: lt + 1,
      message: 'Unescaped `<`: it starts no tag here. Write `&lt;`, or put the value in a CDATA section.',
      cause: 'lt',
    };
  }
  // One string per name: the spans a tool call keeps (facts.ts ElementSpan) hold it.
  const name = interned(m[0]);
  let i = lt + 1 + name.length;
  // Attribute names met so far, and the attributes; most tags have none.
  let seen: Set<string> | undefined;
  let attributes: XmlAttribute[] | undefined;
  for (;;) {
    const wsStart = i;
    while (i < limit && isWs(text.charCodeAt(i))) i++;
    if (i >= limit) return { start: lt, end: lt + 1 + name.length, message: `The start tag \`<${name}\` is not closed with \`>\`.` };
    const c = text[i];
    if (c === '>') return { name, nameStart: lt + 1, end: i + 1, selfClosing: false, attributes: attributes ?? NONE };
    if (c === '/') {
      if (text[i + 1] === '>') return { name, nameStart: lt + 1, end: i + 2, selfClosing: true, attributes: attributes ?? NONE };
      return { start: i, end: i + 1, message: `Expected \`/>\` or \`>\` to end the start tag \`<${name}\`.` };
    }
    // An attribute.
    const a = nameAt(text, i);
    if (!a || i === wsStart) {
      return {
        start: i,
        end: i + 1,
        message: a ? `Expected a blank before the attribute \`${a[0]}\`.` : `Unexpected ${describe(c)} in the start tag \`<${name}\`; expected an attribute name, \`>\` or \`/>\`.`,
      };
    }
    const attrName = a[0];
    const attrStart = i;
    i += attrName.length;
    while (i < limit && isWs(text.charCodeAt(i))) i++;
    if (text[i] !== '=') return { start: attrStart, end: attrStart + attrName.length, message: `The attribute \`${attrName}\` has no value (\`${attrName}="…"\`).` };
    i++;
    while (i < limit && isWs(text.charCodeAt(i))) i++;
    const q = text[i];
    if (q !== '"' && q !== "'") return { start: i, end: Math.min(i + 1, limit), message: `The value of the attribute \`${attrName}\` must be in quotes.` };
    const close = text.indexOf(q, i + 1);
    if (close === -1 || close >= limit) return { start: i, end: i + 1, message: `The value of the attribute \`${attrName}\` has no closing quote.` };
    let value = '';
    let chunk = i + 1;
    for (let j = i + 1; j < close; j++) {
      const ch = text.charCodeAt(j);
      if (ch === 60) return { start: j, end: j + 1, message: 'An attribute value may not contain `<`; write `&lt;`.' };
      if (ch === 38) {
        const r = readReference(text, j, close);
        if ('error' in r) return { ...r.error, cause: undefined };
        value += literalAttr(text.slice(chunk, j)) + r.value;
        j = r.end - 1;
        chunk = r.end;
      }
    }
    value += literalAttr(text.slice(chunk, close));
    if (seen?.has(attrName)) return { start: attrStart, end: attrStart + attrName.length, message: `The attribute \`${attrName}\` appears twice.` };
    (seen ??= new Set()).add(attrName);
    (attributes ??= []).push({ name: attrName, start: attrStart, end: close + 1, valueStart: i + 1, valueEnd: close, value });
    i = close + 1;
  }
}

/**
 * Looks for placeholder markers in the literal text [from, to). Lone markers
 * are recorded; the first opener with a closer later in the element (the
 * pair may span markup-like text, as a CDATA section would) is recorded and
 * returned.
 */
function placeholderIn(text: string, from: number, to: number, limit: number, found: PlaceholderPair[], next: NextIndex): Span | undefined {
  let p = from;
  for (;;) {
    const o = next.find(PLACEHOLDER_OPEN, p);
    const cl = next.find(PLACEHOLDER_CLOSE, p);
    const hitOpen = o !== -1 && o < to;
    const hitClose = cl !== -1 && cl < to;
    if (!hitOpen && !hitClose) return undefined;
    if (hitClose && (!hitOpen || cl < o)) {
      found.push({ close: { start: cl, end: cl + PLACEHOLDER_CLOSE.length } });
      p = cl + PLACEHOLDER_CLOSE.length;
      continue;
    }
    const closeAt = next.find(PLACEHOLDER_CLOSE, o + PLACEHOLDER_OPEN.length);
    if (closeAt === -1 || closeAt + PLACEHOLDER_CLOSE.length > limit) {
      found.push({ open: { start: o, end: o + PLACEHOLDER_OPEN.length } });
      p = o + PLACEHOLDER_OPEN.length;
      continue;
    }
    const end = closeAt + PLACEHOLDER_CLOSE.length;
    found.push({ open: { start: o, end: o + PLACEHOLDER_OPEN.length }, close: { start: closeAt, end } });
    return { start: o, end };
  }
}

/** `indexOf` that remembers its last answer, so the many short text runs of an element are searched in linear time overall. */
class NextIndex {
  private readonly last = new Map<string, { from: number; at: number }>();
  constructor(private readonly text: string) {}
  find(needle: string, from: number): number {
    const l = this.last.get(needle);
    if (l && l.from <= from && (l.at === -1 || l.at >= from)) return l.at;
    const at = this.text.indexOf(needle, from);
    this.last.set(needle, { from, at });
    return at;
  }
}

/**
 * Reads the element that starts at `start` (a `<tool` start tag) and ends
 * at `limit`. Character data after the root element's end tag is not read.
 */
export function readXml(text: string, start: number, limit: number): XmlReadResult {
  const result: XmlReadResult = { placeholders: [] };
  const region = text.slice(start, limit);
  INVALID_CHAR_RE.lastIndex = 0;
  // The exact pattern (lone surrogates need look-arounds) only where a quick one finds a candidate.
  const bad = MAYBE_INVALID_CHAR_RE.test(region) ? INVALID_CHAR_RE.exec(region) : null;
  if (bad) {
    const at = start + bad.index;
    const cp = bad[0].codePointAt(0)!;
    result.error = { start: at, end: at + bad[0].length, message: `The character U+${cp.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML, not even in CDATA.` };
    return result;
  }

  const fail = (e: XmlError, element?: XmlElement): XmlReadResult => {
    result.error = element && !e.element ? { ...e, element } : e;
    return result;
  };

  const first = readStartTag(text, start, limit);
  if ('message' in first) return fail(first);
  const root: OpenElement = {
    name: first.name,
    start,
    end: first.end,
    nameStart: first.nameStart,
    openEnd: first.end,
    closeStart: first.end,
    selfClosing: first.selfClosing,
    attributes: first.attributes,
    parent: undefined,
    children: [],
    pieces: [],
  };
  result.root = root;
  if (first.selfClosing) return result;

  let cur: OpenElement | undefined = root;
  let depth = 1;
  const nextIndex = new NextIndex(text);
  let pos = first.end;
  // The current literal-text run (start offset), flushed at markup.
  let runStart = -1;
  const flush = (to: number): XmlError | undefined => {
    if (runStart === -1 || !cur) return undefined;
    const raw = text.slice(runStart, to);
    const bad = raw.indexOf(']]>');
    if (bad !== -1) return { start: runStart + bad, end: runStart + bad + 3, message: '`]]>` may not appear in text outside a CDATA section; write `]]&gt;`.' };
    cur.pieces.push({ kind: 'text', start: runStart, end: to, value: normalizeEol(raw) });
    runStart = -1;
    return undefined;
  };

  // The next `<` and `&` at or after pos, searched again only once passed.
  let nextLt = -2;
  let nextAmp = -2;
  while (pos < limit) {
    const c = text.charCodeAt(pos);
    if (c !== 60 /* < */ && c !== 38 /* & */) {
      // Literal text up to the next markup; look for placeholder markers in it.
      if (nextLt !== -1 && nextLt < pos) nextLt = text.indexOf('<', pos);
      if (nextAmp !== -1 && nextAmp < pos) nextAmp = text.indexOf('&', pos);
      let next = limit;
      if (nextLt !== -1 && nextLt < next) next = nextLt;
      if (nextAmp !== -1 && nextAmp < next) next = nextAmp;
      const pair = placeholderIn(text, pos, next, limit, result.placeholders, nextIndex);
      if (pair) {
        // Text before the placeholder, then the placeholder as a section.
        if (runStart === -1 && pair.start > pos) runStart = pos;
        const err = flush(pair.start);
        if (err) return fail(err, cur);
        cur.pieces.push({ kind: 'placeholder', start: pair.start, end: pair.end, value: normalizeEol(text.slice(pair.start + PLACEHOLDER_OPEN.length, pair.end - PLACEHOLDER_CLOSE.length)) });
        pos = pair.end;
        continue;
      }
      if (runStart === -1) runStart = pos;
      pos = next;
      continue;
    }
    if (c === 38) {
      const r = readReference(text, pos, limit);
      if ('error' in r) return fail(r.error, cur);
      const err = flush(pos);
      if (err) return fail(err, cur);
      cur.pieces.push({ kind: 'ref', start: pos, end: r.end, value: r.value });
      pos = r.end;
      continue;
    }
    // Markup.
    const err = flush(pos);
    if (err) return fail(err, cur);
    const n1 = text[pos + 1];
    if (n1 === '/') {
      const m = nameAt(text, pos + 2);
      if (!m || pos + 2 + m[0].length > limit) return fail({ start: pos, end: pos + 2, message: 'Expected an element name after `</`.' }, cur);
      let i = pos + 2 + m[0].length;
      while (i < limit && isWs(text.charCodeAt(i))) i++;
      if (text[i] !== '>' || i >= limit) return fail({ start: i, end: Math.min(i + 1, limit), message: `Expected \`>\` to end the end tag \`</${m[0]}\`.` }, cur);
      const closeEnd = i + 1;
      if (m[0] !== cur.name) {
        const openLine = cur;
        return fail(
          {
            start: pos,
            end: closeEnd,
            message: `Expected \`</${cur.name}>\` to close \`<${cur.name}>\`, found \`</${m[0]}>\`.`,
            related: { start: openLine.start, end: openLine.openEnd, message: `\`<${cur.name}>\` opened here` },
          },
          cur,
        );
      }
      cur.closeStart = pos;
      cur.end = closeEnd;
      // Closed: from here on it is read only, through the XmlElement type.
      const closed: XmlElement = cur;
      closed.children = kept(cur.children);
      closed.pieces = kept(cur.pieces);
      pos = closeEnd;
      cur = cur.parent;
      depth--;
      if (!cur) return result;
      continue;
    }
    if (n1 === '!') {
      if (text.startsWith('<!--', pos)) {
        const close = text.indexOf('-->', pos + 4);
        if (close === -1 || close + 3 > limit) return fail({ start: pos, end: pos + 4, message: 'The comment `<!--` is not closed with `-->`.' }, cur);
        const dd = text.indexOf('--', pos + 4);
        if (dd !== -1 && dd < close) return fail({ start: dd, end: dd + 2, message: '`--` may not appear inside an XML comment.' }, cur);
        pos = close + 3;
        continue;
      }
      if (text.startsWith('<![CDATA[', pos)) {
        const close = text.indexOf(']]>', pos + 9);
        if (close === -1 || close + 3 > limit) {
          result.unterminatedCdata = { start: pos, end: pos + 9 };
          return result;
        }
        cur.pieces.push({ kind: 'cdata', start: pos, end: close + 3, value: normalizeEol(text.slice(pos + 9, close)) });
        pos = close + 3;
        continue;
      }
      if (/^<!DOCTYPE/i.test(text.slice(pos, pos + 9))) {
        return fail({ start: pos, end: pos + 9, message: 'A DOCTYPE is not allowed in a tool call: only the five XML entities are expanded.' }, cur);
      }
      return fail({ start: pos, end: pos + 2, message: '`<!` starts neither a comment `<!--` nor a CDATA section `<![CDATA[`.' }, cur);
    }
    if (n1 === '?') {
      const m = nameAt(text, pos + 2);
      if (!m) return fail({ start: pos, end: pos + 2, message: 'Expected a processing instruction name after `<?`.' }, cur);
      if (m[0].toLowerCase() === 'xml') {
        return fail({ start: pos, end: pos + 2 + m[0].length, message: 'An XML declaration `<?xml …?>` is not allowed inside a tool call.' }, cur);
      }
      const close = text.indexOf('?>', pos + 2);
      if (close === -1 || close + 2 > limit) return fail({ start: pos, end: pos + 2 + m[0].length, message: 'The processing instruction is not closed with `?>`.' }, cur);
      pos = close + 2;
      continue;
    }
    const tag = readStartTag(text, pos, limit);
    if ('message' in tag) return fail(tag.cause ? tag : { ...tag, cause: 'tag' }, cur);
    if (depth >= MAX_DEPTH) {
      return fail({ start: pos, end: tag.end, message: `Elements are nested more than ${MAX_DEPTH} deep.` }, cur);
    }
    const el: OpenElement = {
      name: tag.name,
      start: pos,
      end: tag.end,
      nameStart: tag.nameStart,
      openEnd: tag.end,
      closeStart: tag.end,
      selfClosing: tag.selfClosing,
      attributes: tag.attributes,
      parent: cur,
      children: [],
      pieces: [],
    };
    cur.children.push(el);
    pos = tag.end;
    if (!tag.selfClosing) {
      cur = el;
      depth++;
    }
  }
  const err = flush(limit);
  if (err) return fail(err, cur);
  // The region ended with elements still open.
  return fail(
    { start: cur.start, end: cur.openEnd, message: `\`<${cur.name}>\` is not closed${cur === root ? '' : ` before the end of the \`<${root.name}>\` element`}.` },
    cur,
  );
}

/** Whether a piece holds anything besides insignificant whitespace. */
export function pieceIsBlank(p: XmlPiece): boolean {
  if (p.kind !== 'text') return false;
  for (let i = 0; i < p.value.length; i++) if (!isWs(p.value.charCodeAt(i))) return false;
  return true;
}

/**
 * The string value of an element's character data: literal whitespace at
 * the two ends is dropped, references and CDATA are kept as they are.
 * Returns the value and the span from the first to the last significant character.
 */
export function textValue(text: string, el: XmlElement): { value: string; start: number; end: number } {
  const pieces = el.pieces;
  let first = 0;
  let last = pieces.length - 1;
  while (first <= last && pieceIsBlank(pieces[first]!)) first++;
  while (last >= first && pieceIsBlank(pieces[last]!)) last--;
  if (first > last) return { value: '', start: el.openEnd, end: el.openEnd };
  let value = '';
  let start = pieces[first]!.start;
  let end = pieces[last]!.end;
  for (let i = first; i <= last; i++) {
    const p = pieces[i]!;
    let v = p.value;
    if (p.kind === 'text') {
      if (i === first) {
        let k = 0;
        while (k < v.length && isWs(v.charCodeAt(k))) k++;
        v = v.slice(k);
        let r = p.start;
        while (r < p.end && isWs(text.charCodeAt(r))) r++;
        start = r;
      }
      if (i === last) {
        let k = v.length;
        while (k > 0 && isWs(v.charCodeAt(k - 1))) k--;
        v = v.slice(0, k);
        let r = p.end;
        while (r > p.start && isWs(text.charCodeAt(r - 1))) r--;
        end = r;
      }
    }
    value += v;
  }
  return { value, start, end };
}
