// The 107 tool-call texts of the Forge agent, each placed in a message file,
// against the verdict msglint's spec gives.
//
// The data is another project's (verbatim excerpts of the tests and docs of
// https://github.com/entrhq/forge, Apache License 2.0; each entry's `source`
// gives repo@commit:path:test), kept beside this repository in
// ../shared/external/forge-tool-calls.json and never copied into it: without
// it (a user's clone) these tests skip, saying why. Each entry has the
// `input`, what Forge's tests expect (`valid` / `invalid`), the stated
// `tool_name`, `server_name` and `arguments`, a `note` and the `scope` of the
// text. Where msglint's spec deliberately differs from Forge: a bare `&` or
// `<` in a value is not well-formed XML (`tool-xml`), where Forge escapes
// `&`; the legacy JSON form is read and reported as deprecated; a tool call
// cell holds exactly one `<tool>` (an agent reply may hold several).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/document.js';
import { toolCallsOf } from '../../server/tool-calls/index.js';
import type { JsonValue } from '../../server/tool-calls/index.js';
import { ask, call, msg, reply, result, toolFindings } from './helpers.js';

interface ForgeCase {
  source: string;
  input: string;
  expect: 'valid' | 'invalid';
  tool_name: string | null;
  server_name: string | null;
  arguments: JsonValue;
  note: string;
  scope: string;
}

// MSGLINT_SHARED names the shared folder when the repository is not beside it (a worktree elsewhere).
const SHARED = process.env.MSGLINT_SHARED ?? resolve(fileURLToPath(new URL('../..', import.meta.url)), '../shared');
const DATA = resolve(SHARED, 'external/forge-tool-calls.json');
const missing = existsSync(DATA) ? undefined : `${DATA} is absent (the data of another project stays outside this one)`;
if (missing) console.warn(`test/tool-calls/forge: skipped: ${missing}`);
const cases = missing ? [] : (JSON.parse(readFileSync(DATA, 'utf8')) as ForgeCase[]);

/** The first deliberate difference: a bare `&` in a value is an error in msglint. */
const BARE_AMPERSAND = new Set([
  "entrhq/forge@0bff338acef76663b1c00321dd13b38254087cb0:docs/adr/0024-fallback-xml-parsing-with-ampersand-escaping.md:L24-31 Context: unescaped '&&'",
]);
/** Not a difference of verdict: several plain-text lines get the cdata-recommended warning (spec section 8). */
const MULTI_LINE_PLAIN = new Set(['entrhq/forge@0bff338acef76663b1c00321dd13b38254087cb0:pkg/agent/tools/parser_integration_test.go:L258 TestXMLParserWithEntityEscaping']);

const isLegacy = (c: ForgeCase): boolean => /<tool>\s*\{/.test(c.input);
const toolCount = (c: ForgeCase): number => (c.input.match(/<tool>/g) ?? []).length;

/** The name for the metadata line: the stated one, else the first one written in the input. */
function nameOf(c: ForgeCase): string {
  return c.tool_name ?? /<tool_name>([^<]*)<\/tool_name>/.exec(c.input)?.[1] ?? /"tool_name":\s*"([^"]*)"/.exec(c.input)?.[1] ?? 'unknown';
}

/** XML gives text: the stated numbers, booleans and null read back as their spelling. */
function asText(v: JsonValue): JsonValue {
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(asText);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asText(x)]));
  return v;
}

function inCallCell(input: string, name: string): string {
  return msg(ask(), reply(), call('2.k7f3q', name, input), result());
}

const toolCases = cases.filter((c) => c.scope === 'tool_call');

describe.skipIf(missing !== undefined)('Forge tool calls in a tool call cell', () => {
  it('has the cases the data describes', () => {
    expect(cases).toHaveLength(107);
    expect(toolCases.filter((c) => c.expect === 'valid')).toHaveLength(65);
    expect(toolCases.filter((c) => c.expect === 'invalid')).toHaveLength(14);
  });

  for (const [i, c] of toolCases.entries()) {
    const label = `#${i} ${c.expect}${isLegacy(c) ? ' legacy' : ''}: ${c.source.replace(/^[^:]*:/, '')}`;
    it(label, () => {
      const text = inCallCell(c.input, nameOf(c));
      const found = toolFindings(text);
      const ids = found.map((f) => f.ruleId);
      const info = toolCallsOf(parse(text).cells[2]!);
      if (c.expect === 'invalid') {
        // Forge rejects it; msglint reports at least one error of the group.
        expect(found.filter((f) => f.diagnostic.severity === 2).length).toBeGreaterThan(0);
        return;
      }
      if (BARE_AMPERSAND.has(c.source)) {
        // Difference 1: reported, with the CDATA suggestion.
        expect(ids).toEqual(['tool-xml']);
        expect(found[0]!.text).toBe('&');
        expect(found[0]!.diagnostic.suggestions).toHaveLength(1);
        return;
      }
      if (toolCount(c) > 1) {
        // Difference 3: one call per tool call cell; several are fine in an agent reply.
        expect(ids).toEqual(['tool-xml-structure']);
        const asReply = msg(ask(), reply('2', c.input));
        expect(toolFindings(asReply)).toEqual([]);
        return;
      }
      if (isLegacy(c)) {
        // Difference 2: read, and reported as deprecated (a warning with a rewrite).
        expect(ids).toEqual(['legacy-json-tool-call']);
        expect(found[0]!.diagnostic.severity).toBe(1);
        expect(found[0]!.diagnostic.fix).toBeDefined();
      } else if (MULTI_LINE_PLAIN.has(c.source)) {
        expect(ids).toEqual(['cdata-recommended']);
        expect(found[0]!.diagnostic.severity).toBe(1);
      } else {
        expect(found.map((f) => `${f.ruleId}: ${f.message}`)).toEqual([]);
      }
      expect(info).toHaveLength(1);
      const got = info[0]!;
      expect(got.ok).toBe(true);
      if (c.tool_name !== null) expect(got.toolName).toBe(c.tool_name);
      if (c.server_name !== null) expect(got.server).toBe(c.server_name);
      // Stated arguments may be partial (the note says which were not asserted).
      if (c.arguments !== null) expect(got.arguments).toMatchObject((isLegacy(c) ? c.arguments : asText(c.arguments)) as object);
    });
  }

  it('reads a legacy call and its XML rewrite the same, types included', () => {
    for (const c of toolCases.filter((x) => x.expect === 'valid' && isLegacy(x))) {
      const text = inCallCell(c.input, nameOf(c));
      const before = toolCallsOf(parse(text).cells[2]!)[0]!;
      const f = toolFindings(text)[0]!;
      const fix = f.diagnostic.fix!;
      const fixed = text.slice(0, fix.range[0]) + fix.text + text.slice(fix.range[1]);
      expect(toolFindings(fixed)).toEqual([]);
      const after = toolCallsOf(parse(fixed).cells[2]!)[0]!;
      expect([after.form, after.server, after.toolName]).toEqual(['xml', before.server, before.toolName]);
      expect(after.arguments).toEqual(before.arguments);
    }
  });
});

describe.skipIf(missing !== undefined)('Forge argument fragments inside a tool call', () => {
  // Fragments are wrapped: `<arguments>…</arguments>` goes in a <tool> as is, a
  // single argument element inside `<arguments>`, the inner content of a call in `<tool>`.
  const fragments = cases.filter((c) => c.scope === 'arguments_fragment' || c.scope === 'tool_inner_content');
  const wrap = (c: ForgeCase): string => {
    if (c.scope === 'tool_inner_content') return `<tool>${c.input}\n</tool>`;
    const args = c.input.startsWith('<arguments') ? c.input : `<arguments>\n${c.input}\n</arguments>`;
    return `<tool>\n<tool_name>t</tool_name>\n${args}\n</tool>`;
  };
  /** A bare `&` (not a reference) in text: difference 1. */
  const bareAmp = (s: string): boolean => /&(?![a-zA-Z]+;|#[0-9]+;|#x[0-9a-fA-F]+;)/.test(s.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ''));
  /** Well-formed, but wrong for the apply_diff tool's own schema: beyond what a format linter can know. */
  const TOOL_SCHEMA = new Set(["entrhq/forge@0bff338acef76663b1c00321dd13b38254087cb0:pkg/agent/prompts/static.go:L120 ToolCallingPrompt 'WRONG - CDATA for structure'"]);

  it('has 22 of them', () => expect(fragments).toHaveLength(22));

  for (const [i, c] of fragments.entries()) {
    it(`#${i} ${c.expect}: ${c.source.replace(/^[^:]*:/, '')}`, () => {
      const name = c.scope === 'tool_inner_content' ? nameOf(c) : 't';
      const text = inCallCell(wrap(c), name);
      const found = toolFindings(text);
      if (bareAmp(c.input)) {
        expect(found.map((f) => f.ruleId)).toEqual(['tool-xml']);
        expect(found[0]!.text).toBe('&');
        return;
      }
      if (TOOL_SCHEMA.has(c.source)) {
        expect(c.expect).toBe('invalid');
        expect(found).toEqual([]);
        return;
      }
      expect(c.expect).toBe('valid');
      expect(found.map((f) => `${f.ruleId}: ${f.message}`)).toEqual([]);
      if (c.arguments !== null) expect(toolCallsOf(parse(text).cells[2]!)[0]!.arguments).toEqual(asText(c.arguments));
    });
  }
});
