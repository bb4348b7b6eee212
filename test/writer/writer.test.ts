// The writer: ids, metadata lines, frontmatter, and the invariant the issue
// asks for, property-tested: whatever is appended, the file lints with 0
// errors and 0 warnings, and its LLM view gives back what was written (or
// `changes` says what could not be).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toLLMView } from '../../server/export/index.js';
import { lint } from '../../server/linter.js';
import { parse } from '../../server/syntax/document.js';
import { ArgumentsTooDeep, type JsonValue } from '../../server/tool-calls/index.js';
import { MessageWriter, startFile } from '../../server/writer/index.js';
import { seeded } from '../import/shared.js';

const FILE = 'w.msg.md';
const diagnostics = (text: string) => lint(text, { fileName: FILE }).diagnostics.map((d) => `${d.ruleId} ${d.range.start.line + 1}: ${d.message}`);
const newFile = (prompt?: string) =>
  new MessageWriter(startFile({ agents: { coder: { models: ['gpt-4o'], ...(prompt !== undefined ? { system_prompt: prompt } : {}) } }, default_agent: 'coder' }), {
    random: seeded(7),
  });

describe('MessageWriter', () => {
  it('numbers cells, makes nonces and result numbers, and writes metadata lines', () => {
    const w = newFile('You are "careful".\nAlways.');
    expect(w.message('Fix it.', { time: '2025-05-30T09:00:00+08:00' })).toBe('1');
    const reply = w.reply('coder', { thinking: 'Read first.', text: 'Reading.', reasoning: true });
    expect(reply).toBe('2');
    const call = w.toolCall(reply, { name: 'read_file', arguments: { path: 'app.py', lines: 3, all: false }, callId: 'toolu_01A9' });
    expect(call).toMatch(/^2\.[a-z0-9]{6}$/);
    expect(call.split('.')[1]).toMatch(/[a-z]/);
    expect(w.toolResult(call, { text: 'def add(a, b):\n    return a - b' })).toBe(`${call}.1`);
    expect(w.toolResult(call, { text: 'again', status: 'error' })).toBe(`${call}.2`);
    expect(w.message('later', { role: 'system' })).toBe('3');
    const code = w.code('python', 'print(1 + 1)');
    expect(w.codeOutput(code, 'python', { output: '2', status: 'success' })).toBe('4.1');
    expect(w.changes).toEqual([]);
    expect(diagnostics(w.text)).toEqual([]);
    expect(w.text).toContain(`[^${call}]: [tool] name="read_file" call_id="toolu_01A9"`);
    expect(w.text).toContain('[^3]: [markdown] role="system"');
    expect(w.text).toContain('[^2]: [coder] reasoning=1\n\n[Read first.]\n\nReading.');
    expect(toLLMView(w.text).systemPrompt).toBe('You are "careful".\nAlways.');
  });

  it('appends to an existing file: the next free number, nonces not used yet, results counted on', () => {
    const w = newFile();
    w.message('a');
    const r = w.reply('coder', {});
    const c = w.toolCall(r, { name: 't' });
    w.toolResult(c, { text: 'x' });
    const more = new MessageWriter(w.text, { random: seeded(7) });
    expect(more.message('b')).toBe('3');
    expect(more.toolResult(c, { text: 'y' })).toBe(`${c}.2`);
    const c2 = more.toolCall(r, { name: 't' });
    expect(c2).not.toBe(c);
    more.toolResult(c2, { text: 'z' });
    expect(diagnostics(more.text)).toEqual([]);
  });

  it('quotes attribute values with \\" and \\\\, and leaves out a call_id it cannot write', () => {
    const w = newFile();
    w.message('hi', { attributes: { userid: 'a "b" \\c' } });
    const r = w.reply('coder', {});
    const c = w.toolCall(r, { name: 't', callId: 'has"quote' });
    w.toolResult(c, { text: 'ok' });
    expect(w.text).toContain('[^1]: [markdown] userid="a \\"b\\" \\\\c"');
    const doc = parse(w.text, { fileName: FILE });
    expect(doc.attrOf(doc.cellsById.get('1')![0]!, 'userid')).toBe('a "b" \\c');
    expect(w.changes).toEqual([{ cell: c, what: 'the call id holds a quote or a line break and is left out (call_id)' }]);
    expect(diagnostics(w.text)).toEqual([]);
  });

  it('escapes marker and metadata lines and a leading [ of a reply', () => {
    const w = newFile();
    w.message('# %% not a cell\n[^9]: [tool] not metadata');
    w.reply('coder', { text: '[not thinking]\n\nmore' });
    expect(w.text).toContain('\\# %% not a cell\n\\[^9]: [tool] not metadata');
    const view = toLLMView(w.text);
    expect(view.messages.map((m) => m.content)).toEqual(['# %% not a cell\n[^9]: [tool] not metadata', '[not thinking]\n\nmore']);
    expect(view.messages[1]!.source.thinking).toBeUndefined();
    expect(diagnostics(w.text)).toEqual([]);
  });

  it('says what it could not write as given', () => {
    const w = newFile();
    w.message('\n\nline 1\r\nline 2\n');
    w.reply('coder', { thinking: 'one\n\ntwo', text: '```js\nnever closed' });
    expect(w.changes.map((c) => `${c.cell}: ${c.what}`)).toEqual([
      '1: CRLF line breaks written as LF',
      '1: blank lines at the start or end left out',
      '2: blank lines inside thinking removed (thinking is one paragraph)',
      '2: a fence that never closes is closed at the end',
    ]);
    expect(diagnostics(w.text)).toEqual([]);
  });

  it('says so when a reply mentions a `<tool>` that is no tool element (the format has no escape for it), not for one that is, nor in a message', () => {
    const w = newFile();
    w.message('Write <tool> then the name.');
    w.reply('coder', { text: 'Write <tool> then the name.' });
    w.reply('coder', { text: 'As I wrote:\n\n<tool><tool_name>ls</tool_name></tool>' });
    w.reply('coder', { text: 'In code, `<tool>` is text.' });
    expect(w.changes.map((c) => `${c.cell}: ${c.what}${c.kept ? ' (kept)' : ''}`)).toEqual(['2: a `<tool>` in the text that is not a well-formed tool element, written as given (lint reports it: tool-xml) (kept)']);
    expect(diagnostics(w.text).map((d) => d.split(' ')[0])).toEqual(['tool-xml']);
  });

  it('a tool name no API takes is written and said; a line break in it becomes a space', () => {
    const w = newFile();
    const r = w.reply('coder', { text: 'x' });
    const c = w.toolCall(r, { name: 'read\nfile' });
    w.toolResult(c, { text: 'ok' });
    expect(w.text).toContain(`[^${c}]: [tool] name="read file"`);
    // The line break is a change; the name no API takes is kept as written, which is worth a word but is no change.
    expect(w.changes).toEqual([
      { cell: c, what: 'the tool name holds a line break or a character XML cannot hold, written as a space or U+FFFD' },
      { cell: c, what: 'tool names that the OpenAI and Anthropic APIs do not take, written as given (tool-name-syntax warns; export to those APIs refuses them, or with --force maps them)', kept: true },
    ]);
    expect(diagnostics(w.text).map((d) => d.split(' ')[0])).toEqual(['tool-name-syntax']);
  });

  it('an empty message is written on purpose: said so before its marker, and left out of the view', () => {
    const w = newFile();
    w.message('first');
    w.message('');
    w.message('<!-- only a comment -->');
    expect(diagnostics(w.text)).toEqual([]);
    expect(toLLMView(w.text).messages.map((m) => m.content)).toEqual(['first']);
    expect(w.changes.map((c) => `${c.cell}: ${c.what}`)).toEqual(['3: a line that is only an HTML comment is not in the LLM view']);
  });

  it('startFile writes any system prompt so that it reads back exactly', () => {
    for (const prompt of ['plain', 'yes', '# not a comment', 'a: b', ' lead', 'trail ', 'multi\nline\n', '"quoted"', '日本語 ✓', '', '123']) {
      const text = startFile({ agents: { coder: { system_prompt: prompt } }, default_agent: 'coder' }) + '# %% [^1]\n\n[^1]: [markdown]\n\nhi\n';
      expect(diagnostics(text)).toEqual([]);
      expect(toLLMView(text).systemPrompt).toBe(prompt === '' ? null : prompt);
    }
  });
});

// ---- the property ----

const FRAGMENTS = [
  '# %% marker',
  '# %%% [^3]',
  '## %%',
  '#%% glued',
  '###### %%',
  '# %%%% four',
  '# %%x',
  '   # %% indented',
  '\\# %% already escaped',
  '[^1]: [tool] name="x"',
  '[^x]: [markdown]',
  '[thinking?]',
  ']]>',
  '<![CDATA[',
  '```',
  '```js',
  '~~~',
  '<!-- a comment -->',
  '<!--',
  '-->',
  '<b>bold</b> & co',
  '- item',
  '    indented code',
  'ünïcödé ✓ 日本 🐈',
  '',
  ' ',
];

const line = fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 12 }).filter((s) => !/[\r\n]|<tool/.test(s)));
const text = fc.tuple(fc.array(line, { minLength: 1, maxLength: 6 }), fc.boolean()).map(([lines, crlf]) => lines.join(crlf ? '\r\n' : '\n'));
const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null), text);
const value: fc.Arbitrary<JsonValue> = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(key, scalar, { maxKeys: 3 }));
const args = fc.oneof(
  fc.dictionary(key, value, { maxKeys: 4 }).map((o) => ({ arguments: o })),
  fc.oneof(fc.constant(''), fc.constant('arg1, arg2'), fc.constant('[1,2]'), fc.string({ maxLength: 10 })).map((raw) => ({ rawArguments: raw })),
);
const call = fc.record({
  name: fc.stringMatching(/^[a-z][a-z_]{0,9}$/),
  args,
  callId: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), { nil: undefined }),
  results: fc.array(fc.record({ text, error: fc.boolean() }), { minLength: 1, maxLength: 2 }),
});
const turn = fc.oneof(
  fc.record({ kind: fc.constant('message' as const), text, system: fc.boolean() }),
  fc.record({ kind: fc.constant('reply' as const), text, thinking: fc.option(text, { nil: undefined }), calls: fc.array(call, { maxLength: 2 }) }),
);

/** A text as the view gives it back when the writer noted no change: exact. */
describe('the writer, property-tested', () => {
  it('whatever is appended lints clean, and the view gives back what was written', () => {
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 5 }), (turns) => {
        const w = newFile('prompt');
        const expected = new Map<string, { content?: string; thinking?: string; text?: string }>();
        const calls: { id: string; input: Record<string, JsonValue> | undefined; raw: string | undefined; callId?: string; results: { id: string; text: string }[] }[] = [];
        for (const t of turns) {
          if (t.kind === 'message') {
            if (t.text.trim() === '') continue; // an empty message is an omission, not a message
            const id = w.message(t.text, t.system ? { role: 'system' } : {});
            expected.set(id, { content: t.text });
            continue;
          }
          if (t.text.trim() === '' && (t.thinking ?? '').trim() === '' && !t.calls.length) continue;
          const id = w.reply('coder', { text: t.text, ...(t.thinking !== undefined ? { thinking: t.thinking } : {}) });
          expected.set(id, { text: t.text, ...(t.thinking !== undefined && t.thinking.trim() !== '' ? { thinking: t.thinking } : {}) });
          const made = t.calls.map((c) => ({ c, id: w.toolCall(id, { name: c.name, ...c.args, ...(c.callId !== undefined ? { callId: c.callId } : {}) }) }));
          for (const { c, id: callId } of made) {
            const results = c.results.map((r) => ({ id: w.toolResult(callId, { text: r.text, ...(r.error ? { status: 'error' as const } : {}) }), text: r.text }));
            calls.push({ id: callId, input: 'arguments' in c.args ? c.args.arguments : undefined, raw: 'rawArguments' in c.args ? c.args.rawArguments : undefined, ...(c.callId !== undefined ? { callId: c.callId } : {}), results });
          }
        }
        expect(diagnostics(w.text)).toEqual([]);
        const changed = new Set(w.changes.map((c) => c.cell));
        const view = toLLMView(w.text);
        for (const m of view.messages) {
          const cell = m.source.cells[0]!;
          const want = expected.get(cell);
          if (!want || changed.has(cell)) continue;
          if (m.role === 'user' || m.role === 'system') expect(m.content).toBe(want.content);
          if (m.role === 'assistant') {
            expect(m.source.thinking).toBe(want.thinking?.trim());
            // After a thinking paragraph the view trims the text (export's splitThinking).
            expect(m.source.text).toBe(want.thinking !== undefined ? want.text!.trim() : want.text);
          }
        }
        const viewCalls = new Map(view.messages.flatMap((m) => m.toolCalls ?? []).map((c) => [c.id, c]));
        for (const c of calls) {
          const got = viewCalls.get(c.id)!;
          expect(got).toBeDefined();
          if (c.input !== undefined) expect(got.input).toEqual(c.input);
          if (c.raw !== undefined) expect(got.function.arguments).toBe(c.raw);
          expect(got.callId).toBe(c.callId);
          if (c.results.some((r) => changed.has(r.id))) continue;
          const result = view.messages.find((m) => m.role === 'tool' && m.toolCallId === c.id)!;
          expect(result.content).toBe(c.results.map((r) => r.text).join('\n\n'));
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
    );
  });
});

// Issue 46, points 4 and 6: no metadata line reads otherwise than written
// (its values are text: a `<tool>` or `<!--` in one opens nothing), and
// arguments at any depth are written so that they read back, or refused.
describe('the writer, crafted values', () => {
  const piece = fc.constantFrom('<tool>', '</tool>', '<tool_name>x</tool_name>', '<!--', '-->', '<![CDATA[', ']]>', '"', '\\', '\\"', '# %%', '[^1]: [tool]', '`', ' ', 'a', 'é', '🐈');
  const value = fc.oneof(fc.array(piece, { maxLength: 8 }).map((p) => p.join('')), fc.string({ maxLength: 12 }));

  it('an attribute value reads back as written, and the cells after it stay as written (property)', () => {
    fc.assert(
      fc.property(value, value.filter((n) => n.trim() !== ''), (userid, name) => {
        const w = newFile();
        const first = w.message('first', { attributes: { userid } });
        const reply = w.reply('coder', { text: 'calling' });
        const call = w.toolCall(reply, { name, arguments: { path: 'a.txt' } });
        w.toolResult(call, { text: 'ok' });
        const last = w.message('last');
        const doc = parse(w.text, { fileName: FILE });
        expect(doc.cells.map((c) => c.id)).toEqual([first, reply, call, `${call}.1`, last]);
        const said = new Set(w.changes.map((c) => c.cell));
        if (!said.has(first)) expect(doc.attrOf(doc.cells[0]!, 'userid')).toBe(userid);
        const view = toLLMView(w.text);
        expect(view.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
        expect(view.messages[1]!.toolCalls!.map((c) => c.input)).toEqual([{ path: 'a.txt' }]);
        expect(diagnostics(w.text).filter((d) => !d.startsWith('tool-name-syntax'))).toEqual([]);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });

  it('an attribute whose key is no KEY of the format is left out, and said', () => {
    const w = newFile();
    const id = w.message('hi', { attributes: { 'my key': 'x', 'a"b': 'y', ok: 'z' } });
    expect(w.text).toContain('[^1]: [markdown] ok=z\n');
    expect(w.changes).toEqual([
      { cell: id, what: 'the attribute "my key" would not read back as written and is left out' },
      { cell: id, what: 'the attribute "a\\"b" would not read back as written and is left out' },
    ]);
    expect(diagnostics(w.text)).toEqual([]);
  });

  it('arguments as deep as elements hold are elements, deeper ones JSON text, deeper than that refused, the file left as it was', () => {
    const nested = (level: number): Record<string, JsonValue> => {
      let v: JsonValue = 1;
      for (let i = 0; i < level; i++) v = { a: v };
      return v as Record<string, JsonValue>;
    };
    const w = newFile();
    const reply = w.reply('coder', { text: 'calling' });
    for (const level of [254, 255, 256]) w.toolResult(w.toolCall(reply, { name: 't', arguments: nested(level) }), { text: 'ok' });
    const before = w.text;
    expect(() => w.toolCall(reply, { name: 't', arguments: nested(257) })).toThrow(ArgumentsTooDeep);
    expect(() => w.toolCall(reply, { name: 't', arguments: nested(100_000) })).toThrow(ArgumentsTooDeep);
    expect(w.text).toBe(before);
    expect(w.text.match(/<arguments( type="json")?>/g)).toEqual(['<arguments>', '<arguments type="json">', '<arguments type="json">']);
    expect(diagnostics(w.text)).toEqual([]);
    expect(toLLMView(w.text).messages.flatMap((m) => m.toolCalls ?? []).map((c) => c.input)).toEqual([nested(254), nested(255), nested(256)]);
  });
});

describe('the writer, characters XML cannot hold', () => {
  it('in a server name or an arguments text: written as U+FFFD, and said', () => {
    const w = newFile();
    const reply = w.reply('coder', { text: 'calling' });
    const id = w.toolCall(reply, { name: 't', server: 'a\u0001b', rawArguments: '{"x":1}\u0002' });
    w.toolResult(id, { text: 'ok' });
    expect(w.text).toContain('<server_name>a\uFFFDb</server_name>');
    expect(w.changes).toEqual([
      { cell: id, what: 'the server name holds a character XML cannot hold, written as U+FFFD' },
      { cell: id, what: 'the arguments text holds a character XML cannot hold, written as U+FFFD' },
    ]);
    expect(diagnostics(w.text)).toEqual([]);
  });
});
