// The common shape of a frontmatter, read without the YAML library's parser:
// nested block mappings of `key: value` lines whose values are plain words,
// quoted strings without escapes, numbers, booleans, null, or one-line flow
// lists of such words. Anything else (comments, block lists, multi-line or
// escaped strings, anchors, tags, tabs, repeated keys, ...) returns
// undefined, and the library reads the text as before.
//
// Why: the library lexes, parses and composes a CST first, a large share of
// linting a tree of small message files (docs/performance.md). The nodes made
// here are the library's own classes with the ranges it would give (checked
// against it by test/syntax/simple-yaml.test.ts), so nothing downstream can
// tell the two paths apart.

import type { Document, Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';

type YamlModule = typeof import('yaml');

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +|$)/;
const INT = /^-?(?:0|[1-9][0-9]{0,14})$/;
const FLOAT = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
/** Plain words the core schema reads as something other than the word. */
const SPECIAL_WORD = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL|~|[-+.]?\.?(?:inf|Inf|INF|nan|NaN|NAN))$/;

interface OpenMap {
  indent: number;
  map: YAMLMap;
  keys: Set<string>;
}

/** A scalar's value and kind, or undefined when the library must read it. */
function scalarValue(raw: string, inFlow: boolean): { value: unknown; type: Scalar.Type } | undefined {
  const c = raw.charCodeAt(0);
  if (c === 34 /* " */ || c === 39 /* ' */) {
    if (inFlow || raw.length < 2 || raw.charCodeAt(raw.length - 1) !== c) return undefined;
    const inner = raw.slice(1, -1);
    if (inner.includes(raw[0]!) || inner.includes('\\')) return undefined;
    return { value: inner, type: c === 34 ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE' };
  }
  if (raw === 'true' || raw === 'false') return { value: raw === 'true', type: 'PLAIN' };
  if (raw === 'null') return { value: null, type: 'PLAIN' };
  if (INT.test(raw)) return { value: Number.parseInt(raw, 10), type: 'PLAIN' };
  if (FLOAT.test(raw)) return { value: Number.parseFloat(raw), type: 'PLAIN' };
  // A word: a letter (or any non-ASCII character but line and byte-order
  // marks) first, then no comment, no `: `, no control character, no flow
  // indicator, no quote.
  const ok0 = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 127 && c !== 0x85 && c !== 0x2028 && c !== 0x2029 && c !== 0xfeff && c !== 0xa0);
  if (!ok0 || SPECIAL_WORD.test(raw)) return undefined;
  for (let i = 1; i < raw.length; i++) {
    const ch = raw.charCodeAt(i);
    if (ch < 32 || ch === 127 || ch === 0x85 || ch === 0x2028 || ch === 0x2029 || ch === 0xfeff) return undefined;
    if (ch === 35 /* # */ && raw.charCodeAt(i - 1) === 32) return undefined;
    if (ch === 58 /* : */ && (i + 1 === raw.length || raw.charCodeAt(i + 1) === 32)) return undefined;
    if (ch === 34 || ch === 39 || ch === 91 || ch === 93 || ch === 123 || ch === 125 || ch === 96) return undefined;
    if (inFlow && ch === 44 /* , */) return undefined;
  }
  return { value: raw, type: 'PLAIN' };
}

function scalar(Y: YamlModule, value: unknown, type: Scalar.Type, range: [number, number, number]): Scalar {
  const node = new Y.Scalar(value);
  node.type = type;
  node.range = range;
  return node;
}

/** `[a, b]` at [start, end) of source; `lineEnd`: after the line break. */
function flowList(Y: YamlModule, source: string, start: number, end: number, lineEnd: number): YAMLSeq | undefined {
  const seq = new Y.YAMLSeq();
  seq.flow = true;
  seq.range = [start, end, lineEnd];
  const inner = source.slice(start + 1, end - 1);
  if (inner.trim() === '') {
    if (inner !== '') return undefined;
    return seq;
  }
  let at = start + 1;
  for (const part of inner.split(',')) {
    const lead = part.length - part.trimStart().length;
    const raw = part.trim();
    if (raw === '') return undefined;
    const s = scalarValue(raw, true);
    if (!s) return undefined;
    const a = at + lead;
    // The library's third offset takes in the blanks after the item.
    seq.items.push(scalar(Y, s.value, s.type, [a, a + raw.length, at + part.length]));
    at += part.length + 1;
  }
  return seq;
}

/** The document the library would make of `source`, or undefined when `source` is not of the simple shape. */
export function parseSimpleYaml(Y: YamlModule, source: string): Document | undefined {
  if (source.includes('\t')) return undefined;
  const root = new Y.YAMLMap();
  const stack: OpenMap[] = [];
  /** A key whose value (a nested mapping) is on the next lines. */
  let pending: { pair: Pair; parent: OpenMap } | undefined;
  /** Nodes whose range ends where the last value ended. */
  let lastEnd = 0;
  let any = false;

  const closeMaps = (toIndent: number): boolean => {
    while (stack.length && stack[stack.length - 1]!.indent > toIndent) {
      const open = stack.pop()!;
      open.map.range![1] = open.map.range![2] = lastEnd;
    }
    return stack.length > 0 && stack[stack.length - 1]!.indent === toIndent;
  };

  let pos = 0;
  while (pos < source.length) {
    let nl = source.indexOf('\n', pos);
    const lineEnd = nl === -1 ? source.length : nl + 1;
    if (nl === -1) nl = source.length;
    const contentEnd = nl > pos && source.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    const lineStart = pos;
    pos = lineEnd;
    let indent = 0;
    while (lineStart + indent < contentEnd && source.charCodeAt(lineStart + indent) === 32) indent++;
    if (lineStart + indent === contentEnd) continue; // blank
    const line = source.slice(lineStart + indent, contentEnd);
    const m = KEY.exec(line);
    if (!m) return undefined;
    const keyStart = lineStart + indent;
    const key = m[1]!;
    // Made an own property by the library's toJS; plainValue would set the prototype.
    if (key === '__proto__') return undefined;

    let parent: OpenMap;
    if (pending) {
      // The nested mapping of the pending key: deeper than that key.
      if (indent <= pending.parent.indent) return undefined;
      const map = new Y.YAMLMap();
      map.range = [keyStart, keyStart, keyStart];
      pending.pair.value = map;
      parent = { indent, map, keys: new Set() };
      stack.push(parent);
      pending = undefined;
    } else if (!stack.length) {
      if (indent !== 0) return undefined;
      root.range = [keyStart, keyStart, keyStart];
      parent = { indent: 0, map: root, keys: new Set() };
      stack.push(parent);
    } else {
      if (!closeMaps(indent)) return undefined;
      parent = stack[stack.length - 1]!;
    }
    if (parent.keys.has(key)) return undefined;
    parent.keys.add(key);
    any = true;

    const keyNode = scalar(Y, key, 'PLAIN', [keyStart, keyStart + key.length, keyStart + key.length]);
    const pair = new Y.Pair<Node, Node | null>(keyNode, null);
    parent.map.items.push(pair);

    const valueStart = keyStart + m[0].length;
    let valueEnd = contentEnd;
    while (valueEnd > valueStart && source.charCodeAt(valueEnd - 1) === 32) valueEnd--;
    if (valueEnd === valueStart) {
      // `key:` alone: a nested mapping must follow (an empty value is the library's to read).
      pending = { pair, parent };
      continue;
    }
    let value: Node | undefined;
    if (source.charCodeAt(valueStart) === 91 /* [ */) {
      if (source.charCodeAt(valueEnd - 1) !== 93) return undefined;
      value = flowList(Y, source, valueStart, valueEnd, lineEnd);
    } else {
      const s = scalarValue(source.slice(valueStart, valueEnd), false);
      if (s) value = scalar(Y, s.value, s.type, [valueStart, valueEnd, lineEnd]);
    }
    if (!value) return undefined;
    pair.value = value;
    lastEnd = lineEnd;
  }
  if (pending || !any) return undefined;
  closeMaps(-1);
  const doc = new Y.Document();
  doc.contents = root as never;
  return doc;
}

/**
 * Where YAML text nests deeper than `max` levels, or -1: flow
 * collections (`[`, `{` outside quotes and comments) and chains of block
 * entries on one line (`- - - x`, `? ? x`). The library composes nested
 * nodes by recursion; near the end of the stack it can reach a regular
 * expression V8 has not compiled yet, and V8 then aborts the whole process
 * ("RegExpCompiler Allocation failed") instead of throwing. Indentation
 * alone cannot nest that deep in a text of a few hundred kilobytes.
 */
export function nestedTooDeep(source: string, max: number): number {
  let flow = 0;
  let lineStart = true;
  let chain = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      chain = 0;
      continue;
    }
    if (lineStart) {
      if (c === 32) continue;
      // `- ` or `? ` (or `-`/`?` at the line end) opens one more level.
      const next = source.charCodeAt(i + 1);
      if ((c === 45 || c === 63) && (next === 32 || next === 10 || next === 13 || i + 1 === source.length)) {
        if (++chain > max) return i;
        continue;
      }
      lineStart = false;
    }
    if (c === 91 || c === 123) {
      if (++flow > max) return i;
    } else if (c === 93 || c === 125) {
      if (flow > 0) flow--;
    } else if (c === 34 || c === 39) {
      // A quoted string on this line: its brackets are text.
      const close = source.indexOf(c === 34 ? '"' : "'", i + 1);
      const nl = source.indexOf('\n', i + 1);
      if (close !== -1 && (nl === -1 || close < nl)) i = close;
    } else if (c === 35 && (i === 0 || source.charCodeAt(i - 1) === 32)) {
      // A comment, to the line end.
      const nl = source.indexOf('\n', i + 1);
      if (nl === -1) break;
      i = nl - 1;
    }
  }
  return -1;
}
