// What the writer takes from the layers below it, in one place: the body
// escapes of spec section 6 (helper h2's `escapeBody`) and the `<tool>`
// element writer with typed values of section 8 (helper h1's
// `toolElementXml`). Until those branches are merged this file holds
// stand-ins with the same signatures.

import type { JsonValue } from '../tool-calls/index.js';
import { cdataSection, isXmlName, needsCdata, singularOf } from '../tool-calls/index.js';

const MARKER_LIKE = /^[ ]{0,3}#+[ \t]*%%/;
const METADATA_LIKE = /^[ ]{0,3}\[\^[^\]\n]*\]:/;

/** Stand-in for h2's escapeBody: a backslash before lines read as markers or metadata (and a leading `[` paragraph). */
export function escapeBody(text: string, options: { replyStart?: boolean } = {}): string {
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      const bare = line.replace(/^\\+/, '');
      if (MARKER_LIKE.test(bare) || METADATA_LIKE.test(bare)) return `\\${line}`;
      if (i === 0 && options.replyStart && /^[ ]{0,3}\\*\[/.test(line)) return `\\${line}`;
      return line;
    })
    .join('\n');
}

export interface ToolElementCall {
  server?: string;
  name: string;
  arguments?: Record<string, JsonValue>;
  rawArguments?: string;
}

/** Stand-in for h1's toolElementXml: a `<tool>` element whose arguments read back with their types. */
export function toolElementXml(call: ToolElementCall): string {
  const text = (s: string) => (needsCdata(s) ? cdataSection(s) : s);
  const lines = ['<tool>'];
  if (call.server !== undefined && call.server !== 'local') lines.push(`<server_name>${text(call.server)}</server_name>`);
  lines.push(`<tool_name>${text(call.name)}</tool_name>`);
  const keysOk = (v: JsonValue): boolean =>
    v === null || typeof v !== 'object' ? true : Array.isArray(v) ? v.every(keysOk) : Object.entries(v).every(([k, x]) => isXmlName(k) && !k.includes(':') && keysOk(x));
  if (call.rawArguments !== undefined || (call.arguments && !keysOk(call.arguments))) {
    const raw = call.rawArguments ?? JSON.stringify(call.arguments);
    lines.push(`<arguments type="json">${cdataSection(raw)}</arguments>`);
  } else if (call.arguments && Object.keys(call.arguments).length) {
    lines.push('<arguments>');
    const el = (name: string, v: JsonValue, pad: string): void => {
      if (v === null) lines.push(`${pad}<${name} type="null"/>`);
      else if (typeof v === 'number' || typeof v === 'boolean') lines.push(`${pad}<${name} type="${typeof v}">${String(v)}</${name}>`);
      else if (typeof v === 'string') lines.push(`${pad}<${name}>${text(v)}</${name}>`);
      else if (Array.isArray(v)) {
        lines.push(`${pad}<${name} type="array">`);
        for (const x of v) el(singularOf(name), x, pad + '  ');
        lines.push(`${pad}</${name}>`);
      } else {
        lines.push(`${pad}<${name} type="object">`);
        for (const [k, x] of Object.entries(v)) el(k, x, pad + '  ');
        lines.push(`${pad}</${name}>`);
      }
    };
    for (const [k, v] of Object.entries(call.arguments)) el(k, v, '  ');
    lines.push('</arguments>');
  } else {
    lines.push('<arguments></arguments>');
  }
  lines.push('</tool>');
  return lines.join('\n');
}
