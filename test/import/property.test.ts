// The issue's property: a conversation built from random text (cell
// markers, `[^x]:` lines, `]]>`, leading brackets, Unicode, CRLF), random
// call ids and typed arguments round-trips through every target that can
// hold it: export(import(x)) equals x, up to what import reports it
// changes (CRLF written as LF, blank lines at the ends of a text) and what
// canon.mjs removes. (Fences that never close, which import closes and
// reports, are the writer's property test's.)

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLLMView, toLLMView, type ExportFormat } from '../../server/export/index.js';
import { importConversation } from '../../server/import/index.js';
import { lint } from '../../server/linter.js';
import type { JsonValue } from '../../server/tool-calls/index.js';
import { loadCanon, MISSING, seeded } from './shared.js';

const FRAGMENTS = ['# %% marker', '# %%% [^3]', '#%%', '[^1]: [tool] name="x"', '[^x]: [markdown]', '[leading bracket]', ']]>', '<![CDATA[', 'ünïcödé ✓ 日本 🐈', '\\# %% escaped', ''];
const line = fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 10 }).filter((s) => !/[\r\n]|<tool|<!--|-->/.test(s)));
/** A text with at least one line that is not blank. */
const text = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 5 }), fc.boolean(), fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s.trim() !== '' && !/[\r\n]|<tool|<!--|-->/.test(s)))
  .map(([lines, crlf, solid]) => [...lines, solid].join(crlf ? '\r\n' : '\n'));
const key = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/), fc.constantFrom('my key', '1st', 'a:b'));
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(fc.string({ maxLength: 8 }), text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<JsonValue> = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(key, scalar, { maxKeys: 3 }));
const call = fc.record({ id: fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/), name: fc.stringMatching(/^[a-z][a-z_]{0,9}$/), input: fc.dictionary(key, value, { maxKeys: 4 }), result: fc.oneof(text, fc.constant('')) });
const exchange = fc.record({ user: text, reply: fc.option(text, { nil: undefined }), calls: fc.array(call, { maxLength: 3 }) }).filter((e) => e.reply !== undefined || e.calls.length > 0);
const conversation = fc.array(exchange, { minLength: 1, maxLength: 4 }).filter((x) => new Set(x.flatMap((e) => e.calls.map((c) => c.id))).size === x.flatMap((e) => e.calls).length);

type Exchange = { user: string; reply?: string; calls: { id: string; name: string; input: Record<string, JsonValue>; result: string }[] };

/** What the view gives back of a text: LF line breaks, no blank lines at the ends (import reports both). */
function normal(t: string): string {
  const lines = t.replace(/\r\n/g, '\n').split('\n');
  while (lines.length && lines[0]!.trim() === '') lines.shift();
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines.join('\n');
}

function render(to: ExportFormat, x: Exchange[], n: (t: string) => string): unknown {
  if (to === 'openai') {
    return x.flatMap((e) => [
      { role: 'user', content: n(e.user) },
      { role: 'assistant', content: e.reply !== undefined ? n(e.reply) : null, ...(e.calls.length ? { tool_calls: e.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })) } : {}) },
      ...e.calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: n(c.result) })),
    ]);
  }
  if (to === 'anthropic') {
    return {
      messages: x.flatMap((e, i) => [
        // Results of the exchange before go first in the user turn, as the API wants them.
        { role: 'user', content: [...(i > 0 ? x[i - 1]!.calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, ...(c.result !== '' ? { content: n(c.result) } : {}) })) : []), { type: 'text', text: n(e.user) }] },
        { role: 'assistant', content: [...(e.reply !== undefined ? [{ type: 'text', text: n(e.reply) }] : []), ...e.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }))] },
      ]).concat(x[x.length - 1]!.calls.length ? [{ role: 'user', content: x[x.length - 1]!.calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, ...(c.result !== '' ? { content: n(c.result) } : {}) })) }] : []),
    };
  }
  return {
    messages: x.flatMap((e) => [
      { role: 'user', content: n(e.user) },
      { role: 'assistant', content: [...(e.reply !== undefined ? [{ type: 'text', text: n(e.reply) }] : []), ...e.calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.input }))] },
      ...(e.calls.length ? [{ role: 'tool', content: e.calls.map((c) => ({ type: 'tool-result', toolCallId: c.id, toolName: c.name, output: { type: 'text', value: n(c.result) } })) }] : []),
    ]),
  };
}

const PROVIDER: Record<string, string> = { openai: 'openai', anthropic: 'anthropic', vercel: 'ai-sdk' };

describe.skipIf(MISSING !== undefined)(`random conversations round-trip through every target${MISSING ? ` (skipped: ${MISSING})` : ''}`, async () => {
  const canon = MISSING ? undefined : await loadCanon();
  for (const to of ['openai', 'anthropic', 'vercel'] as const) {
    it(to, () => {
      fc.assert(
        fc.property(conversation, (x) => {
          const input = render(to, x, (t) => t);
          const result = importConversation(JSON.stringify(input), { from: to, random: seeded() });
          expect(lint(result.text, { fileName: 'import.msg.md' }).diagnostics.map((d) => `${d.ruleId} ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
          let out = formatLLMView(toLLMView(result.text), to) as { messages: unknown[] } | unknown[];
          // Anthropic: a final assistant message is a prefill, sent without white space at its end.
          let expected = render(to, x, normal) as { messages: { role: string; content: { type: string; text?: string }[] }[] };
          if (to === 'anthropic') {
            const last = expected.messages[expected.messages.length - 1]!;
            const block = last.role === 'assistant' ? last.content[last.content.length - 1] : undefined;
            if (block?.type === 'text') block.text = block.text!.trimEnd();
          }
          if (to === 'vercel') out = { messages: (out as { messages: unknown[] }).messages };
          expect(canon!(PROVIDER[to]!, out, { keepIds: true })).toEqual(canon!(PROVIDER[to]!, expected, { keepIds: true }));
          const changes = result.dropped.filter((l) => !/CRLF|blank lines at the start or end/.test(l));
          expect(changes).toEqual([]);
        }),
        { numRuns: Number(process.env.PROPERTY_RUNS ?? 100) },
      );
    });
  }
});
