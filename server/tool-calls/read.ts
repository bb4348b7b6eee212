// Reads the `<tool>` elements of a cell (spec section 8) into ToolCallInfo:
// server, tool name and arguments, the spans of every part, and the problems
// found, as facts (what and where) that the tool-call rules word and fix.
// The result is cached per cell parse, and cell parses are shared between
// document versions while a cell's text is unchanged, so each cell's XML is
// read once.

import type { CellParse } from '../syntax/format/cell.js';
import type { ToolElement } from '../syntax/format/scan.js';
import { Memo } from '../base/memo.js';
import { isBlankCode as blank, type CdataWrap, type ToolCallInfo, type ToolProblem } from './facts.js';
import { readLegacy } from './legacy.js';
import { cdataSection } from './rewrite.js';
import { readStructure } from './structure.js';
import { pieceIsBlank, readReference, readXml, type PlaceholderPair, type XmlElement, type XmlError } from './xml.js';

// Not frozen, as lists.ts says why: the read-only type keeps it empty.
const EMPTY: readonly ToolCallInfo[] = [];
const cache = new Memo<CellParse, readonly ToolCallInfo[]>('parse');

/** The tool elements of a cell (or any parsed segment), read once per cell text. */
export function toolCallsOf(segment: { parse?: CellParse }): readonly ToolCallInfo[] {
  const p = segment.parse;
  if (!p || p.tools.length === 0) return EMPTY;
  let infos = cache.get(p);
  if (!infos) {
    infos = p.tools.map((t) => readToolElement(p, t));
    cache.set(p, infos);
  }
  return infos;
}

/**
 * toolCallsOf, without keeping what it reads when nothing has yet: for a
 * reader that asks once per cell (an export's view), which would otherwise
 * keep every call's facts beside it (tens of MB on a long file).
 */
export function readToolCalls(segment: { parse?: CellParse }): readonly ToolCallInfo[] {
  const p = segment.parse;
  if (!p || p.tools.length === 0) return EMPTY;
  return cache.get(p) ?? p.tools.map((t) => readToolElement(p, t));
}

/** Reads one tool element of a cell. */
export function readToolElement(p: CellParse, t: ToolElement): ToolCallInfo {
  const text = p.text;
  // Every field in the literal, set later or not: fields added to an object
  // made without them go to a second array (about 60 bytes a tool cell, kept).
  const info: ToolCallInfo = {
    element: t,
    form: 'xml',
    serverName: undefined,
    server: 'local',
    toolName: undefined,
    arguments: {},
    rawArguments: undefined,
    toolNameElement: undefined,
    argumentsElement: undefined,
    toolNameText: undefined,
    cdata: t.cdata,
    legacy: undefined,
    problems: [],
    ok: false,
  };
  // The body, trimmed, decides the form.
  let bs = t.openTagEnd;
  let be = t.closeTagStart;
  while (bs < be && blank(text.charCodeAt(bs))) bs++;
  while (be > bs && blank(text.charCodeAt(be - 1))) be--;
  if (text.charCodeAt(bs) === 123 /* { */ && bs < be) {
    info.form = 'json';
    if (!t.closed) {
      info.problems.push({ rule: 'tool-xml', kind: 'unclosed', start: t.start, end: t.openTagEnd });
      return info;
    }
    readLegacy(p, t, info, bs, be);
    return info;
  }

  for (const c of t.cdata) {
    if (!c.closed) info.problems.push({ rule: 'cdata-unterminated', start: c.start, end: c.start + 9 });
  }
  if (!t.closed) {
    info.problems.push({ rule: 'tool-xml', kind: 'unclosed', start: t.start, end: t.openTagEnd });
    return info;
  }
  const r = readXml(text, t.start, t.end);
  placeholderProblems(text, r.placeholders, info);
  if (r.unterminatedCdata) {
    if (!info.problems.some((x) => x.rule === 'cdata-unterminated' && x.start === r.unterminatedCdata!.start)) {
      info.problems.push({ rule: 'cdata-unterminated', start: r.unterminatedCdata.start, end: r.unterminatedCdata.end });
    }
    return info;
  }
  if (r.error) {
    info.problems.push(xmlProblem(text, t, r.error));
    return info;
  }
  // fast-xml-parser's validator accepts whatever this reader accepts (a
  // property test checks it), so it is not run here as well.
  readStructure(text, r.root!, info);
  // A placeholder pair is read as the CDATA it stands for, but it is still an error in the file.
  info.ok = !info.problems.some((x) => x.rule !== 'cdata-recommended');
  return info;
}

function xmlProblem(text: string, t: ToolElement, e: XmlError): ToolProblem {
  const problem: ToolProblem = { rule: 'tool-xml', kind: 'xml', start: e.start, end: e.end, error: e, ltMayBeText: false };
  const el = e.element;
  if (!e.cause || !el || !el.parent || el.children.length) return problem;
  // A broken start tag is likely text only when text comes before it (`if a<b && c`).
  if (e.cause === 'tag') {
    if (!el.pieces.some((x) => !pieceIsBlank(x))) return problem;
    problem.ltMayBeText = true;
  }
  problem.wrap = cdataWrap(text, t, el, e.start);
  return problem;
}

/** The text of `el` (still open at the error) in CDATA, when that makes the XML well-formed there. */
function cdataWrap(text: string, t: ToolElement, el: XmlElement, errorAt: number): CdataWrap | undefined {
  const closeRe = new RegExp(`</${el.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t\\r\\n]*>`, 'g');
  closeRe.lastIndex = errorAt;
  const m = closeRe.exec(text);
  if (!m || m.index + m[0].length > t.closeTagStart) return undefined;
  let a = el.openEnd;
  let b = m.index;
  while (a < b && blank(text.charCodeAt(a))) a++;
  while (b > a && blank(text.charCodeAt(b - 1))) b--;
  const raw = text.slice(a, b);
  if (raw.includes('<![CDATA[') || raw.includes(']]>') || raw.includes('<!--')) return undefined;
  // Valid references keep their meaning: decode them into the CDATA text.
  let decoded = '';
  let i = 0;
  for (;;) {
    const amp = raw.indexOf('&', i);
    if (amp === -1) break;
    const r = readReference(raw, amp, raw.length);
    if ('error' in r) {
      decoded += raw.slice(i, amp + 1);
      i = amp + 1;
      continue;
    }
    if (r.value === '\r') return undefined;
    decoded += raw.slice(i, amp) + r.value;
    i = r.end;
  }
  decoded += raw.slice(i);
  const replacement = cdataSection(decoded);
  // Only offer it when the element reads well after the change.
  const region = text.slice(t.start, a) + replacement + text.slice(b, t.end);
  const again = readXml(region, 0, region.length);
  const wrappedEnd = a - t.start + replacement.length;
  if (again.unterminatedCdata || (again.error && again.error.start < wrappedEnd)) return undefined;
  return { name: el.name, start: a, end: b, text: replacement };
}

function placeholderProblems(text: string, found: PlaceholderPair[], info: ToolCallInfo): void {
  for (const ph of found) {
    if (ph.open && ph.close) {
      const inner = text.slice(ph.open.end, ph.close.start);
      info.problems.push({
        rule: 'cdata-placeholder',
        kind: 'pair',
        start: ph.open.start,
        end: ph.open.end,
        close: { start: ph.close.start, end: ph.close.end },
        fixable: !inner.includes(']]>'),
      });
    } else if (ph.open) {
      info.problems.push({ rule: 'cdata-placeholder', kind: 'open', start: ph.open.start, end: ph.open.end });
    } else if (ph.close) {
      info.problems.push({ rule: 'cdata-placeholder', kind: 'close', start: ph.close.start, end: ph.close.end });
    }
  }
}
