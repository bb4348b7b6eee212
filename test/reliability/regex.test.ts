// No catastrophic backtracking: 100,000-character runs of the characters the
// format gives meaning to, in every part of a file (marker line, metadata
// line, body, frontmatter, tool element, directives, headings), through
// parse, lint, --fix and the language server's features at the run (where
// completion matches the line before the cursor). Quadratic work on such a
// run takes seconds to minutes, far past the vitest timeout; linear work
// takes milliseconds. Also: the linear rewrites of two completion regular
// expressions that were quadratic match exactly what the expressions match.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lint, lintAndFix } from '../../server/linter.js';
import { attributeValueAtEnd, toolNameIn } from '../../server/lsp/line-scan.js';
import { parse } from '../../server/syntax/document.js';
import { LspClient } from '../lsp/client.js';
import { expectLossless, expectSaneDiagnostics, runs, toolCallFile } from './gen.js';
import { removeWorkspaces, uriIn, workspace } from './lsp.js';

const N = 100_000;
/** The characters, then others with a meaning somewhere in the format. */
const REQUIRED = ['#', '%', '[', '"', "'", ' ', '`', '<', '-'];
const MORE = [']', '^', '=', '\\', '&', '!', '*', '_', '.', ':', '\t', '~', '>', '/', '{', '|', 'a', '1', '\n', '\r\n', '\r'];

/** Where a run goes: RUN is replaced by the run; `.md` positions are linted as a section file. */
const POSITIONS: Record<string, string> = {
  'marker line, before the marker': 'RUN# %% T[^1]\n\n[^1]: [markdown]\n\nHi.\n',
  'marker line, after the percents': '# %%RUN\n\n[^1]: [markdown]\n\nHi.\n',
  'marker line, in the title': '# %% RUN[^1]\n\n[^1]: [markdown]\n\nHi.\n',
  'marker line, in the id': '# %% T[^1RUN]\n\n[^1]: [markdown]\n\nHi.\n',
  'metadata line, in the id': '# %% T[^1]\n\n[^1RUN: [markdown]\n\nHi.\n',
  'metadata line, in the type': '# %% T[^1]\n\n[^1]: [RUN]\n\nHi.\n',
  'metadata line, after the type': '# %% T[^1]\n\n[^1]: [markdown] RUN\n\nHi.\n',
  'metadata line, in a key': '# %% T[^1]\n\n[^1]: [markdown] aRUN=1\n\nHi.\n',
  'metadata line, in a quoted value': '# %% T[^1]\n\n[^1]: [markdown] summary="RUN"\n\nHi.\n',
  'metadata line, in an unclosed value': '# %% T[^1]\n\n[^1]: [markdown] summary="RUN\n\nHi.\n',
  'body, a line of its own': '# %% T[^1]\n\n[^1]: [markdown]\n\nRUN\n',
  'body, inside a line': '# %% T[^1]\n\n[^1]: [markdown]\n\nx RUN y\n',
  'body, in a code block': '# %% T[^1]\n\n[^1]: [code]\n\n```python\nRUN\n```\n',
  'body, a code output': '# %% T[^1]\n\n[^1]: [code]\n\n```python\nprint(1)\n```\n\n# %%% [^1.1]\n\n[^1.1]: [python]\n\nstdout> RUN\n',
  'frontmatter, a value': '---\nagents:\n  coder:\n    system_prompt: RUN\n---\n\n# %% T[^1]\n\n[^1]: [markdown]\n\nHi.\n',
  'frontmatter, a key': '---\nRUN: 1\n---\n\n# %% T[^1]\n\n[^1]: [markdown]\n\nHi.\n',
  'frontmatter, a line': '---\nRUN\n---\n\n# %% T[^1]\n\n[^1]: [markdown]\n\nHi.\n',
  'tool element, an argument': toolCallFile('<tool>\n<tool_name>read_file</tool_name>\n<arguments><path>RUN</path></arguments>\n</tool>'),
  'tool element, the tool name': toolCallFile('<tool>\n<tool_name>xRUNy</tool_name>\n</tool>'),
  'tool element, a start tag': toolCallFile('<tool RUN>\n<tool_name>read_file</tool_name>\n</tool>'),
  'tool element, CDATA': toolCallFile('<tool>\n<tool_name>read_file</tool_name>\n<arguments><path><![CDATA[RUN]]></path></arguments>\n</tool>'),
  'tool element, legacy JSON': toolCallFile('<tool>\n{"name": "read_file", "arguments": {"path": "RUN"}}\n</tool>'),
  'tool cell, bare': toolCallFile('RUN'),
  'a directive comment': '<!-- msglint-disable RUN -->\n# %% T[^1]\n\n[^1]: [markdown]\n\nHi.\n',
  'a section heading (.md)': '---\nmessage_section: RUN\n---\n\n# RUN\n\n# %% T[^1]\n\n[^1]: [markdown]\n\nHi.\n',
};

function check(template: string, ch: string, n = N): void {
  const text = template.split('RUN').join(ch.repeat(Math.ceil(n / ch.length)));
  const fileName = template.includes('message_section') ? 'runs.md' : 'runs.msg.md';
  expectLossless(parse(text, { fileName }), text);
  expectSaneDiagnostics(text, lint(text, { fileName }).diagnostics);
  const fixed = lintAndFix(text, { fileName });
  expectSaneDiagnostics(fixed.text, fixed.diagnostics);
}

describe('100,000-character runs through parse, lint and --fix', () => {
  for (const [where, template] of Object.entries(POSITIONS)) {
    // The YAML parser reports one error per stray flow indicator (`]`, `"`, `{`),
    // 100,000 errors in seconds; reported, and kept to 20,000 here (see yaml.adversarial.test.ts).
    const yaml = where.startsWith('frontmatter') || where.endsWith('(.md)');
    it(`${where}: ${REQUIRED.join(' ')}`, () => {
      for (const ch of REQUIRED) check(template, ch, yaml && '["\''.includes(ch) ? 20_000 : N);
    }, 20_000);
    it(`${where}: other characters`, () => {
      for (const ch of MORE) check(template, ch, yaml ? 20_000 : N);
    }, 20_000);
  }
});

describe('100,000-character runs in the language server', () => {
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

  for (const [where, template] of Object.entries(POSITIONS)) {
    it(`${where}: completion, hover, tokens, symbols, folding and code actions at the run`, async () => {
      const yaml = where.startsWith('frontmatter') || where.endsWith('(.md)');
      for (const ch of [...REQUIRED, 'a', '=', '\t']) {
        const text = template.split('RUN').join(ch.repeat(yaml ? 20_000 : N));
        const name = template.includes('message_section') ? 'runs.md' : 'runs.msg.md';
        const uri = uriIn(dir, name);
        await client.open(uri, text, 1);
        const doc = TextDocument.create(uri, 'markdown', 1, text);
        const at = template.indexOf('RUN');
        const textDocument = { uri };
        // In the run, at its end (where completion reads the whole run as the line's prefix) and after it.
        for (const offset of [at + 1, at + Math.floor(N / 2), at + (text.length - template.length + 3), at + (text.length - template.length + 3) + 1]) {
          const position = doc.positionAt(Math.min(offset, text.length));
          await client.request('textDocument/completion', { textDocument, position });
          await client.request('textDocument/hover', { textDocument, position });
          await client.request('textDocument/definition', { textDocument, position });
          await client.request('textDocument/codeAction', { textDocument, range: { start: position, end: position }, context: { diagnostics: [] } });
        }
        await client.pull(uri);
        await client.request('textDocument/semanticTokens/full', { textDocument });
        await client.request('textDocument/documentSymbol', { textDocument });
        await client.request('textDocument/foldingRange', { textDocument });
        await client.close(uri);
      }
      expect(client.alive).toBe(true);
      expect(client.errorLogs).toEqual([]);
      // Each takes well under a second; the quadratic completion expression took 11 s here.
    }, 8_000);
  }
});

describe('linear rewrites of quadratic regular expressions (server/lsp/completion.ts)', () => {
  const VALUE_RE = /([A-Za-z][\w-]*)=("?)([^"\s]*)$/;
  const TOOL_NAME_RE = /<tool_name>\s*([^<\s][^<]*?)\s*<\/tool_name>/;

  it('attributeValueAtEnd finds what /([A-Za-z][\\w-]*)=("?)([^"\\s]*)$/ finds', () => {
    const s = fc.array(fc.constantFrom('a', 'Z', 'k', '1', '_', '-', '=', '"', ' ', '\t', '\n', 'é', '.', '[', ']'), { maxLength: 24 }).map((a) => a.join(''));
    fc.assert(
      fc.property(s, (prefix) => {
        const m = VALUE_RE.exec(prefix);
        expect(attributeValueAtEnd(prefix), JSON.stringify(prefix)).toEqual(m ? [m[1], m[2], m[3]] : undefined);
      }),
      { numRuns: runs(20_000) },
    );
  });

  it('toolNameIn finds what /<tool_name>\\s*([^<\\s][^<]*?)\\s*<\\/tool_name>/ finds', () => {
    const s = fc.array(fc.constantFrom('<tool_name>', '</tool_name>', '<', '>', ' ', '\n', '\u00a0', 'x', 'y', '/', 'tool_name'), { maxLength: 16 }).map((a) => a.join(''));
    fc.assert(
      fc.property(s, (text) => {
        expect(toolNameIn(text), JSON.stringify(text)).toBe(TOOL_NAME_RE.exec(text)?.[1]);
      }),
      { numRuns: runs(20_000) },
    );
  });

  it('both are linear on the inputs that made the expressions quadratic', () => {
    expect(attributeValueAtEnd('[^1]: [markdown] ' + 'a'.repeat(1_000_000))).toBeUndefined();
    expect(attributeValueAtEnd('[^1]: [markdown] ' + 'a=a'.repeat(300_000) + '"x')).toBeUndefined();
    expect(toolNameIn('<tool_name>x' + ' '.repeat(1_000_000) + 'y</tool_name>')).toBe('x' + ' '.repeat(1_000_000) + 'y');
    expect(toolNameIn('<tool_name>x' + ' '.repeat(1_000_000))).toBeUndefined();
  });
});
