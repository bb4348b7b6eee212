// Writing tool calls in the XML form of spec section 8: CDATA sections, the
// singular of a list's key, and the rewrite of a legacy JSON call. Reading
// (./read.ts) and writing agree, so a rewritten call reads back as the
// same server, tool name and arguments; see docs/rules/legacy-json-tool-call.md.

import type { JsonNode, JsonValue } from './json.js';
import { argumentsForm, argumentsNodeForm, ArgumentsTooDeep } from './nesting.js';
import { INVALID_CHAR_RE, isXmlName, PLACEHOLDER_CLOSE, PLACEHOLDER_OPEN } from './xml.js';

/**
 * The element name for the items of a list under `key`: `files` -> `file`,
 * `entries` -> `entry`, `addresses` -> `address`; `item` when the key has no
 * plural ending.
 */
export function singularOf(key: string): string {
  let s: string | undefined;
  if (key.length > 3 && key.endsWith('ies')) s = key.slice(0, -3) + 'y';
  else if (/(?:ss|sh|ch|x|z)es$/.test(key)) s = key.slice(0, -2);
  else if (key.length > 1 && key.endsWith('s') && !/(?:ss|us|is)$/.test(key)) s = key.slice(0, -1);
  return s !== undefined && isXmlName(s) ? s : 'item';
}

/**
 * Whether elements named `child`, as the only kind of children of an element
 * named `parent`, are the items of a list (`<files><file>…</file></files>`).
 */
export function isListItemName(child: string, parent: string): boolean {
  return (
    child === 'item' ||
    child === singularOf(parent) ||
    parent === child + 's' ||
    parent === child + 'es' ||
    (parent.endsWith('ies') && parent.slice(0, -3) + 'y' === child)
  );
}

/** Text in one or more CDATA sections; `]]>` is split across two sections. */
export function cdataSection(value: string): string {
  return '<![CDATA[' + value.split(']]>').join(']]]]><![CDATA[>') + ']]>';
}

const XML_BLANK_AT_END = /^[ \t\n\r]|[ \t\n\r]$/;

/** Whether a string must be written in CDATA to read back unchanged. */
export function needsCdata(value: string): boolean {
  return (
    /[<&\n\r]/.test(value) ||
    value.includes(']]>') ||
    XML_BLANK_AT_END.test(value) ||
    value.includes(PLACEHOLDER_OPEN) ||
    value.includes(PLACEHOLDER_CLOSE)
  );
}

/**
 * Text in CDATA that reads back exactly: `]]>` is split across two
 * sections, a carriage return (which XML reads as a line feed, even in
 * CDATA) is written between sections as `&#13;`, and line feeds as `eol`.
 */
export function cdataExact(value: string, eol = '\n'): string {
  if (value === '') return '<![CDATA[]]>';
  return value
    .split('\r')
    .map((part) => (part === '' ? '' : cdataSection(eol === '\n' ? part : part.replace(/\n/g, eol))))
    .join('&#13;');
}

/** Why a string cannot be written as an XML value, or undefined when it can. */
export function unwritableString(value: string): string | undefined {
  INVALID_CHAR_RE.lastIndex = 0;
  const bad = INVALID_CHAR_RE.exec(value);
  if (bad) return `a string holds the character U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}, which XML cannot hold`;
  return undefined;
}

/** An element name for a JSON key, or why there is none. */
function keyProblem(key: string): string | undefined {
  if (!isXmlName(key) || key.includes(':')) return `the key ${JSON.stringify(key)} is not an XML element name`;
  return undefined;
}

/** JSON text of a value that XML can hold: JSON.stringify escapes control characters and lone surrogates, this U+FFFE and U+FFFF too. */
export function jsonText(value: JsonValue): string {
  return (JSON.stringify(value) ?? 'null').replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A JSON value as a node without spans, for the writer. A number that is not finite is null, as in JSON.stringify. */
function nodeOf(value: JsonValue): JsonNode {
  if (value === null) return { kind: 'null', start: 0, end: 0 };
  if (typeof value === 'string') return { kind: 'string', value, start: 0, end: 0 };
  if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'number', raw: JSON.stringify(value), start: 0, end: 0 } : { kind: 'null', start: 0, end: 0 };
  if (typeof value === 'boolean') return { kind: 'boolean', value, start: 0, end: 0 };
  if (Array.isArray(value)) return { kind: 'array', items: value.map(nodeOf), start: 0, end: 0 };
  return { kind: 'object', entries: Object.keys(value).map((key) => ({ key, keyStart: 0, keyEnd: 0, value: nodeOf(value[key]!) })), start: 0, end: 0 };
}

class Refuse extends Error {}
/** The arguments cannot be written as elements; the message says why. */
class NotElements extends Error {}

/**
 * The argument elements for an object node, one per line, indented by two
 * spaces per level after `indent` (spec section 8, "Typed values"): strings
 * as text (in CDATA when needed), numbers (as spelled), booleans and null
 * with their `type`, arrays with `type="array"` and one child per item named
 * after the singular of the key (or `item`), objects as nested elements,
 * with `type="object"` when they are empty or would otherwise read as a list.
 * Throws NotElements when a key is not an element name or a string holds a
 * character XML cannot hold.
 */
function argumentLines(args: Extract<JsonNode, { kind: 'object' }>, eol: string, indent: string, lines: string[]): void {
  const entries = (node: Extract<JsonNode, { kind: 'object' }>): void => {
    const keys = new Set<string>();
    for (const e of node.entries) {
      const why = keyProblem(e.key) ?? (keys.has(e.key) ? `the key ${JSON.stringify(e.key)} appears twice` : undefined);
      if (why) throw new NotElements(why);
      keys.add(e.key);
    }
  };
  const element = (name: string, node: JsonNode, level: number): void => {
    const pad = indent + '  '.repeat(level);
    switch (node.kind) {
      case 'string': {
        const why = unwritableString(node.value);
        if (why) throw new NotElements(why);
        lines.push(`${pad}<${name}>${needsCdata(node.value) ? cdataExact(node.value, eol) : node.value}</${name}>`);
        return;
      }
      case 'number':
        lines.push(`${pad}<${name} type="number">${node.raw}</${name}>`);
        return;
      case 'boolean':
        lines.push(`${pad}<${name} type="boolean">${node.value}</${name}>`);
        return;
      case 'null':
        lines.push(`${pad}<${name} type="null"/>`);
        return;
      case 'array': {
        if (node.items.length === 0) {
          lines.push(`${pad}<${name} type="array"/>`);
          return;
        }
        const item = singularOf(name);
        lines.push(`${pad}<${name} type="array">`);
        for (const it of node.items) element(item, it, level + 1);
        lines.push(`${pad}</${name}>`);
        return;
      }
      case 'object': {
        entries(node);
        if (node.entries.length === 0) {
          lines.push(`${pad}<${name} type="object"/>`);
          return;
        }
        // One child whose name is an item name of this one reads as a list without the type.
        const typed = node.entries.length === 1 && isListItemName(node.entries[0]!.key, name);
        lines.push(`${pad}<${name}${typed ? ' type="object"' : ''}>`);
        for (const e of node.entries) element(e.key, e.value, level + 1);
        lines.push(`${pad}</${name}>`);
        return;
      }
    }
  };
  entries(args);
  for (const e of args.entries) element(e.key, e.value, 1);
}

/** `<arguments type="json">` holding `raw` exactly. */
function rawArgumentsLine(raw: string, eol: string, indent: string): string {
  return `${indent}<arguments type="json">${raw === '' ? '' : cdataExact(raw, eol)}</arguments>`;
}

export interface LegacyCall {
  server?: JsonNode;
  tool: JsonNode;
  args?: JsonNode;
  /** The JSON text of `args` as the file spells it. */
  argsText?: string;
}

/**
 * The XML body (what goes between `<tool>` and `</tool>`) for a legacy JSON
 * call, or the reason it cannot be written so that it reads back the same.
 * `indent` is put before every element line; `eol` ends lines (and is used
 * for line breaks inside CDATA, which XML reads back as `\n`). Arguments that
 * cannot be elements (a key that is no element name, a string with a
 * character XML cannot hold, a nesting deeper than elements may be) are
 * written as `<arguments type="json">` with their JSON text as the file
 * spells it.
 */
export function legacyToXml(call: LegacyCall, eol: string, indent = ''): { body: string } | { refused: string } {
  const lines: string[] = [];
  const str = (node: JsonNode): string => {
    if (node.kind !== 'string') throw new Refuse('internal: not a string');
    const why = unwritableString(node.value);
    if (why) throw new Refuse(why);
    return needsCdata(node.value) ? cdataExact(node.value, eol) : node.value;
  };
  try {
    if (call.server) lines.push(`${indent}<server_name>${str(call.server)}</server_name>`);
    lines.push(`${indent}<tool_name>${str(call.tool)}</tool_name>`);
    if (call.args) {
      if (call.args.kind !== 'object') throw new Refuse('`arguments` is not an object');
      if (call.args.entries.length === 0) {
        lines.push(`${indent}<arguments></arguments>`);
      } else {
        const args: string[] = [];
        try {
          if (argumentsNodeForm(call.args) !== 'elements') throw new NotElements('the arguments are nested deeper than elements may be');
          argumentLines(call.args, eol, indent, args);
          lines.push(`${indent}<arguments>`, ...args, `${indent}</arguments>`);
        } catch (e) {
          if (!(e instanceof NotElements) || call.argsText === undefined) throw e;
          const why = unwritableString(call.argsText);
          if (why) throw new Refuse(`${e.message}, and ${why.replace('a string', 'the JSON text')}`);
          lines.push(rawArgumentsLine(call.argsText, eol, indent));
        }
      }
    }
  } catch (e) {
    if (e instanceof Refuse || e instanceof NotElements) return { refused: e.message };
    throw e;
  }
  return { body: eol + lines.join(eol) + eol + indent };
}

/** A call as toolElementXml takes it. */
export interface ToolElementCall {
  /** Left out when undefined (the server is then `local`). */
  server?: string;
  name: string;
  /** Written as typed argument elements; left out with rawArguments also undefined: no `<arguments>`. */
  arguments?: Record<string, JsonValue>;
  /** Written as `<arguments type="json">` exactly (it wins over `arguments`). */
  rawArguments?: string;
}

/**
 * A `<tool>` element for a call, lines ended by `\n` and no indentation
 * (spec section 8), which read.ts reads back as the same server, name and
 * arguments, types included. The arguments are typed elements; they are
 * `<arguments type="json">` holding `rawArguments` when given, or the JSON
 * text of `arguments` when a key cannot be an element name (`my key`, `1st`,
 * `a:b`), a string holds a character XML cannot hold (which JSON escapes),
 * or they are nested deeper than elements may be (argumentsForm).
 * Characters XML cannot hold in `server`, `name` or `rawArguments` (control
 * characters, U+FFFE, U+FFFF, lone surrogates; check with unwritableString)
 * are written as U+FFFD. Throws ArgumentsTooDeep, and only then, when the
 * arguments are nested deeper than even the JSON form is read back
 * (argumentsForm says `too-deep`).
 */
export function toolElementXml(call: ToolElementCall): string {
  const safe = (s: string): string => {
    INVALID_CHAR_RE.lastIndex = 0;
    return INVALID_CHAR_RE.test(s) ? s.replace(INVALID_CHAR_RE, '\uFFFD') : s;
  };
  const text = (s: string): string => {
    const v = safe(s);
    return needsCdata(v) ? cdataExact(v) : v;
  };
  const lines = ['<tool>'];
  if (call.server !== undefined) lines.push(`<server_name>${text(call.server)}</server_name>`);
  lines.push(`<tool_name>${text(call.name)}</tool_name>`);
  if (call.rawArguments !== undefined) {
    lines.push(rawArgumentsLine(safe(call.rawArguments), '\n', ''));
  } else if (call.arguments !== undefined) {
    const form = argumentsForm(call.arguments);
    if (form === 'too-deep') throw new ArgumentsTooDeep();
    if (form === 'json') {
      lines.push(rawArgumentsLine(jsonText(call.arguments), '\n', ''), '</tool>');
      return lines.join('\n');
    }
    const node = nodeOf(call.arguments);
    if (node.kind !== 'object' || node.entries.length === 0) {
      lines.push(node.kind === 'object' ? '<arguments></arguments>' : rawArgumentsLine(jsonText(call.arguments), '\n', ''));
    } else {
      const args: string[] = [];
      try {
        argumentLines(node, '\n', '', args);
        lines.push('<arguments>', ...args, '</arguments>');
      } catch (e) {
        if (!(e instanceof NotElements)) throw e;
        lines.push(rawArgumentsLine(jsonText(call.arguments), '\n', ''));
      }
    }
  }
  lines.push('</tool>');
  return lines.join('\n');
}
