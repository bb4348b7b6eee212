// Property: the legacy-json-tool-call rewrite gives back the same server,
// tool name and arguments when the XML is read again (spec section 8), and
// the rewritten file has no tool-call diagnostics. Numbers, booleans and null
// are written as text, so they read back as their JSON spelling.
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/document.js';
import { isListItemName, toolCallsOf, type JsonValue } from '../../server/tool-calls/index.js';
import { check } from '../helpers.js';
import { ask, call, msg, reply, result, toolFindings } from './helpers.js';

type Json = JsonValue;

const key = fc.oneof(
  fc.stringMatching(/^[a-z_][a-z0-9_.-]{0,7}$/),
  fc.constantFrom('item', 'items', 'files', 'file', 'entries', 'entry', 'addresses', 'address', 'tool_name', 'server_name', 'arguments', '__proto__', 'Ünïcode', '名前'),
);
const piece = fc.constantFrom('a', 'Z', ' ', '  ', '\t', '\n', '<', '>', '&', '&amp;', ']', ']]', ']]>', '<![CDATA[', '"', "'", 'é', '😀', '名', 'CDATA-START[', ']CDATA-END', '</tool>', '<!--', '-->', '\n# %% x\n', '\n```\n', '`', '&#65;');
const text = fc.oneof(fc.string({ unit: piece, maxLength: 8 }), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 6 }));
const scalar = fc.oneof(text, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));

const { value } = fc.letrec<{ value: Json; object: Record<string, Json>; list: Json[] }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('object'), tie('list'), fc.array(tie('object'), { minLength: 1, maxLength: 3 })),
  object: fc.dictionary(key, tie('value'), { minKeys: 1, maxKeys: 4 }),
  list: fc.array(tie('value'), { minLength: 1, maxLength: 3 }),
}));
const args = fc.dictionary(key, value, { minKeys: 0, maxKeys: 5 });
const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/);

/** What reading the XML gives: text for every scalar. */
function asText(v: Json): Json {
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return v.map(asText);
  if (typeof v === 'object') {
    const o: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(o, k, { value: asText(x), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

/** Strings XML cannot hold (a CR would read back as LF). */
function unwritable(v: Json): boolean {
  if (typeof v === 'string') return /[\r\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(v);
  if (Array.isArray(v)) return v.some(unwritable);
  if (v && typeof v === 'object') return Object.values(v).some(unwritable);
  return false;
}

/** An object whose only key names list items of its own key reads back as a list: the rewrite refuses it. */
function ambiguous(v: Json, under: string): boolean {
  if (Array.isArray(v)) return v.some((x) => ambiguous(x, itemName(under)));
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 1 && isListItemName(keys[0]!, under)) return true;
    return keys.some((k) => ambiguous((v as Record<string, Json>)[k]!, k));
  }
  return false;
}
const itemName = (k: string): string => {
  if (k.length > 3 && k.endsWith('ies')) return k.slice(0, -3) + 'y';
  if (/(?:ss|sh|ch|x|z)es$/.test(k)) return k.slice(0, -2);
  if (k.length > 1 && k.endsWith('s') && !/(?:ss|us|is)$/.test(k)) return k.slice(0, -1);
  return 'item';
};

/** An independent reading of the rewritten XML with fast-xml-parser (text values only, same list rule). */
const oracle = new XMLParser({ preserveOrder: true, cdataPropName: '#cdata', trimValues: false, parseTagValue: false, processEntities: true, htmlEntities: false, ignoreAttributes: true, maxNestedTags: 300 });
type Node = Record<string, unknown>;
function oracleValue(children: Node[], tag: string, top: boolean): Json {
  const elems = children.filter((c) => !('#text' in c) && !('#cdata' in c));
  if (elems.length === 0) {
    const parts = children.map((c) => ('#text' in c ? { t: String(c['#text']), plain: true } : { t: (c['#cdata'] as Node[]).map((x) => String(x['#text'] ?? '')).join(''), plain: false }));
    if (parts.length && parts[0]!.plain) parts[0]!.t = parts[0]!.t.replace(/^[ \t\r\n]+/, '');
    if (parts.length && parts[parts.length - 1]!.plain) parts[parts.length - 1]!.t = parts[parts.length - 1]!.t.replace(/[ \t\r\n]+$/, '');
    return top ? {} : parts.map((p) => p.t).join('');
  }
  const names = elems.map((e) => Object.keys(e).find((k) => k !== ':@')!);
  if (!top && names.every((n) => n === names[0]) && isListItemName(names[0]!, tag)) {
    return elems.map((e, i) => oracleValue(e[names[i]!] as Node[], names[i]!, false));
  }
  const o: Record<string, Json> = {};
  const grouped = new Set<string>();
  elems.forEach((e, i) => {
    const n = names[i]!;
    const v = oracleValue(e[n] as Node[], n, false);
    if (!Object.prototype.hasOwnProperty.call(o, n)) Object.defineProperty(o, n, { value: v, enumerable: true, writable: true, configurable: true });
    else if (grouped.has(n)) (o[n] as Json[]).push(v);
    else {
      o[n] = [o[n]!, v];
      grouped.add(n);
    }
  });
  return o;
}

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
  it('reads back the same server, tool name and arguments, with no tool-call diagnostics', () => {
    let rewritten = 0;
    fc.assert(
      fc.property(name, fc.option(name, { nil: null }), fc.option(args, { nil: null }), (tool, server, a) => {
        const text = legacyFile(tool, server, a);
        const found = toolFindings(text);
        expect(found.map((f) => f.ruleId)).toEqual(['legacy-json-tool-call']);
        const fix = found[0]!.diagnostic.fix;
        const value = a ?? {};
        if (unwritable(value) || Object.keys(value).some((k) => ambiguous(value[k]!, k))) {
          expect(fix).toBeUndefined();
          expect(found[0]!.message).toMatch(/No automatic rewrite/);
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
        expect(info.arguments).toEqual(asText(value));
        // Nothing left to fix.
        expect(check(fixed).filter((f) => f.diagnostic.fix)).toEqual([]);
        // fast-xml-parser reads the same text values (it refuses names such as `__proto__`).
        if (/<(?:__proto__|constructor|prototype)[>/]/.test(fixed)) return;
        const t = info.element;
        const xml = fixed.slice(doc.cells[2]!.offset + t.start, doc.cells[2]!.offset + t.end);
        const tree = oracle.parse(xml) as Node[];
        const tchildren = tree[0]!.tool as Node[];
        const argsNode = tchildren.find((c) => 'arguments' in c);
        expect(argsNode ? oracleValue(argsNode.arguments as Node[], 'arguments', true) : {}).toEqual(asText(value));
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
    );
    expect(rewritten).toBeGreaterThan(100);
  });

  it('refuses, with a reason, strings XML cannot hold', () => {
    fc.assert(
      fc.property(name, fc.string({ unit: fc.constantFrom('a', '\r', '\u0001', '\u001f', '\ufffe', '\ud800'), minLength: 1, maxLength: 4 }).filter((s) => unwritable(s)), (tool, s) => {
        const found = toolFindings(legacyFile(tool, null, { s }));
        expect(found.map((f) => f.ruleId)).toEqual(['legacy-json-tool-call']);
        expect(found[0]!.diagnostic.fix).toBeUndefined();
        expect(found[0]!.message).toMatch(/carriage return|U\+/);
      }),
      { numRuns: 50 },
    );
  });
});
