// Writing tool calls in the XML form of spec section 8: CDATA sections, the
// singular of a list's key, and the rewrite of a legacy JSON call. Reading
// (./read.ts) and writing agree, so a rewritten call reads back as the
// same server, tool name and arguments; see docs/rules/legacy-json-tool-call.md.

import type { JsonNode } from './json.js';
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

/** Why a string cannot be written as an XML value, or undefined when it can. */
export function unwritableString(value: string): string | undefined {
  if (value.includes('\r')) return 'a string holds a carriage return, which XML reads as a line feed';
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

export interface LegacyCall {
  server?: JsonNode;
  tool: JsonNode;
  args?: JsonNode;
}

class Refuse extends Error {}

/**
 * The XML body (what goes between `<tool>` and `</tool>`) for a legacy JSON
 * call, or the reason it cannot be written so that it reads back the same.
 * `indent` is put before every element line; `eol` ends lines (and is used
 * for line breaks inside CDATA, which XML reads back as `\n`).
 */
export function legacyToXml(call: LegacyCall, eol: string, indent = ''): { body: string } | { refused: string } {
  const lines: string[] = [];
  const str = (node: JsonNode): string => {
    if (node.kind === 'string') {
      const why = unwritableString(node.value);
      if (why) throw new Refuse(why);
      return needsCdata(node.value) ? cdataSection(node.value.replace(/\n/g, eol)) : node.value;
    }
    if (node.kind === 'number') return node.raw;
    if (node.kind === 'boolean') return String(node.value);
    if (node.kind === 'null') return 'null';
    throw new Refuse('internal: not a scalar');
  };
  const element = (name: string, node: JsonNode, level: number): void => {
    const pad = indent + '  '.repeat(level);
    if (node.kind === 'object') {
      if (node.entries.length === 0) throw new Refuse(`\`${name}\` is an empty object, which XML cannot tell from an empty string`);
      if (node.entries.length === 1 && isListItemName(node.entries[0]!.key, name)) {
        throw new Refuse(`\`${name}\` holds only \`${node.entries[0]!.key}\`, which would read back as a list`);
      }
      const keys = new Set<string>();
      for (const e of node.entries) {
        if (keys.has(e.key)) throw new Refuse(`the key ${JSON.stringify(e.key)} appears twice`);
        keys.add(e.key);
      }
      lines.push(`${pad}<${name}>`);
      for (const e of node.entries) {
        const why = keyProblem(e.key);
        if (why) throw new Refuse(why);
        element(e.key, e.value, level + 1);
      }
      lines.push(`${pad}</${name}>`);
      return;
    }
    if (node.kind === 'array') {
      if (node.items.length === 0) throw new Refuse(`\`${name}\` is an empty list, which XML cannot tell from an empty string`);
      const item = singularOf(name);
      lines.push(`${pad}<${name}>`);
      for (const it of node.items) element(item, it, level + 1);
      lines.push(`${pad}</${name}>`);
      return;
    }
    lines.push(`${pad}<${name}>${str(node)}</${name}>`);
  };
  try {
    if (call.server) lines.push(`${indent}<server_name>${str(call.server)}</server_name>`);
    lines.push(`${indent}<tool_name>${str(call.tool)}</tool_name>`);
    if (call.args) {
      if (call.args.kind !== 'object') throw new Refuse('`arguments` is not an object');
      const keys = new Set<string>();
      for (const e of call.args.entries) {
        if (keys.has(e.key)) throw new Refuse(`the key ${JSON.stringify(e.key)} appears twice`);
        keys.add(e.key);
      }
      if (call.args.entries.length === 0) {
        lines.push(`${indent}<arguments></arguments>`);
      } else {
        lines.push(`${indent}<arguments>`);
        for (const e of call.args.entries) {
          const why = keyProblem(e.key);
          if (why) throw new Refuse(why);
          element(e.key, e.value, 1);
        }
        lines.push(`${indent}</arguments>`);
      }
    }
  } catch (e) {
    if (e instanceof Refuse) return { refused: e.message };
    throw e;
  }
  return { body: eol + lines.join(eol) + eol + indent };
}
