// Hostile XML in a tool call cell. msglint reads `<tool>` with its own
// strict reader (server/tool-calls/xml.ts): only the five XML entities and
// character references are expanded, a DOCTYPE is an error, nesting stops at
// 256, and the reader never recurses. Each case must give a diagnostic (or,
// for a well-formed document, the value as written), expand nothing, read
// nothing from outside, and finish in bounded time (the vitest timeout; the
// measured times are far below it) through lint, --fix, the LLM view and the
// language server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lint, lintAndFix } from '../../server/linter.js';
import { exportText, toLLMView } from '../../server/export/index.js';
import { parse } from '../../server/syntax/document.js';
import { toolCallsOf } from '../../server/tool-calls/index.js';
import { LspClient } from '../lsp/client.js';
import { expectSaneDiagnostics, toolCallFile } from './gen.js';
import { removeWorkspaces, uriIn, workspace } from './lsp.js';

const LOL = ['<!DOCTYPE lolz [', '<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`), ']>'].join('\n');
const TOOL = (args: string) => `<tool>\n<server_name>local</server_name>\n<tool_name>read_file</tool_name>\n<arguments>\n${args}\n</arguments>\n</tool>`;

const cases: Record<string, { body: string; rule: string | null; message?: RegExp }> = {
  'billion laughs, DOCTYPE inside <tool>': { body: `<tool>\n${LOL}\n<tool_name>read_file</tool_name>\n<arguments><path>&lol9;</path></arguments>\n</tool>`, rule: 'tool-xml', message: /DOCTYPE is not allowed/ },
  'billion laughs, DOCTYPE before <tool>': { body: `${LOL}\n${TOOL('<path>&lol9;</path>')}`, rule: 'tool-xml', message: /`&lol9;` is not an XML entity/ },
  'an external entity (XXE)': { body: `<!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n${TOOL('<path>&xxe;</path>')}`, rule: 'tool-xml', message: /`&xxe;` is not an XML entity/ },
  'an external entity inside <tool>': { body: `<tool>\n<!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<tool_name>read_file</tool_name>\n<arguments><path>&xxe;</path></arguments>\n</tool>`, rule: 'tool-xml', message: /DOCTYPE/ },
  'a parameter entity': { body: `<tool>\n<!DOCTYPE x [ <!ENTITY % p SYSTEM "http://example.invalid/x.dtd"> %p; ]>\n<tool_name>read_file</tool_name>\n</tool>`, rule: 'tool-xml', message: /DOCTYPE/ },
  '100,000 nested elements': { body: TOOL(`${'<a>'.repeat(100_000)}x${'</a>'.repeat(100_000)}`), rule: 'tool-xml', message: /nested more than 256 deep/ },
  '100,000 nested elements, never closed': { body: TOOL('<a>'.repeat(100_000)), rule: 'tool-xml', message: /nested more than 256 deep/ },
  '100,000 nested <tool> elements': { body: '<tool>'.repeat(100_000), rule: 'tool-xml' },
  '100,000 nested JSON arrays in the legacy form': { body: `<tool>\n{"name": "read_file", "arguments": {"path": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}\n</tool>`, rule: 'legacy-json-invalid', message: /nested more than 256 deep/ },
  'a 20 MB CDATA section': { body: TOOL(`<path><![CDATA[${'x'.repeat(20 * 1024 * 1024)}]]></path>`), rule: null },
  'a 20 MB CDATA section that is never closed': { body: TOOL(`<path><![CDATA[${'x<&'.repeat(7 * 1024 * 1024)}</path>`), rule: 'cdata-unterminated' },
  '100,000 CDATA sections': { body: TOOL(`<path>${'<![CDATA[a]]>'.repeat(100_000)}</path>`), rule: null },
  '100,000 attributes': { body: TOOL(`<path ${Array.from({ length: 100_000 }, (_, i) => `a${i}="1"`).join(' ')}>x</path>`), rule: 'tool-xml-structure', message: /The attribute `a0` is not allowed on `<path>`[^]*99,000 more/ },
  '100,000 attributes on <tool>': { body: `<tool ${Array.from({ length: 100_000 }, (_, i) => `a${i}="1"`).join(' ')}>\n<tool_name>read_file</tool_name>\n</tool>`, rule: null },
  '100,000 typed items': { body: TOOL(`<list type="array">${'<item type="number">1</item><item type="object"/><item type="null"/>'.repeat(100_000)}</list>`), rule: null },
  '100,000 values that do not fit their type': { body: TOOL('<n type="number">x</n>'.repeat(100_000)), rule: 'tool-xml-structure', message: /holds `x`/ },
  '100,000 elements in <arguments type="json">': { body: `<tool>\n<tool_name>read_file</tool_name>\n<arguments type="json">${'<a type="bad"/>'.repeat(100_000)}</arguments>\n</tool>`, rule: 'tool-xml-structure', message: /holds the arguments as JSON text/ },
  'a 10 MB <arguments type="json">': { body: `<tool>\n<tool_name>read_file</tool_name>\n<arguments type="json"><![CDATA[${'['.repeat(300)}${'{"a": 1, "b": [true, null, "x"]}, '.repeat(300_000)}]]></arguments>\n</tool>`, rule: null },
  '100,000 character references': { body: TOOL(`<path>${'&#65;&amp;&#x1F600;'.repeat(100_000)}</path>`), rule: null },
  'a character reference out of range': { body: TOOL('<path>&#x110000;&#0;</path>'), rule: 'tool-xml' },
  '20,000 <tool> elements in one cell': { body: `${TOOL('<path>a</path>')}\n`.repeat(20_000), rule: 'tool-xml-structure' },
};

describe('adversarial XML in a tool call cell', () => {
  for (const [name, { body, rule, message }] of Object.entries(cases)) {
    it(`${name}: ${rule ? `reported by ${rule}` : 'read as written'}, nothing expanded, bounded`, () => {
      const text = toolCallFile(body);
      const result = lint(text, { fileName: 'xml.msg.md' });
      expectSaneDiagnostics(text, result.diagnostics);
      if (rule) {
        const found = result.diagnostics.filter((d) => d.ruleId === rule);
        expect(found.length, `${rule} in ${JSON.stringify(result.diagnostics.map((d) => [d.ruleId, d.message]))}`).toBeGreaterThan(0);
        if (message) expect(found.map((d) => d.message).join('\n')).toMatch(message);
      } else {
        expect(result.diagnostics.filter((d) => d.ruleId.startsWith('tool-') || d.ruleId.startsWith('cdata-'))).toEqual([]);
      }
      // Nothing expanded, nothing read from outside.
      const doc = parse(text, { fileName: 'xml.msg.md' });
      const call = doc.cells.find((c) => c.id === '2.k7f3q')!;
      for (const info of toolCallsOf(call)) {
        const args = JSON.stringify(info.arguments);
        expect(args).not.toMatch(/lollol|root:x:0:0/);
        expect(args.length).toBeLessThan(text.length * 2 + 100);
      }
      if (name === 'a 20 MB CDATA section') {
        expect((toolCallsOf(call)[0]!.arguments.path as string).length).toBe(20 * 1024 * 1024);
      }
      // The fixer and the LLM view take the same input.
      const fixed = lintAndFix(text, { fileName: 'xml.msg.md' });
      expectSaneDiagnostics(fixed.text, fixed.diagnostics);
      const view = toLLMView(text, { fileName: 'xml.msg.md' });
      const exported = exportText(view, 'openai');
      expect(exported).not.toMatch(/lollol|root:x:0:0/);
    });
  }
});

describe('adversarial XML in the language server', () => {
  let client: LspClient;
  let dir: string;
  beforeAll(async () => {
    dir = workspace();
    client = await LspClient.start({ rootDir: dir });
  });
  afterAll(async () => {
    await client?.stop();
    removeWorkspaces();
  });

  it('serves every feature on the nested, the entity and the large cases, and keeps serving', async () => {
    for (const name of ['billion laughs, DOCTYPE inside <tool>', '100,000 nested elements', '100,000 nested <tool> elements', 'a 20 MB CDATA section that is never closed']) {
      const text = toolCallFile(cases[name]!.body);
      const uri = uriIn(dir, 'xml.msg.md');
      await client.open(uri, text, 1);
      const textDocument = { uri };
      const position = { line: 20, character: 10 };
      const report = await client.pull(uri);
      expect(report.items?.some((d) => d.code === cases[name]!.rule), name).toBe(true);
      for (const [method, params] of [
        ['textDocument/hover', { textDocument, position }],
        ['textDocument/completion', { textDocument, position }],
        ['textDocument/documentSymbol', { textDocument }],
        ['textDocument/foldingRange', { textDocument }],
        ['textDocument/semanticTokens/full', { textDocument }],
        ['textDocument/codeAction', { textDocument, range: { start: position, end: position }, context: { diagnostics: [] } }],
        ['textDocument/formatting', { textDocument, options: { tabSize: 2, insertSpaces: true } }],
      ] as const) {
        await expect(client.request(method, params), `${method} on ${name}`).resolves.toBeDefined();
      }
      await client.close(uri);
    }
    expect(client.alive).toBe(true);
    expect(client.errorLogs).toEqual([]);
  });
});
