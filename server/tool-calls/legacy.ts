// A `<tool>` body in the legacy JSON form (spec section 8): checked key by
// key, and when it is sound, read as a call with the XML body a rewrite
// would put in its place.

import type { CellParse } from '../syntax/format/cell.js';
import type { ToolElement } from '../syntax/format/scan.js';
import type { LegacyProblemKind, ToolCallInfo } from './facts.js';
import { jsonValue, parseJson, type JsonNode, type JsonValue } from './json.js';
import { legacyToXml } from './rewrite.js';

export function readLegacy(p: CellParse, t: ToolElement, info: ToolCallInfo, bs: number, be: number): void {
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
  // The file's line ends are the file's, not the model's: the rewrite writes its own.
  const argsText = args ? text.slice(args.start, args.end).replace(/\r\n?/g, '\n') : undefined;
  const rewrite = legacyToXml({ server, tool: tool!, args, argsText }, eolOf(p, t.start), indentOf(text, t.start));
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
