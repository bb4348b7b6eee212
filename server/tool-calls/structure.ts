// The shape of a well-formed `<tool>` element (spec section 8): which
// children it has, its tool and server names, and its arguments read into
// JSON values (typed by their `type` attribute, or kept as JSON text by
// `<arguments type="json">`), with the tool-xml-structure and
// cdata-recommended facts.

import { interned } from '../base/intern.js';
import type { Span } from '../base/text.js';
import { isBlankCode as blank, type ArgumentElement, type ElementSpan, type ToolCallInfo, type ToolProblem } from './facts.js';
import { ARGUMENT_TYPES, RAW_ARGUMENTS_TYPE, type ArgumentType } from './arg-types.js';
import { jsonValue, parseJson, setProp, TOO_DEEP, type JsonValue } from './json.js';
import { exactNumber, inexactNumbers, JSON_NUMBER } from './numbers.js';
import { isListItemName } from './rewrite.js';
import { pieceIsBlank, textValue, type XmlAttribute, type XmlElement } from './xml.js';


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
type PushStructure = (span: Span, kind: StructureProblem['kind'], name?: string, first?: Span, more?: Pick<StructureProblem, 'type' | 'detail' | 'declared'>) => void;

export function readStructure(text: string, root: XmlElement, info: ToolCallInfo): void {
  const push: PushStructure = (span, kind, name, first, more) => {
    info.problems.push({ rule: 'tool-xml-structure', kind, start: span.start, end: span.end, name, first, ...more });
  };
  for (const s of strayText(text, root)) push(s, 'text-in-tool');
  let serverEl: XmlElement | undefined;
  let nameEl: XmlElement | undefined;
  let argsEl: XmlElement | undefined;
  for (const child of root.children) {
    const first = child.name === 'server_name' ? serverEl : child.name === 'tool_name' ? nameEl : child.name === 'arguments' ? argsEl : null;
    if (first === null) push(startTag(child), 'not-allowed', child.name);
    else if (first) push(startTag(child), 'second', child.name, startTag(first));
    else if (child.name === 'server_name') serverEl = child;
    else if (child.name === 'tool_name') nameEl = child;
    else argsEl = child;
  }
  if (!nameEl) {
    push(startTag(root), 'no-tool-name');
  } else {
    info.toolNameElement = spanOf(nameEl);
    if (nameEl.children.length) {
      push(startTag(nameEl.children[0]!), 'tool-name-elements');
    } else {
      const v = textValue(text, nameEl);
      if (v.value.trim() === '') push(startTag(nameEl), 'tool-name-empty');
      else {
        // One string per name, as element names (xml.ts): a tool cell kept a copy or a slice of it.
        info.toolName = interned(v.value);
        info.toolNameText = { start: v.start, end: v.end };
      }
    }
  }
  if (serverEl) {
    if (serverEl.children.length) {
      push(startTag(serverEl.children[0]!), 'server-name-elements');
    } else {
      const v = textValue(text, serverEl).value;
      if (v.trim() === '') push(startTag(serverEl), 'server-name-empty');
      else {
        info.serverName = info.server = interned(v);
      }
    }
  }
  if (argsEl) {
    info.argumentsElement = spanOf(argsEl);
    let raw: XmlAttribute | undefined;
    for (const a of argsEl.attributes) {
      if (a.name !== 'type') push(a, 'attribute-not-allowed', argsEl.name, undefined, { detail: a.name });
      else if (a.value === RAW_ARGUMENTS_TYPE) raw = a;
      else push(valueSpan(a), 'arguments-type', argsEl.name, undefined, { detail: a.value });
    }
    if (raw) readRaw(text, argsEl, raw, info, push);
    else {
      for (const s of strayText(text, argsEl)) push(s, 'text-in-arguments');
      info.arguments = objectValue(text, argsEl, info, '', push);
    }
  }
}

function spanOf(el: XmlElement): ElementSpan {
  return { name: el.name, start: el.start, end: el.end };
}

/** An attribute's value, or the whole attribute when the value is empty (an empty range shows nothing). */
function valueSpan(a: XmlAttribute): Span {
  return a.valueEnd > a.valueStart ? { start: a.valueStart, end: a.valueEnd } : a;
}

/** `<arguments type="json">`: its text is the arguments, JSON or not; child elements are not read. */
function readRaw(text: string, el: XmlElement, declared: XmlAttribute, info: ToolCallInfo, push: PushStructure): void {
  if (el.children.length) {
    push(startTag(el.children[0]!), 'json-with-elements', el.name, undefined, { declared });
    return;
  }
  const v = textValue(text, el);
  info.rawArguments = { text: v.value, start: v.start, end: v.end };
  const parsed = parseJson(v.value, 0, v.value.length);
  if ('node' in parsed) {
    const value = jsonValue(parsed.node);
    info.rawArguments.value = value;
    const inexact = inexactNumbers(parsed.node);
    if (inexact.length) info.rawArguments.inexact = inexact;
    if (parsed.node.kind === 'object') info.arguments = value as Record<string, JsonValue>;
  } else if (parsed.error.message === TOO_DEEP) info.rawArguments.tooDeep = true;
}

/** The element's `type` when it is a known one; its other attributes and an unknown type are reported. */
function declaredType(el: XmlElement, push: PushStructure): XmlAttribute | undefined {
  let found: XmlAttribute | undefined;
  for (const a of el.attributes) {
    if (a.name !== 'type') push(a, 'attribute-not-allowed', el.name, undefined, { detail: a.name });
    else if ((ARGUMENT_TYPES as readonly string[]).includes(a.value)) found = a;
    else push(valueSpan(a), 'type-unknown', el.name, undefined, { detail: a.value });
  }
  return found;
}

/** The value of an element with a known `type`; a value that does not fit is reported once and read as text. */
function typedValue(text: string, el: XmlElement, type: ArgumentType, declared: XmlAttribute, arg: ArgumentElement, info: ToolCallInfo, path: string, push: PushStructure): JsonValue {
  const mismatch = (span: Span, detail?: string): void => push(span, 'type-mismatch', el.name, undefined, { type, detail, declared });
  if (type === 'array' || type === 'object') {
    for (const s of strayText(text, el)) mismatch(s);
    if (type === 'object') return objectValue(text, el, info, path, push);
    return el.children.map((c) => elementValue(text, c, info, `${path}/${c.name}`, push));
  }
  // A scalar: its child elements are not read (one problem, not one per child).
  const v = (arg.text = textValue(text, el));
  if (el.children.length) {
    mismatch(startTag(el.children[0]!), `<${el.children[0]!.name}>`);
    return v.value;
  }
  const span = v.end > v.start ? v : declared;
  if (type === 'null') {
    if (v.value === '') return null;
    mismatch(span, v.value);
  } else if (type === 'boolean') {
    if (v.value === 'true' || v.value === 'false') return v.value === 'true';
    mismatch(span, v.value);
  } else if (!JSON_NUMBER.test(v.value)) {
    mismatch(span, v.value);
  } else if (exactNumber(v.value)) {
    return Number(v.value);
  } else {
    // Read as a double it would be another number, or `null`: kept as written, as a string, and reported.
    push(span, 'number-inexact', el.name, undefined, { type, detail: v.value, declared });
  }
  return v.value;
}

function elementValue(text: string, el: XmlElement, info: ToolCallInfo, path: string, push: PushStructure): JsonValue {
  // `text` and `type` in the literal, as ToolCallInfo's fields (read.ts).
  const arg: ArgumentElement = { element: spanOf(el), path, text: undefined, cdata: el.pieces.some((x) => x.kind === 'cdata' || x.kind === 'placeholder'), type: undefined };
  const declared = el.attributes.length ? declaredType(el, push) : undefined;
  if (declared) {
    arg.type = declared.value as ArgumentType;
    return typedValue(text, el, arg.type, declared, arg, info, path, push);
  }
  if (el.children.length === 0) {
    arg.text = textValue(text, el);
    recommendCdata(text, el, arg, info);
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
function recommendCdata(text: string, el: XmlElement, arg: ArgumentElement, info: ToolCallInfo): void {
  const v = arg.text!;
  if (arg.cdata || !v.value.includes('\n')) return;
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
