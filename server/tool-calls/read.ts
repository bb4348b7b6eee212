// Reads the `<tool>` elements of a cell (spec section 8) into ToolCallInfo:
// server, tool name and arguments, the spans of every part, and the problems
// found, as facts (what and where) that the tool-call rules word and fix.
// The result is cached per cell parse, and cell parses are shared between
// document versions while a cell's text is unchanged, so each cell's XML is
// read once.

import type { CellParse } from '../syntax/cell.js';
import type { Span } from '../base/text.js';
import type { RegionNode, ToolElement } from '../syntax/scan.js';
import { jsonValue, parseJson, setProp, type JsonNode, type JsonValue } from './json.js';
import { cdataSection, isListItemName, legacyToXml } from './rewrite.js';
import { pieceIsBlank, readReference, readXml, textValue, type PlaceholderPair, type XmlElement, type XmlError } from './xml.js';
import { Memo } from '../syntax/memo.js';

/** Putting the text of element `name`, [start, end), in a CDATA section reads well: `text` is the section. */
export interface CdataWrap {
  name: string;
  start: number;
  end: number;
  text: string;
}

/** What is wrong in the shape of a well-formed `<tool>` (tool-xml-structure). */
export type StructureProblemKind =
  | 'text-in-tool'
  | 'not-allowed'
  | 'second'
  | 'no-tool-name'
  | 'tool-name-elements'
  | 'tool-name-empty'
  | 'server-name-elements'
  | 'server-name-empty'
  | 'text-in-arguments'
  | 'text-beside-elements';

/** What is wrong with a `<tool>` body in the legacy JSON form (legacy-json-invalid). */
export type LegacyProblemKind = 'json' | 'not-an-object' | 'repeated-key' | 'server-name' | 'tool-name' | 'arguments' | 'unknown-key' | 'no-tool-name';

/**
 * A fact found while reading one `<tool>` element, for the rule named by
 * `rule`, which words it and makes its fix. Offsets are relative to the cell text.
 */
export type ToolProblem = Span &
  (
    | { rule: 'tool-xml'; kind: 'unclosed' }
    | {
        rule: 'tool-xml';
        kind: 'xml';
        error: XmlError;
        /** A broken start tag after text in the element: the `<` may be meant as text. */
        ltMayBeText: boolean;
        wrap?: CdataWrap;
      }
    | { rule: 'cdata-unterminated' }
    /** `close` is the `]CDATA-END` of a pair; `fixable` when the text between holds no `]]>`. */
    | { rule: 'cdata-placeholder'; kind: 'pair'; close: Span; fixable: boolean }
    | { rule: 'cdata-placeholder'; kind: 'open' | 'close' }
    /** `name`: the element concerned; `first`: the start tag of the first one, for `second`. */
    | { rule: 'tool-xml-structure'; kind: StructureProblemKind; name?: string; first?: Span }
    /** `decoded`: the value as CDATA would hold it, when the text can be kept exactly. */
    | { rule: 'cdata-recommended'; name: string; decoded?: string }
    /** `detail`: the JSON error, or the key concerned. */
    | { rule: 'legacy-json-invalid'; kind: LegacyProblemKind; detail?: string }
    /** `body`: between `<tool>` and `</tool>`; `rewrite` as in LegacyInfo. */
    | { rule: 'legacy-json-tool-call'; body: Span; rewrite: LegacyInfo['rewrite'] }
  );

export type ToolProblemRule = ToolProblem['rule'];

/** An element inside `<arguments>`. */
export interface ArgumentElement {
  element: XmlElement;
  /** Element names from `<arguments>` down, joined with `/` (`edits/edit/search`). */
  path: string;
  /** For elements without child elements: the string value and its span (first to last significant character). */
  text?: { value: string; start: number; end: number };
  /** Whether its character data uses CDATA (or the placeholder spelling). */
  cdata: boolean;
}

export interface LegacyInfo {
  /** The JSON object, with spans. */
  node: JsonNode;
  /** Its plain value. */
  value: JsonValue;
  span: Span;
  /** The XML body a rewrite puts between `<tool>` and `</tool>`, or why there is none. */
  rewrite: { body: string } | { refused: string };
}

export interface ToolCallInfo {
  /** The element as the scanner found it (cell-relative offsets). */
  element: ToolElement;
  form: 'xml' | 'json';
  /** `<server_name>` (or the legacy `server_name`) when given. */
  serverName?: string;
  /** The server the call goes to: `serverName`, or `local`. */
  server: string;
  /** `<tool_name>` (or the legacy `tool_name`), when it could be read. */
  toolName?: string;
  /**
   * The arguments (spec section 8): an element with text is a string, an
   * element with child elements an object, repeated sibling elements a list
   * (as are the children of `<files>` when they are all `<file>`, or all
   * `<item>`). Empty when there is no `<arguments>`. The legacy form keeps
   * its JSON values (numbers, booleans, null).
   */
  arguments: Record<string, JsonValue>;
  /** XML form, once well-formed: the `<tool>` element and its parts. */
  root?: XmlElement;
  serverNameElement?: XmlElement;
  toolNameElement?: XmlElement;
  argumentsElement?: XmlElement;
  /** Every element inside `<arguments>`, in document order. */
  argumentElements: ArgumentElement[];
  /** CDATA sections the scanner found in the element. */
  cdata: RegionNode[];
  legacy?: LegacyInfo;
  problems: ToolProblem[];
  /** True when server, tool name and arguments were read and the element has no error (warnings aside). */
  ok: boolean;
}

const EMPTY: readonly ToolCallInfo[] = Object.freeze([]);
const cache = new Memo<CellParse, readonly ToolCallInfo[]>();

/** The tool elements of a cell (or any parsed segment), read once per cell text. */
export function toolCallsOf(segment: { parse?: CellParse }): readonly ToolCallInfo[] {
  const p = segment.parse;
  if (!p || p.tools.length === 0) return EMPTY;
  let infos = cache.get(p);
  if (!infos) {
    infos = Object.freeze(p.tools.map((t) => readToolElement(p, t)));
    cache.set(p, infos);
  }
  return infos;
}

function eolOf(p: CellParse, at: number): string {
  const nl = p.text.indexOf('\n', at);
  if (nl !== -1) return p.text.charCodeAt(nl - 1) === 13 ? '\r\n' : '\n';
  const l = p.lines[0];
  return l && l.end - l.contentEnd === 2 ? '\r\n' : '\n';
}

/** The blanks before `<tool>` when nothing else precedes it on its line. */
function indentOf(text: string, at: number): string {
  const ls = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(ls, at);
  return /^[ \t]*$/.test(before) ? before : '';
}

function blank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Reads one tool element of a cell. */
export function readToolElement(p: CellParse, t: ToolElement): ToolCallInfo {
  const text = p.text;
  const info: ToolCallInfo = {
    element: t,
    form: 'xml',
    server: 'local',
    arguments: {},
    argumentElements: [],
    cdata: t.cdata,
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
  const root = r.root!;
  info.root = root;
  readStructure(text, root, info);
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

/** Significant character data directly in `el`, as spans between its child elements. */
function strayText(text: string, el: XmlElement): Span[] {
  const out: Span[] = [];
  let child = 0;
  let cur: Span | undefined;
  for (const piece of el.pieces) {
    while (child < el.children.length && el.children[child]!.start < piece.start) {
      child++;
      if (cur) {
        out.push(cur);
        cur = undefined;
      }
    }
    if (pieceIsBlank(piece)) continue;
    let s = piece.start;
    let e = piece.end;
    if (piece.kind === 'text') {
      while (s < e && blank(text.charCodeAt(s))) s++;
      while (e > s && blank(text.charCodeAt(e - 1))) e--;
    }
    if (cur) cur.end = e;
    else cur = { start: s, end: e };
  }
  if (cur) out.push(cur);
  return out;
}

function startTag(el: XmlElement): { start: number; end: number } {
  return { start: el.start, end: el.openEnd };
}

type StructureProblem = Extract<ToolProblem, { rule: 'tool-xml-structure' }>;
type PushStructure = (span: Span, kind: StructureProblem['kind'], name?: string, first?: Span) => void;

function readStructure(text: string, root: XmlElement, info: ToolCallInfo): void {
  const push: PushStructure = (span, kind, name, first) => {
    info.problems.push({ rule: 'tool-xml-structure', kind, start: span.start, end: span.end, name, first });
  };
  for (const s of strayText(text, root)) push(s, 'text-in-tool');
  for (const child of root.children) {
    const key = child.name === 'server_name' ? 'serverNameElement' : child.name === 'tool_name' ? 'toolNameElement' : child.name === 'arguments' ? 'argumentsElement' : undefined;
    if (!key) {
      push(startTag(child), 'not-allowed', child.name);
      continue;
    }
    const first = info[key];
    if (first) {
      push(startTag(child), 'second', child.name, startTag(first));
      continue;
    }
    info[key] = child;
  }
  const nameEl = info.toolNameElement;
  if (!nameEl) {
    push(startTag(root), 'no-tool-name');
  } else if (nameEl.children.length) {
    push(startTag(nameEl.children[0]!), 'tool-name-elements');
  } else {
    const v = textValue(text, nameEl).value;
    if (v.trim() === '') push(startTag(nameEl), 'tool-name-empty');
    else info.toolName = v;
  }
  const serverEl = info.serverNameElement;
  if (serverEl) {
    if (serverEl.children.length) {
      push(startTag(serverEl.children[0]!), 'server-name-elements');
    } else {
      const v = textValue(text, serverEl).value;
      if (v.trim() === '') push(startTag(serverEl), 'server-name-empty');
      else {
        info.serverName = v;
        info.server = v;
      }
    }
  }
  const argsEl = info.argumentsElement;
  if (argsEl) {
    for (const s of strayText(text, argsEl)) push(s, 'text-in-arguments');
    info.arguments = objectValue(text, argsEl, info, '', push);
  }
}

function elementValue(text: string, el: XmlElement, info: ToolCallInfo, path: string, push: PushStructure): JsonValue {
  const arg: ArgumentElement = { element: el, path, cdata: el.pieces.some((x) => x.kind === 'cdata' || x.kind === 'placeholder') };
  info.argumentElements.push(arg);
  if (el.children.length === 0) {
    arg.text = textValue(text, el);
    recommendCdata(text, arg, info);
    return arg.text.value;
  }
  for (const s of strayText(text, el)) push(s, 'text-beside-elements', el.name);
  const first = el.children[0]!.name;
  if (el.children.every((c) => c.name === first) && isListItemName(first, el.name)) {
    return el.children.map((c) => elementValue(text, c, info, `${path}/${c.name}`, push));
  }
  return objectValue(text, el, info, path, push);
}

function objectValue(text: string, el: XmlElement, info: ToolCallInfo, path: string, push: PushStructure): Record<string, JsonValue> {
  const obj: Record<string, JsonValue> = {};
  const grouped = new Set<string>();
  for (const c of el.children) {
    const v = elementValue(text, c, info, path ? `${path}/${c.name}` : c.name, push);
    if (!Object.prototype.hasOwnProperty.call(obj, c.name)) {
      setProp(obj, c.name, v);
    } else if (grouped.has(c.name)) {
      (obj[c.name] as JsonValue[]).push(v);
    } else {
      setProp(obj, c.name, [obj[c.name]!, v]);
      grouped.add(c.name);
    }
  }
  return obj;
}

/** cdata-recommended: a plain-text argument of several lines. */
function recommendCdata(text: string, arg: ArgumentElement, info: ToolCallInfo): void {
  const v = arg.text!;
  if (arg.cdata || !v.value.includes('\n')) return;
  const el = arg.element;
  // The fix keeps the exact text: line ends as written, references decoded.
  let decoded = '';
  let ok = true;
  let prevEnd = -1;
  for (const piece of el.pieces) {
    if (piece.end <= v.start || piece.start >= v.end) continue;
    const s = Math.max(piece.start, v.start);
    const e = Math.min(piece.end, v.end);
    if (prevEnd !== -1 && s !== prevEnd) ok = false; // a comment or PI in between
    prevEnd = e;
    if (piece.kind === 'ref') {
      if (piece.value === '\r') ok = false;
      decoded += piece.value;
    } else decoded += text.slice(s, e);
  }
  info.problems.push({ rule: 'cdata-recommended', start: v.start, end: v.end, name: el.name, decoded: ok ? decoded : undefined });
}

function readLegacy(p: CellParse, t: ToolElement, info: ToolCallInfo, bs: number, be: number): void {
  const text = p.text;
  const invalid = (start: number, end: number, kind: LegacyProblemKind, detail?: string): void => {
    info.problems.push({ rule: 'legacy-json-invalid', kind, start, end, detail });
  };
  const parsed = parseJson(text, bs, be);
  if ('error' in parsed) {
    const e = parsed.error;
    invalid(e.start, Math.max(e.end, e.start), 'json', e.message);
    return;
  }
  const node = parsed.node;
  if (node.kind !== 'object') {
    invalid(node.start, node.end, 'not-an-object');
    return;
  }
  let server: JsonNode | undefined;
  let tool: JsonNode | undefined;
  let args: JsonNode | undefined;
  let bad = false;
  const seen = new Set<string>();
  for (const e of node.entries) {
    if (seen.has(e.key)) {
      invalid(e.keyStart, e.keyEnd, 'repeated-key', e.key);
      bad = true;
      continue;
    }
    seen.add(e.key);
    if (e.key === 'server_name') {
      if (e.value.kind !== 'string' || e.value.value.trim() === '') {
        invalid(e.value.start, e.value.end, 'server-name');
        bad = true;
      } else server = e.value;
    } else if (e.key === 'tool_name') {
      if (e.value.kind !== 'string' || e.value.value.trim() === '') {
        invalid(e.value.start, e.value.end, 'tool-name');
        bad = true;
      } else tool = e.value;
    } else if (e.key === 'arguments') {
      if (e.value.kind !== 'object') {
        invalid(e.value.start, e.value.end, 'arguments');
        bad = true;
      } else args = e.value;
    } else {
      invalid(e.keyStart, e.keyEnd, 'unknown-key', e.key);
      bad = true;
    }
  }
  if (!tool && !seen.has('tool_name')) {
    invalid(node.start, node.start + 1, 'no-tool-name');
    bad = true;
  }
  if (bad) return;
  const value = jsonValue(node);
  const rewrite = legacyToXml({ server, tool: tool!, args }, eolOf(p, t.start), indentOf(text, t.start));
  info.legacy = { node, value, span: { start: node.start, end: node.end }, rewrite };
  info.toolName = (tool as { value: string }).value;
  if (server) {
    info.serverName = (server as { value: string }).value;
    info.server = info.serverName;
  }
  info.arguments = args ? (jsonValue(args) as Record<string, JsonValue>) : {};
  info.ok = true;
  info.problems.push({ rule: 'legacy-json-tool-call', start: node.start, end: node.end, body: { start: t.openTagEnd, end: t.closeTagStart }, rewrite });
}
