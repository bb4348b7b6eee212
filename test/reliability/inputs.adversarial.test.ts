// Hostile files through the command line (a process on temporary
// directories) and the library: a 50 MB file, a 5 MB line in every part of a
// cell, NUL bytes, bytes that are not UTF-8, lone surrogates, mixed line
// breaks. Each gives a result (exit 0 or 1, a parseable report, no stack
// trace) in bounded time: the CLI runs with a kill timeout, the library
// under the vitest timeout.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint, lintAndFix } from '../../server/linter.js';
import { parse } from '../../server/syntax/document.js';
import { cleanupTempDirs, makeTree, run, STACK_FRAME, type RunResult } from '../cli/helpers.js';
import { bigConversation, expectLossless, expectSaneDiagnostics, toolCallFile } from './gen.js';

afterAll(cleanupTempDirs);

const MB = 1024 * 1024;

/** A CLI run that must give a result: exit 0 or 1, a JSON report, no stack trace. */
function expectResult(result: RunResult): { filePath: string; messages: { ruleId: string; message: string }[]; output?: string }[] {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stderr).not.toMatch(/internal error/);
  expect([0, 1], `exit ${result.status}; stderr: ${result.stderr.slice(0, 500)}`).toContain(result.status);
  const reports = JSON.parse(result.stdout);
  for (const r of reports) for (const m of r.messages) expect(m.message).not.toMatch(/^Internal error in rule/);
  return reports;
}

/** Library: parse, lint and fix; every invariant. */
function expectLibraryResult(text: string, fileName = 'input.msg.md'): void {
  expectLossless(parse(text, { fileName }), text);
  expectSaneDiagnostics(text, lint(text, { fileName }).diagnostics);
  const fixed = lintAndFix(text, { fileName });
  expectSaneDiagnostics(fixed.text, fixed.diagnostics);
}

describe('large files through the CLI', () => {
  it('a 50 MB file of 500 large cells (tool calls, code, long outputs)', () => {
    const cell = (i: number) =>
      `# %% Ask ${i}[^${i}]\n\n[^${i}]: [markdown]\n\n${'Some prose of the question, a line of it.\n'.repeat(2_000)}\n` +
      `# %% Run ${i}[^${i}a]\n\n[^${i}a]: [code]\n\n\`\`\`python\n${'print("a line of code")\n'.repeat(400)}\`\`\`\n\n` +
      `# %%% [^${i}a.1]\n\n[^${i}a.1]: [python] status="success" mime_type="text/plain"\n\n${'stdout> output\n'.repeat(800)}\n`;
    const parts: string[] = [];
    let size = 0;
    for (let i = 1; size < 50 * MB; i++) {
      const c = cell(i).replace(/\[\^(\d+)a/g, (_, n: string) => `[^${Number(n) + 100_000}`);
      parts.push(c);
      size += c.length;
    }
    const dir = makeTree({ 'big.msg.md': parts.join('') });
    const reports = expectResult(run(['--format', 'json', 'big.msg.md'], { cwd: dir, timeout: 120_000 }));
    expect(reports).toHaveLength(1);
  }, 180_000);

  it('a 10 MB conversation of 20,000 cells', () => {
    const dir = makeTree({ 'long.msg.md': bigConversation(10 * MB) });
    const reports = expectResult(run(['--format', 'json', 'long.msg.md'], { cwd: dir, timeout: 120_000 }));
    // Clean but for the context window, which such a conversation exceeds.
    expect(new Set(reports[0]!.messages.map((m) => m.ruleId))).toEqual(new Set(['context-window']));
  }, 180_000);

  it('--fix on a 10 MB file with a fix in every cell', () => {
    // Every marker line loses its space (the example's `# %%` inside a code block is code, not a marker).
    const text = bigConversation(10 * MB).replace(/^# %%(?! this comment is code)/gm, '#%%');
    const dir = makeTree({ 'fix.msg.md': text });
    expectResult(run(['--format', 'json', '--fix', 'fix.msg.md'], { cwd: dir, timeout: 120_000 }));
    const fixed = readFileSync(path.join(dir, 'fix.msg.md'), 'utf8');
    expect(fixed).toBe(text.replace(/^#%%(?! this comment is code)/gm, '# %%'));
  }, 180_000);
});

describe('a 5 MB line', () => {
  const LINE = 'abc # % [ " \' ` < - = ^ ] '.repeat(Math.ceil((5 * MB) / 26));
  const places: Record<string, string> = {
    'in a cell body': `# %% Q[^1]\n\n[^1]: [markdown]\n\n${LINE}\n`,
    'as the whole file, without a line break': LINE,
    'in a marker line': `# %% ${LINE}[^1]\n\n[^1]: [markdown]\n\nHi.\n`,
    'in a metadata line': `# %% Q[^1]\n\n[^1]: [markdown] summary="${LINE}\n\nHi.\n`,
    'in the frontmatter': `---\ntitle: ${LINE.replace(/[[\]"'`#%^]/g, 'x')}\n---\n\n# %% Q[^1]\n\n[^1]: [markdown]\n\nHi.\n`,
    'in a tool call': toolCallFile(`<tool>\n<tool_name>read_file</tool_name>\n<arguments><path>${LINE}</path></arguments>\n</tool>`),
    'in a code block': `# %% Q[^1]\n\n[^1]: [code]\n\n\`\`\`python\n${LINE}\n\`\`\`\n`,
  };
  for (const [where, text] of Object.entries(places)) {
    it(`${where}: the library`, () => expectLibraryResult(text));
  }
  it('through the CLI, with --fix', () => {
    // Not the metadata line: it is 800,000 metadata-syntax errors (one per
    // stray quote or word), a 150 MB JSON report.
    const files = Object.fromEntries(
      Object.entries(places)
        .filter(([where]) => where !== 'in a metadata line')
        .map(([, text], i) => [`line-${i}.msg.md`, text] as const),
    );
    const dir = makeTree(files);
    const reports = expectResult(run(['--format', 'json', '--fix', '.'], { cwd: dir, timeout: 120_000 }));
    expect(reports).toHaveLength(Object.keys(files).length);
  }, 180_000);
});

describe('bytes and characters', () => {
  const CLEAN = '# %% Q[^1]\n\n[^1]: [markdown]\n\nHi.\n';
  const files: Record<string, Buffer | string> = {
    'nul-only.msg.md': Buffer.alloc(MB),
    'nul-in-marker.msg.md': `# %%\u0000 Q[^1\u0000]\n\n[^1\u0000]: [mark\u0000down] a="\u0000"\n\nHi\u0000.\n`,
    'nul-in-tool.msg.md': toolCallFile('<tool>\n<tool_name>read\u0000file</tool_name>\n<arguments><path><![CDATA[\u0000]]></path></arguments>\n</tool>'),
    'invalid-utf8.msg.md': Buffer.concat([Buffer.from('#%% Q[^1]\n\n[^1]: [markdown]\n\n'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0xed, 0xa0, 0x80]), Buffer.from('\n')]),
    'overlong-utf8.msg.md': Buffer.concat([Buffer.from(CLEAN), Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf, 0xf8, 0x88, 0x80, 0x80, 0x80, 0x0a])]),
    'encoded-surrogates.msg.md': Buffer.concat([Buffer.from('# %% Q[^1]\n\n[^1]: [markdown] summary="'), Buffer.from([0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80]), Buffer.from('"\n\nHi.\n')]),
    'utf16le-bom.msg.md': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CLEAN, 'utf16le')]),
    'mixed-line-breaks.msg.md': '#%% A[^1]\r\n\r\n[^1]: [markdown]\n\nHi.\r\n\r# %% B[^2]\n\r\n[^2]: [markdown]\r\rHo.\n\r\n',
    'only-cr.msg.md': CLEAN.replace(/\n/g, '\r'),
    'bom-crlf.msg.md': '\ufeff' + CLEAN.replace(/\n/g, '\r\n').replace('# %%', '#%%'),
  };

  it('NUL bytes, invalid and overlong UTF-8, encoded surrogates, UTF-16, mixed line breaks: a result from the CLI', () => {
    const dir = makeTree(files);
    const reports = expectResult(run(['--format', 'json', '.'], { cwd: dir, timeout: 60_000 }));
    expect(reports.map((r) => path.basename(r.filePath)).sort()).toEqual(Object.keys(files).sort());
  });

  it('--fix writes no file that was not valid UTF-8, and fixes the others keeping their line breaks', () => {
    const dir = makeTree(files);
    const result = run(['--format', 'json', '--fix', '.'], { cwd: dir, timeout: 60_000 });
    expectResult(result);
    for (const name of ['invalid-utf8.msg.md', 'overlong-utf8.msg.md', 'encoded-surrogates.msg.md', 'utf16le-bom.msg.md', 'nul-only.msg.md']) {
      expect(readFileSync(path.join(dir, name)).equals(Buffer.isBuffer(files[name]) ? (files[name] as Buffer) : Buffer.from(files[name] as string)), name).toBe(true);
    }
    expect(result.stderr).toMatch(/invalid-utf8\.msg\.md: not valid UTF-8; linted, but fixes are not applied/);
    // A fix keeps the file's CRLF line breaks and its BOM.
    const bom = readFileSync(path.join(dir, 'bom-crlf.msg.md'), 'utf8');
    expect(bom).toBe('\ufeff' + CLEAN.replace(/\n/g, '\r\n'));
    const mixed = readFileSync(path.join(dir, 'mixed-line-breaks.msg.md'), 'utf8');
    expect(mixed).toBe((files['mixed-line-breaks.msg.md'] as string).replace('#%%', '# %%'));
  });

  it('lone surrogates (only possible in text from the library or the editor)', () => {
    for (const text of [
      `# %% \ud800 Q[^1]\n\n[^1]: [markdown] summary="\udfff"\n\nHi \ud83d.\n`,
      `# %% Q[^\ud800]\n\n[^\ud800]: [\udc00]\n\n\udc00\ud800\n`,
      toolCallFile('<tool>\n<tool_name>read_file</tool_name>\n<arguments><path>\ud800</path><x><![CDATA[\udfff]]></x></arguments>\n</tool>'),
      `---\nagents:\n  \ud800:\n    models: ["\udfff"]\n---\n\n# %%% R[^1]\n\n[^1]: [\ud800]\n\nHi.\n`,
      '\ud800'.repeat(100_000),
      '\udc00\ud800'.repeat(100_000),
    ]) {
      expectLibraryResult(text);
    }
  });

  it('every line break style on every line of the corpus examples', () => {
    const base = bigConversation(20_000);
    const styles = ['\n', '\r\n', '\r', '\n\r'];
    let i = 0;
    const mixed = base.replace(/\n/g, () => styles[i++ % styles.length]!);
    expectLibraryResult(mixed);
    expectLibraryResult(mixed, 'mixed.md');
  });
});

describe('more items than a call has arguments', () => {
  it('a metadata line with 300,000 attributes in optional brackets parses and lints', () => {
    const text = '# %% [^1]\n\n[^1]: [markdown] [' + 'a=1 '.repeat(300_000) + ']\n\nx\n';
    const doc = parse(text, { fileName: 'a.msg.md' });
    expect(doc.cell(0)!.parse.metadata[0]!.attributes).toHaveLength(300_000);
    expectSaneDiagnostics(text, lint(text, { fileName: 'a.msg.md' }).diagnostics);
  });
});
