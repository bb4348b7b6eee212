// The `type` attribute of argument elements in a `<tool>` element (spec
// section 8) in the editor: its completion and its values' hover. The reader
// of typed values is server/tool-calls' (tool-xml-structure reports a type
// that does not fit); here only where the cursor is and what a type means.

import { CompletionItemKind, type CompletionItem, type Range } from 'vscode-languageserver/node';
import type { MessageDocument, Segment } from '../syntax/document.js';
import { ARGUMENT_TYPES, RAW_ARGUMENTS_TYPE } from '../tool-calls/arg-types.js';
import type { Span } from './analysis.js';

/** What each `type` of an argument element means (spec section 8), and `json` on `<arguments>`. */
export const ARGUMENT_TYPE_DOCS: Record<string, string> = {
  number: 'The text is a JSON number: `<count type="number">3</count>`.',
  boolean: 'The text is `true` or `false`.',
  null: 'The value is null: `<none type="null"/>`.',
  array: 'A list, even with one or no child element (repeated child elements are its items).',
  object: 'An object, even with no child element.',
  [RAW_ARGUMENTS_TYPE]:
    'On `<arguments>`: the arguments exactly as the model wrote them, as JSON text in CDATA (it need not be valid). Export passes the text on where the target takes a string and parses it where it takes an object.',
};

/** Element names inside `<tool>` that are not arguments, so take no `type`. */
const TOOL_CHILDREN = new Set(['tool', 'tool_name', 'server_name']);

/**
 * Inside a `<tool>` element (outside CDATA), in the start tag of an argument
 * element: the `type` attribute (`<count t|`) or its values (`<count
 * type="|`); `<arguments>` takes only `json`. Undefined elsewhere.
 */
export function argumentTypeItems(doc: MessageDocument, seg: Segment, offset: number, prefix: string, suffix: string, range: (start: number, end?: number) => Range): CompletionItem[] | undefined {
  const p = seg.parse!;
  const rel = offset - doc.offsetOf(seg);
  const tool = p.tools.find((t) => rel > t.openTagEnd && rel <= t.closeTagStart);
  if (!tool || tool.cdata.some((c) => rel > c.start && rel < c.end)) return undefined;
  const value = /<([A-Za-z_][\w.-]*)\s+type\s*=\s*("?)([a-z]*)$/.exec(prefix);
  if (value) {
    const name = value[1]!;
    if (TOOL_CHILDREN.has(name)) return [];
    const types: readonly string[] = name === 'arguments' ? [RAW_ARGUMENTS_TYPE] : ARGUMENT_TYPES;
    const open = value[2] === '' ? '"' : '';
    const close = suffix.startsWith('"') ? '' : '"';
    return types.map((t) => ({
      label: t,
      kind: CompletionItemKind.EnumMember,
      detail: `type of <${name}>`,
      documentation: ARGUMENT_TYPE_DOCS[t],
      textEdit: { range: range(offset - value[3]!.length), newText: open + t + close },
    }));
  }
  const key = /<([A-Za-z_][\w.-]*)\s+([a-z]*)$/.exec(prefix);
  if (key && !TOOL_CHILDREN.has(key[1]!)) {
    return [
      {
        label: 'type',
        kind: CompletionItemKind.Property,
        documentation: 'The type of the value (spec section 8): without it the value is a string.',
        textEdit: { range: range(offset - key[2]!.length), newText: 'type="' },
      },
    ];
  }
  return undefined;
}

/**
 * A `type` attribute of an element inside a `<tool>` element under the
 * cursor (its name or value): what the type means.
 */
export function argumentTypeAt(doc: MessageDocument, offset: number): { text: string; span: Span } | undefined {
  const seg = doc.segmentAt(offset);
  const p = seg?.parse;
  if (!seg || !p) return undefined;
  const rel = offset - doc.offsetOf(seg);
  const tool = p.tools.find((t) => rel > t.openTagEnd && rel < t.closeTagStart);
  if (!tool || tool.cdata.some((c) => rel >= c.start && rel < c.end)) return undefined;
  // The start tag around the cursor: from the last `<` before it to the next `>`.
  const text = p.text;
  const lt = text.lastIndexOf('<', rel);
  const gt = text.indexOf('>', lt);
  if (lt < tool.openTagEnd || gt === -1 || gt < rel || text.lastIndexOf('>', rel - 1) > lt) return undefined;
  const tag = text.slice(lt, gt);
  const m = /^<([A-Za-z_][\w.-]*)[^]*?\stype\s*=\s*(["'])([^"']*)\2/.exec(tag);
  if (!m) return undefined;
  const start = lt + m.index + m[0].indexOf('type', m[1]!.length + 1);
  const end = lt + m[0].length;
  if (rel < start || rel > end) return undefined;
  const [, name, , value] = m;
  const docs = name === 'arguments' ? (value === RAW_ARGUMENTS_TYPE ? ARGUMENT_TYPE_DOCS[RAW_ARGUMENTS_TYPE] : undefined) : value !== RAW_ARGUMENTS_TYPE ? ARGUMENT_TYPE_DOCS[value!] : undefined;
  const valid = name === 'arguments' ? `\`${RAW_ARGUMENTS_TYPE}\`` : ARGUMENT_TYPES.map((t) => `\`${t}\``).join(', ');
  const body = docs ?? `\`${value}\` is not a type ${name === 'arguments' ? '`<arguments>`' : 'an argument'} may have: ${valid}.`;
  return { text: `**type="${value}"** on \`<${name}>\`: ${body}`, span: doc.abs(seg, { start, end }) };
}

