// Escapes of cell bodies (spec section 6): escapeBody writes any text into a
// cell so that no line of it is a marker, a metadata line or (in a reply) the
// thinking, and the LLM view reads the text back, dropping exactly the one
// backslash of each escaped line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toLLMView } from '../../server/export/index.js';
import { bodyText } from '../../server/llm-view/view.js';
import { escapeBody, parse, unescapeBody } from '../../server/syntax/document.js';
import { check, file } from '../helpers.js';

const runs = (n: number) => Number(process.env.PROPERTY_RUNS ?? n);

const PIECES = [
  '# %% A[^1]', '## %%% B[^1.x]', '#%%', '#%%x', '###### %%', '# %%%%', '# %%x', '   # %%', '  #  %%', '    # %%', '\t# %%',
  '\\# %%', '\\\\# %%', '  \\# %%', '\\  # %%', '[^3]: [tool] x', '[^x]:', '\\[^3]: [tool] x', ' [^3]: [tool]', '[^n]: a footnote',
  '[thinking]', '\\[thinking]', '[^not]', '[a', 'b]', '  [x]', '\u00a0[y]', '[]',
  '```', '~~~', '````py', '`code`', '<!--', '-->', '<!-- c -->',
  '<tool>', '</tool>', '<![CDATA[', ']]>', '<tool><tool_name>t</tool_name><arguments><a><![CDATA[',
  'x', ' ', '', 'ü', '😀', '\\', '#',
] as const;
const BREAKS = ['\n', '\n', '\r\n', '\r', ''] as const;

const text = fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...BREAKS)), { maxLength: 30 }).map((parts) => parts.map(([p, b]) => p + b).join(''));
const anyText = fc.oneof(text, fc.string({ unit: 'binary', maxLength: 40 }));

/** A file whose last cell (a message, or a reply) has `body` under its metadata line. */
function cellFile(body: string, reply: boolean): string {
  const head = reply ? '---\nagents:\n  coder: {}\n---\n# %%% [^1]\n[^1]: [coder]\n\n' : '# %% [^1]\n[^1]: [markdown]\n\n';
  return head + body;
}

describe('escapeBody', () => {
  it('escapes markers, the malformed ones too, metadata lines, and backslashed ones once more', () => {
    expect(escapeBody(file('# %% x', '#%%x', '###### %%', '# %%%%', '  # %%', '[^3]: [tool] x', '\\# %% y', 'plain'))).toBe(
      file('\\# %% x', '\\#%%x', '\\###### %%', '\\# %%%%', '  \\# %%', '\\[^3]: [tool] x', '\\\\# %% y', 'plain'),
    );
  });

  it('leaves lines in closed fences, comments and CDATA alone, but not after a fence that never closes', () => {
    const closed = file('```', '# %%', '```', '<!--', '[^1]: [tool]', '-->', '<tool>', '<tool_name>t</tool_name>', '<arguments><a><![CDATA[', '# %%', ']]></a></arguments>', '</tool>');
    expect(escapeBody(closed)).toBe(closed);
    expect(escapeBody(file('````', '# %%', '```', '# %%', '```'))).toBe(file('````', '\\# %%', '```', '\\# %%', '```'));
  });

  it('leaves the last line of a comment or CDATA section alone, and the cell reads no metadata there', () => {
    // The line starts inside the region, so it is no footnote definition (it was one to the cell parse).
    for (const body of ['<!--\n[^3]: [tool] x\r<!-- c -->\n', '<!--\n[^3]: [tool] x -->\n', '<tool><tool_name>t</tool_name><arguments><a><![CDATA[\n[^3]: [tool] x]]></a></arguments></tool>\n']) {
      expect(escapeBody(body)).toBe(body);
      const doc = parse(cellFile(body, false), { fileName: 'x.msg.md' });
      expect(doc.cells[0]!.parse.metadata.map((m) => m.id.id), JSON.stringify(body)).toEqual(['1']);
    }
  });

  it('escapes the thinking paragraph of a reply only with replyStart', () => {
    expect(escapeBody('[not thinking]\n\nText.')).toBe('[not thinking]\n\nText.');
    expect(escapeBody('[not thinking]\n\nText.', { replyStart: true })).toBe('\\[not thinking]\n\nText.');
    expect(escapeBody('  [two\nlines]', { replyStart: true })).toBe('  \\[two\nlines]');
    expect(escapeBody('\\[x]', { replyStart: true })).toBe('\\\\[x]');
    expect(escapeBody('[a] b', { replyStart: true })).toBe('[a] b');
    expect(escapeBody('[^1] x]', { replyStart: true })).toBe('[^1] x]');
  });

  it('is undone by unescapeBody, for any text (property)', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (x, replyStart) => {
        expect(unescapeBody(escapeBody(x, { replyStart }), { replyStart })).toBe(x);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('leaves no marker or metadata line in the cell, and no thinking in a reply (property)', () => {
    let escaped = 0;
    fc.assert(
      fc.property(anyText, fc.boolean(), (x, reply) => {
        const y = escapeBody(x, { replyStart: reply });
        if (y !== x) escaped++;
        const source = cellFile(y, reply);
        const doc = parse(source, { fileName: 'x.msg.md' });
        expect(doc.cells.length, JSON.stringify(y)).toBe(1);
        const cell = doc.cells[0]!;
        expect(cell.parse.metadata.filter((m) => m.type !== undefined).length, JSON.stringify(y)).toBe(1);
        const ids = check(source)
          .map((f) => f.ruleId)
          .filter((r) => r === 'cell-marker' || r.startsWith('metadata-'));
        expect(ids, JSON.stringify(y)).toEqual([]);
        if (reply) expect(toLLMView(doc).messages[0]?.source.thinking, JSON.stringify(y)).toBeUndefined();
      }),
      { numRuns: runs(1500) },
    );
    expect(escaped).toBeGreaterThan(100);
  });

  it("is undone by the LLM view's body text (property)", () => {
    // Texts the view keeps whole: no line that is only a comment, no blank line at either end.
    const kept = PIECES.filter((p) => !p.includes('<!--') && !p.includes('-->') && p.trim() !== '');
    const lines = fc.array(fc.tuple(fc.constantFrom(...kept), fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(lines, fc.boolean(), (parts, reply) => {
        const x = parts.map(([p, b], i) => p + (i < parts.length - 1 ? b : '')).join('');
        const y = escapeBody(x, { replyStart: reply });
        const doc = parse(cellFile(y + '\n', reply), { fileName: 'x.msg.md' });
        const cell = doc.cells[0]!;
        const expected = x.replace(/\r\n/g, '\n');
        if (!reply) expect(bodyText(doc, cell), JSON.stringify(y)).toBe(expected);
        else {
          const m = toLLMView(doc).messages[0];
          if (m) expect(m.content, JSON.stringify(y)).toBe(expected);
        }
      }),
      { numRuns: runs(1500) },
    );
  });
});

describe('escaped lines in a file', () => {
  const source = file(
    '---',
    'agents:',
    '  coder: {}',
    '---',
    '# %% Q[^1]',
    '[^1]: [markdown]',
    '',
    '\\# %% not a cell',
    '\\[^3]: [tool] not metadata',
    '\\#%%x',
    '  \\# %%',
    '\\\\# %% two',
    '```',
    '\\# %% in code',
    '```',
    '',
    '# %%% A[^2]',
    '[^2]: [coder]',
    '',
    '\\[not thinking]',
    '',
    'Answer.',
  );

  it('are no markers, metadata or diagnostics', () => {
    const doc = parse(source, { fileName: 'x.msg.md' });
    expect(doc.cells.map((c) => c.id)).toEqual(['1', '2']);
    expect(check(source)).toEqual([]);
  });

  it('lose one backslash in the LLM view, outside code; a reply keeps its escaped bracket as text', () => {
    const view = toLLMView(source);
    expect(view.messages[0]!.content).toBe(['# %% not a cell', '[^3]: [tool] not metadata', '#%%x', '  # %%', '\\# %% two', '```', '\\# %% in code', '```'].join('\n'));
    expect(view.messages[1]!.content).toBe('[not thinking]\n\nAnswer.');
    expect(view.messages[1]!.source.thinking).toBeUndefined();
    expect(view.messages[1]!.source.text).toBe('[not thinking]\n\nAnswer.');
  });
});
