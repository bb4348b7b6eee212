// Typed argument values and `<arguments type="json">` (spec section 8) in
// every target: typed values keep their JSON types; the arguments as the
// model wrote them go on unchanged where a string is taken (OpenAI's and
// vercel-legacy's `function.arguments`), parsed where an object is taken
// (Anthropic's `input`: `{}` when they are no JSON object; the AI SDK's
// `input`: any JSON value, or the text when it is not JSON), and export
// notes say what a target gets instead. The valid file
// (test/fixtures/export/typed/) is also in the corpus that sdk.test.ts and
// sdk-types.test.ts check against the SDKs; the files whose raw arguments are
// no JSON object are here only: they cannot be what the APIs take, by design.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateText, modelMessageSchema, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { exportNotes, formatLLMView, toLLMView, type AnthropicRequest, type ContextEntry, type OpenAIMessage, type VercelLegacyMessage, type VercelRequest } from '../../server/export/index.js';
import { parse } from '../../server/syntax/document.js';
import { cleanupTempDirs, lines, makeTree, run } from '../cli/helpers.js';
import { ask, call, msg, reply, result } from '../tool-calls/helpers.js';
import { anthropicRules, openaiRules, vercelRules } from './api-rules.js';
import { ROOT } from './helpers.js';

afterAll(cleanupTempDirs);

const FIXTURE = readFileSync(path.join(ROOT, 'test/fixtures/export/typed/typed-arguments.msg.md'), 'utf8');
const viewOf = (text: string) => toLLMView(parse(text, { fileName: 't.msg.md' }));

/** A file with one call whose `<arguments type="json">` holds `raw`. */
const rawFile = (raw: string) => msg(ask(), reply('2', 'Calling.'), call('2.k7f3q', 't', `<tool>\n<tool_name>t</tool_name>\n<arguments type="json"><![CDATA[${raw}]]></arguments>\n</tool>`), result());

const openaiArgs = (text: string) => (formatLLMView(viewOf(text), 'openai') as OpenAIMessage[]).flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])).map((c) => c.function.arguments);
const legacyArgs = (text: string) => (formatLLMView(viewOf(text), 'vercel-legacy') as VercelLegacyMessage[]).flatMap((m) => (m.role === 'assistant' && m.function_call ? [m.function_call.arguments] : []));
const anthropicInputs = (text: string) =>
  (formatLLMView(viewOf(text), 'anthropic') as AnthropicRequest).messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.input] : [])));
const vercelInputs = (text: string) =>
  (formatLLMView(viewOf(text), 'vercel') as VercelRequest).messages.flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool-call' ? [p.input] : [])) : []));
const notes = (text: string, to: Parameters<typeof exportNotes>[1]) => exportNotes(viewOf(text), to).map((n) => n.message);

const TYPED = {
  path: 'app.py',
  limit: 20,
  offset: -150,
  follow: false,
  encoding: null,
  ranges: [[1, 5]],
  only: ['x'],
  none: [],
  options: {},
  files: { file: 'kept as an object' },
};
const RAW = '{"query": "login", "state": "open",  "limit": 1.50}';

describe('typed arguments in every target', () => {
  it('sends numbers, booleans, null, lists and objects with their types', () => {
    expect(openaiArgs(FIXTURE).map((a) => JSON.parse(a) as unknown)[0]).toEqual(TYPED);
    expect(openaiArgs(FIXTURE)[0]).toBe(JSON.stringify(TYPED));
    expect(legacyArgs(FIXTURE)[0]).toBe(JSON.stringify(TYPED));
    expect(anthropicInputs(FIXTURE)[0]).toEqual(TYPED);
    expect(vercelInputs(FIXTURE)[0]).toEqual(TYPED);
    const entries = formatLLMView(viewOf(FIXTURE), 'context-json', { time: '2025-01-01T00:00:00Z' }) as ContextEntry[];
    expect(entries[2]!.content).toEqual({ toolCall: 'read_file', ...TYPED, result: 'import os' });
  });

  it('sends `<arguments type="json">` unchanged as a string, parsed as an object, without notes', () => {
    expect(openaiArgs(FIXTURE)[1]).toBe(RAW);
    expect(legacyArgs(FIXTURE)[1]).toBe(RAW);
    expect(anthropicInputs(FIXTURE)[1]).toEqual({ query: 'login', state: 'open', limit: 1.5 });
    expect(vercelInputs(FIXTURE)[1]).toEqual({ query: 'login', state: 'open', limit: 1.5 });
    for (const to of ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json'] as const) expect(notes(FIXTURE, to)).toEqual([]);
    const view = viewOf(FIXTURE);
    expect(openaiRules(formatLLMView(view, 'openai'))).toEqual([]);
    expect(anthropicRules(formatLLMView(view, 'anthropic'))).toEqual([]);
    expect(vercelRules(formatLLMView(view, 'vercel'))).toEqual([]);
  });

  it('sends a JSON array as written, `{}` to Anthropic, the array to the AI SDK, and says so', () => {
    const text = rawFile('[1, "two"]');
    expect(openaiArgs(text)).toEqual(['[1, "two"]']);
    expect(legacyArgs(text)).toEqual(['[1, "two"]']);
    expect(anthropicInputs(text)).toEqual([{}]);
    expect(vercelInputs(text)).toEqual([[1, 'two']]);
    const entries = formatLLMView(viewOf(text), 'context-json', { time: '2025-01-01T00:00:00Z' }) as ContextEntry[];
    expect(entries.find((e) => typeof e.content === 'object' && 'toolCall' in e.content)!.content).toMatchObject({ toolCall: 't', arguments: [1, 'two'] });
    const are = 'the arguments of the call `t` (`<arguments type="json">`) are a JSON array, not an object';
    expect(notes(text, 'anthropic')).toEqual([`${are}; the Anthropic API takes only an object as \`input\`, so it is sent as \`{}\``]);
    expect(notes(text, 'vercel')).toEqual([`${are}; \`input\` is sent as that value, which the SDK's providers may not take as it is (Anthropic's takes only an object)`]);
    expect(notes(text, 'openai')).toEqual([`${are}; \`function.arguments\` is sent as written`]);
    expect(notes(text, 'context-json')).toEqual([]);
    expect(anthropicRules(formatLLMView(viewOf(text), 'anthropic'))).toEqual([]);
  });

  it('sends text that is not JSON as written, `{}` to Anthropic, the text to the AI SDK, and says so', () => {
    const bad = '{"path": "a.py", "content": "unterminated';
    const text = rawFile(bad);
    expect(openaiArgs(text)).toEqual([bad]);
    expect(legacyArgs(text)).toEqual([bad]);
    expect(anthropicInputs(text)).toEqual([{}]);
    expect(vercelInputs(text)).toEqual([bad]);
    expect(notes(text, 'anthropic')[0]).toMatch(/^the arguments of the call `t` \(`<arguments type="json">`\) are not JSON; the Anthropic API takes only an object/);
    expect(notes(text, 'vercel')[0]).toMatch(/are not JSON; `input` is sent as their text, as a string/);
    // What the APIs check of it: only the arguments themselves.
    expect(openaiRules(formatLLMView(viewOf(text), 'openai'))).toEqual(['message 1: the arguments of 2.k7f3q are not JSON']);
    expect(anthropicRules(formatLLMView(viewOf(text), 'anthropic'))).toEqual([]);
    expect(vercelRules(formatLLMView(viewOf(text), 'vercel'))).toEqual(['message 1: the input of 2_k7f3q is not an object']);
  });

  it('gives the AI SDK what its modelMessageSchema and generateText take, for every kind of raw arguments', async () => {
    for (const text of [FIXTURE, rawFile('[1]'), rawFile('42'), rawFile('null'), rawFile('not json'), rawFile('')]) {
      const vercel = formatLLMView(viewOf(text), 'vercel') as VercelRequest;
      for (const m of vercel.messages) {
        const parsed = modelMessageSchema.safeParse(m);
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        expect(parsed.data).toEqual(m);
      }
      const prompts: { content: unknown }[][] = [];
      const model = new MockLanguageModelV3({
        doGenerate: async (options) => {
          prompts.push(options.prompt as { content: unknown }[]);
          return {
            content: [{ type: 'text', text: 'ok' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
            warnings: [],
          };
        },
      });
      const out = await generateText({ model, system: vercel.system, messages: vercel.messages as ModelMessage[] });
      expect(out.text).toBe('ok');
      const sent = prompts[0]!.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; input?: unknown }[]).filter((p) => p.type === 'tool-call').map((p) => p.input) : []));
      expect(sent).toEqual(vercelInputs(text));
    }
  });

  it('leaves a summarised call`s raw arguments out, as it does typed ones', () => {
    const text = rawFile('[1]').replace('[^2.k7f3q]: [tool] name="t"', '[^2.k7f3q]: [tool] name="t" history=summary summary="Called t."');
    expect(openaiArgs(text)).toEqual(['{}']);
    expect(notes(text, 'anthropic')).toEqual([]);
  });

  it('numbers a double does not hold: OpenAI gets the text as written; a target that sends the value gets the nearest double, and says so (issue 46)', () => {
    const raw = '{"id":12345678901234567890,"big":1e999,"ok":1.50}';
    const text = rawFile(raw);
    expect(openaiArgs(text)).toEqual([raw]);
    expect(legacyArgs(text)).toEqual([raw]);
    expect(notes(text, 'openai')).toEqual([]);
    expect(anthropicInputs(text)).toEqual([{ id: 12345678901234567000, big: Infinity, ok: 1.5 }]);
    const said = 'the arguments of the call `t` (`<arguments type="json">`) hold numbers that a double does not hold, and --to TARGET sends the arguments as a value: `12345678901234567890` as `12345678901234567000`, `1e999` as `null`';
    for (const to of ['anthropic', 'vercel', 'context-json'] as const) expect(notes(text, to)).toEqual([said.replace('TARGET', to)]);
    // Anthropic sends `{}` for arguments that are no object: nothing of their numbers.
    expect(notes(rawFile('[12345678901234567890]'), 'anthropic')).toEqual([expect.stringContaining('a JSON array, not an object')]);
  });

  it('JSON text nested deeper than msglint reads: sent as written where a string is taken, and the note says why it is no object (issue 46)', () => {
    const deep = '{"a":'.repeat(300) + '1' + '}'.repeat(300);
    const text = rawFile(deep);
    expect(openaiArgs(text)).toEqual([deep]);
    expect(anthropicInputs(text)).toEqual([{}]);
    expect(notes(text, 'anthropic')).toEqual([
      'the arguments of the call `t` (`<arguments type="json">`) are nested more than 256 levels deep, more than msglint reads as JSON; the Anthropic API takes only an object as `input`, so it is sent as `{}`',
    ]);
  });

  it('a typed number a double does not hold is reported; with --force it is sent as written, as a string (issue 46)', () => {
    const text = msg(ask(), reply('2', 'Calling.'), call('2.k7f3q', 't', '<tool>\n<tool_name>t</tool_name>\n<arguments>\n<id type="number">12345678901234567890</id>\n</arguments>\n</tool>'), result());
    const dir = makeTree({ 'typed.msg.md': text });
    const refused = run(['export', 'typed.msg.md', '--to', 'openai'], { cwd: dir });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('`<id type="number">` holds `12345678901234567890`');
    const forced = run(['export', 'typed.msg.md', '--to', 'openai', '--force'], { cwd: dir });
    expect(forced.status).toBe(0);
    expect(openaiArgs(text)).toEqual(['{"id":"12345678901234567890"}']);
    expect(forced.stdout).toContain(JSON.stringify('{"id":"12345678901234567890"}'));
  });

  it('says so on stderr (msglint export), one line per call, at the call', () => {
    const dir = makeTree({ 'raw.msg.md': rawFile('[1]') });
    const r = run(['export', 'raw.msg.md', '--to', 'anthropic'], { cwd: dir });
    expect(r.status).toBe(0);
    const line = rawFile('[1]').split('\n').indexOf('## %%% Tool call[^2.k7f3q]') + 1;
    expect(lines(r.stderr)).toEqual([
      `msglint: raw.msg.md:${line}: the arguments of the call \`t\` (\`<arguments type="json">\`) are a JSON array, not an object; the Anthropic API takes only an object as \`input\`, so it is sent as \`{}\``,
    ]);
  });
});
