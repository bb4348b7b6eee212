// Every message file of the repository (corpus.ts), with and without
// --code-as-tool, exported to every target and checked with what the
// providers themselves use:
// - the API rules of api-rules.ts, for every target;
// - `--to vercel` with the `ai` package: each message parses with its
//   modelMessageSchema (zod) to exactly itself (nothing dropped, as the
//   schema silently dropped seed 004's `function_call`), and generateText
//   takes the request with a mock model, which receives every tool call and
//   result and the system prompt.
// The openai and anthropic exports are type-checked against their SDKs in
// sdk-types.test.ts.

import { generateText, modelMessageSchema, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { formatLLMView, toLLMView, type VercelRequest } from '../../server/export/index.js';
import { parse } from '../../server/syntax/document.js';
import { anthropicRules, anthropicRulesOf, contextRules, openaiRules, vercelLegacyRules, vercelRules } from './api-rules.js';
import { corpus } from './corpus.js';

const FILES = corpus();

type Prompt = { role: string; content: unknown }[];

/** A mock model that keeps the prompt it is given and answers "ok". */
function mockModel(prompts: Prompt[]) {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt as Prompt);
      return {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

const partsOf = (prompt: Prompt, type: string) =>
  prompt.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string }[]).filter((p) => p.type === type) : []));

describe('every message file, exported to every target, is what the APIs and SDKs take', () => {
  let calls = 0;
  let results = 0;
  let files = 0;
  for (const file of FILES) {
    for (const codeAsTool of [false, true]) {
      it(`${file.name}${codeAsTool ? ' --code-as-tool' : ''}`, async () => {
        const view = toLLMView(parse(file.text, { fileName: file.fileName }), { codeAsTool });
        expect(openaiRules(formatLLMView(view, 'openai'))).toEqual([]);
        expect(anthropicRulesOf(view)).toEqual([]);
        expect(vercelLegacyRules(formatLLMView(view, 'vercel-legacy'))).toEqual([]);
        expect(contextRules(formatLLMView(view, 'context-json', { time: '2025-01-01T00:00:00Z' }))).toEqual([]);
        const vercel: VercelRequest = formatLLMView(view, 'vercel');
        expect(vercelRules(vercel)).toEqual([]);

        for (const m of vercel.messages) {
          const parsed = modelMessageSchema.safeParse(m);
          expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
          expect(parsed.data).toEqual(m);
        }
        if (!vercel.messages.length) return;
        const prompts: Prompt[] = [];
        const out = await generateText({ model: mockModel(prompts), system: vercel.system, messages: vercel.messages as ModelMessage[], allowSystemInMessages: true });
        expect(out.text).toBe('ok');
        const prompt = prompts[0]!;
        const sentCalls = vercel.messages.flatMap((m) => (m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call') : []));
        const sentResults = vercel.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
        expect(partsOf(prompt, 'tool-call').map((p) => (p as { toolCallId: string }).toolCallId)).toEqual(sentCalls.map((c) => c.toolCallId));
        expect(partsOf(prompt, 'tool-result').map((p) => (p as { toolCallId: string }).toolCallId)).toEqual(sentResults.map((r) => r.toolCallId));
        expect(prompt[0]!.role === 'system').toBe(vercel.system !== undefined);
        calls += sentCalls.length;
        results += sentResults.length;
        files++;
      });
    }
  }

  it('checked many calls and results, not an empty corpus', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(files).toBeGreaterThan(200);
    expect(calls).toBeGreaterThan(200);
    expect(results).toBe(calls);
  });
});

describe('the checks catch what the APIs and SDKs reject', () => {
  it('ai: seed 004 form, an empty system message among the messages, an unanswered call', async () => {
    // The schema drops function_call without a word: the parse is not the message.
    const legacy = { role: 'assistant', content: '', function_call: { name: 'f', arguments: '{}' } };
    const parsed = modelMessageSchema.safeParse(legacy);
    expect(parsed.success && JSON.stringify(parsed.data) === JSON.stringify(legacy)).toBe(false);
    expect(modelMessageSchema.safeParse({ role: 'function', name: 'f', content: 'x' }).success).toBe(false);
    await expect(generateText({ model: mockModel([]), messages: [{ role: 'function', content: 'x' } as unknown as ModelMessage] })).rejects.toThrow(/ModelMessage|role/);
    expect(vercelRules({ messages: [{ role: 'system', content: ' ' } as never] })).toHaveLength(1);
    expect(vercelRules({ messages: [{ role: 'system', content: 's' } as never] })).toHaveLength(0);
    expect(
      vercelRules({ messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a.b', toolName: 'x y', input: {} }] }] }).length,
    ).toBe(3);
  });

  it('openai: long ids, bad names, unanswered calls', () => {
    const call = (id: string, name = 'f') => ({ id, type: 'function' as const, function: { name, arguments: '{}' } });
    expect(openaiRules([{ role: 'assistant', content: null, tool_calls: [call('x'.repeat(41), 'a.b')] }, { role: 'tool', tool_call_id: 'x'.repeat(41), content: '' }])).toHaveLength(2);
    expect(openaiRules([{ role: 'assistant', content: null, tool_calls: [call('a')] }, { role: 'user', content: 'hi' }])).toHaveLength(1);
    expect(openaiRules([{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'a', content: '' }])).toHaveLength(1);
  });

  it('anthropic: assistant first, roles in a row, results not first, bad ids, input not an object', () => {
    expect(anthropicRules({ messages: [{ role: 'assistant', content: [{ type: 'text', text: 'hi' }] }] })).toHaveLength(1);
    expect(anthropicRules({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }, { role: 'user', content: [{ type: 'text', text: 'b' }] }] })).toHaveLength(1);
    expect(
      anthropicRules({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'a' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'a.b', name: 'f', input: [] as never }] },
          { role: 'user', content: [{ type: 'text', text: 'b' }, { type: 'tool_result', tool_use_id: 'a.b' }] },
        ],
      }),
    ).toEqual([
      'message 1: the tool_use id a.b does not match ^[a-zA-Z0-9_-]+$',
      'message 1: the input of a.b is not an object',
      'message 2: a tool_result after another block',
    ]);
  });
});
