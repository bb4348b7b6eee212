// Property: the legacy-json-tool-call rewrite gives back the same server,
// tool name and arguments, types included, when the XML is read again (spec
// section 8), and the rewritten file has no tool-call diagnostics. Keys that
// are no XML element names, and strings with characters XML cannot hold
// (control characters; JSON escapes them), make the rewrite write the
// arguments as `<arguments type="json">` holding their JSON text as the file
// spells it; it refuses only when that text itself holds a character XML
// cannot hold (U+FFFE, U+FFFF or a lone surrogate written raw).
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/document.js';
import { isListItemName, toolCallsOf, toolElementXml, type JsonValue } from '../../server/tool-calls/index.js';
import { check } from '../helpers.js';
import { ask, call, msg, reply, result, toolFindings } from './helpers.js';

type Json = JsonValue;

const key = fc.oneof(
  fc.stringMatching(/^[a-z_][a-z0-9_.-]{0,7}$/),
  fc.constantFrom('item', 'items', 'files', 'file', 'entries', 'entry', 'addresses', 'address', 'tool_name', 'server_name', 'arguments', '__proto__', 'Ünïcode', '名前', 'type'),
);
/** Keys that are no XML element names. */
const oddKey = fc.oneof(key, key, key, fc.constantFrom('my key', '1st', 'a:b', '', '-x', 'a<b', '\u0001'));
const piece = fc.constantFrom('a', 'Z', ' ', '  ', '\t', '\n', '<', '>', '&', '&amp;', ']', ']]', ']]>', '<![CDATA[', '"', "'", 'é', '😀', '名', 'CDATA-START[', ']CDATA-END', '</tool>', '<!--', '-->', '\n# %% x\n', '\n```\n', '`', '&#65;');
const text = fc.oneof(fc.string({ unit: piece, maxLength: 8 }), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 6 }));
const scalar = fc.oneof(text, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));

const tree = (k: fc.Arbitrary<string>) =>
  fc.letrec<{ value: Json; object: Record<string, Json>; list: Json[] }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('object'), tie('list'), fc.array(tie('object'), { minLength: 1, maxLength: 3 })),
    object: fc.dictionary(k, tie('value'), { minKeys: 0, maxKeys: 4 }),
    list: fc.array(tie('value'), { minLength: 0, maxLength: 3 }),
  })).value;
const value = tree(key);
const args = fc.oneof(fc.dictionary(key, value, { minKeys: 0, maxKeys: 5 }), fc.dictionary(oddKey, tree(oddKey), { minKeys: 0, maxKeys: 4 }));
const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/);

/** Strings the XML form cannot hold: the rewrite writes the JSON text instead. */
function unwritable(v: Json): boolean {
  if (typeof v === 'string') return /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(v);
  if (Array.isArray(v)) return v.some(unwritable);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => unwritable(k) || unwritable(x));
  return false;
}
/** What JSON.stringify leaves raw that XML cannot hold. */
const rawUnwritable = (s: string): boolean => /[\uFFFE\uFFFF]/.test(s);
const isName = (k: string): boolean => /^[A-Z_a-z\u00C0-\uFFFD][A-Z_a-z0-9.\-\u00B7\u00C0-\uFFFD]*$/.test(k) && !k.includes(':');
function oddKeys(v: Json): boolean {
  if (Array.isArray(v)) return v.some(oddKeys);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => !isName(k) || oddKeys(x));
  return false;
}
/** Whether a string anywhere holds a carriage return (written as `&#13;`, which the oracle trims at the ends of text). */
function hasCr(v: Json): boolean {
  if (typeof v === 'string') return v.includes('\r');
  if (Array.isArray(v)) return v.some(hasCr);
  if (v && typeof v === 'object') return Object.values(v).some(hasCr);
  return false;
}

/** An independent reading of the rewritten XML with fast-xml-parser: the same list rule, and the `type` attribute. */
const oracle = new XMLParser({ preserveOrder: true, cdataPropName: '#cdata', trimValues: false, parseTagValue: false, processEntities: true, htmlEntities: true, ignoreAttributes: false, parseAttributeValue: false, maxNestedTags: 300 });
type Node = Record<string, unknown>;
const typeOf = (e: Node): string | undefined => (e[':@'] as Record<string, string> | undefined)?.['@_type'];
function textOf(children: Node[]): string {
  const parts = children.map((c) => ('#text' in c ? { t: String(c['#text']), plain: true } : { t: (c['#cdata'] as Node[]).map((x) => String(x['#text'] ?? '')).join(''), plain: false }));
  if (parts.length && parts[0]!.plain) parts[0]!.t = parts[0]!.t.replace(/^[ \t\r\n]+/, '');
  if (parts.length && parts[parts.length - 1]!.plain) parts[parts.length - 1]!.t = parts[parts.length - 1]!.t.replace(/[ \t\r\n]+$/, '');
  return parts.map((p) => p.t).join('');
}
function oracleValue(children: Node[], tag: string, type: string | undefined): Json {
  const elems = children.filter((c) => !('#text' in c) && !('#cdata' in c));
  const names = elems.map((e) => Object.keys(e).find((k) => k !== ':@')!);
  const at = (i: number): Json => oracleValue(elems[i]![names[i]!] as Node[], names[i]!, typeOf(elems[i]!));
  if (type === 'number') return Number(textOf(children));
  if (type === 'boolean') return textOf(children) === 'true';
  if (type === 'null') return null;
  if (type === 'array') return elems.map((_, i) => at(i));
  if (elems.length === 0 && type !== 'object') return textOf(children);
  if (type !== 'object' && names.every((n) => n === names[0]) && isListItemName(names[0]!, tag)) return elems.map((_, i) => at(i));
  const o: Record<string, Json> = {};
  const grouped = new Set<string>();
  elems.forEach((_, i) => {
    const n = names[i]!;
    const v = at(i);
    if (!Object.prototype.hasOwnProperty.call(o, n)) Object.defineProperty(o, n, { value: v, enumerable: true, writable: true, configurable: true });
    else if (grouped.has(n)) (o[n] as Json[]).push(v);
    else {
      o[n] = [o[n]!, v];
      grouped.add(n);
    }
  });
  return o;
}
/** The arguments as the oracle reads them from a `<tool>` element's text. */
function oracleArguments(xml: string): Json {
  const tree = oracle.parse(xml) as Node[];
  const argsNode = (tree[0]!.tool as Node[]).find((c) => 'arguments' in c);
  if (!argsNode) return {};
  if (typeOf(argsNode) === 'json') return JSON.parse(textOf(argsNode.arguments as Node[])) as Json;
  return oracleValue(argsNode.arguments as Node[], 'arguments', 'object');
}
/** JSON's own normalisation (-0 is 0), which the legacy reading applies too. */
const viaJson = (v: Json): Json => JSON.parse(JSON.stringify(v)) as Json;

function legacyFile(tool: string, server: string | null, a: Record<string, Json> | null): string {
  const obj: Record<string, Json> = {};
  if (server !== null) obj.server_name = server;
  obj.tool_name = tool;
  if (a !== null) obj.arguments = a;
  // `<` escaped, so the JSON holds no markup for the scanner.
  const json = JSON.stringify(obj).replace(/</g, '\\u003c');
  return msg(ask(), reply(), call('2.k7f3q', tool, `<tool>\n${json}\n</tool>`), result());
}

describe('legacy JSON rewrite', () => {
  it('reads back the same server, tool name and arguments, types included, with no tool-call diagnostics', () => {
    let rewritten = 0;
    let raw = 0;
    fc.assert(
      fc.property(name, fc.option(name, { nil: null }), fc.option(args, { nil: null }), (tool, server, a) => {
        const text = legacyFile(tool, server, a);
        const found = toolFindings(text);
        expect(found.map((f) => f.ruleId)).toEqual(['legacy-json-tool-call']);
        const before = toolCallsOf(parse(text, { fileName: 'test.msg.md' }).cells[2]!)[0]!;
        const fix = found[0]!.diagnostic.fix;
        const value = a ?? {};
        const json = JSON.stringify(value);
        if ((unwritable(value) || oddKeys(value)) && rawUnwritable(json)) {
          expect(fix).toBeUndefined();
          expect(found[0]!.message).toMatch(/No automatic rewrite: .*, and the JSON text holds the character U\+/);
          return;
        }
        expect(fix).toBeDefined();
        const fixed = text.slice(0, fix!.range[0]) + fix!.text + text.slice(fix!.range[1]);
        rewritten++;
        expect(toolFindings(fixed).map((f) => `${f.ruleId}: ${f.message}`)).toEqual([]);
        const doc = parse(fixed, { fileName: 'test.msg.md' });
        expect(doc.cells).toHaveLength(4);
        const infos = toolCallsOf(doc.cells[2]!);
        expect(infos).toHaveLength(1);
        const info = infos[0]!;
        expect(info.form).toBe('xml');
        expect(info.toolName).toBe(tool);
        expect(info.server).toBe(server ?? 'local');
        expect(info.serverName).toBe(server ?? undefined);
        expect(info.arguments).toEqual(before.arguments);
        expect(info.arguments).toEqual(viaJson(value));
        if (unwritable(value) || oddKeys(value)) {
          raw++;
          expect(info.rawArguments?.text).toBe(a === null ? undefined : json.replace(/</g, '\\u003c'));
        } else expect(info.rawArguments).toBeUndefined();
        // Nothing left to fix.
        expect(check(fixed).filter((f) => f.diagnostic.fix)).toEqual([]);
        // fast-xml-parser reads the same values (it refuses names such as `__proto__`).
        if (/<(?:__proto__|constructor|prototype)[ >/]/.test(fixed) || hasCr(value)) return;
        const t = info.element;
        const at = doc.offsetOf(doc.cells[2]!);
        expect(oracleArguments(fixed.slice(at + t.start, at + t.end))).toEqual(viaJson(value));
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
    expect(rewritten).toBeGreaterThan(150);
    expect(raw).toBeGreaterThan(10);
  });

  it('refuses, with a reason, JSON text XML cannot hold', () => {
    fc.assert(
      fc.property(name, fc.string({ unit: fc.constantFrom('a', '\u0001', '\ufffe', '\uffff'), minLength: 1, maxLength: 4 }).filter((s) => rawUnwritable(s)), (tool, s) => {
        const found = toolFindings(legacyFile(tool, null, { s }));
        expect(found.map((f) => f.ruleId)).toEqual(['legacy-json-tool-call']);
        expect(found[0]!.diagnostic.fix).toBeUndefined();
        expect(found[0]!.message).toMatch(/U\+FFF[EF]/);
      }),
      { numRuns: 50 },
    );
  });
});

describe('toolElementXml', () => {
  it('writes a <tool> element that reads back as the same call, types included', () => {
    fc.assert(
      fc.property(name, fc.option(name, { nil: undefined }), fc.option(args, { nil: undefined }), (tool, server, a) => {
        const xml = toolElementXml({ server, name: tool, arguments: a });
        const text = msg(ask(), reply(), call('2.k7f3q', tool, xml), result());
        expect(toolFindings(text).map((f) => `${f.ruleId}: ${f.message}`)).toEqual([]);
        const info = toolCallsOf(parse(text, { fileName: 'test.msg.md' }).cells[2]!)[0]!;
        expect([info.toolName, info.server]).toEqual([tool, server ?? 'local']);
        expect(info.arguments).toEqual(viaJson(a ?? {}));
        expect(info.rawArguments !== undefined).toBe(a !== undefined && (unwritable(a) || oddKeys(a)));
        if (a === undefined) expect(info.argumentsElement).toBeUndefined();
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
    );
  });

  it('keeps raw arguments byte for byte, JSON or not', () => {
    const rawText = fc.oneof(fc.string({ unit: fc.constantFrom('{', '}', '"a"', ':', '1', ',', '[', ']', ' ', '\n', '\r', '\r\n', ']]>', '<', '&', 'é', '😀'), maxLength: 12 }), fc.json());
    fc.assert(
      fc.property(rawText, (raw) => {
        const text = msg(ask(), reply(), call('2.k7f3q', 't', toolElementXml({ name: 't', rawArguments: raw })), result());
        expect(toolFindings(text).map((f) => `${f.ruleId}: ${f.message}`)).toEqual([]);
        const info = toolCallsOf(parse(text, { fileName: 'test.msg.md' }).cells[2]!)[0]!;
        expect(info.rawArguments?.text).toBe(raw);
        let parsed: Json | undefined;
        try {
          parsed = JSON.parse(raw) as Json;
        } catch {
          parsed = undefined;
        }
        expect(info.rawArguments?.value).toEqual(parsed);
        expect(info.arguments).toEqual(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {});
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
    );
  });
});
