// The issue's round trips over real conversations (../shared/external/
// conversations, README there): class N files come back equal under
// canon(provider, data, { keepIds: true }) after import then export to the
// same target; class L files too, once the features their README row lists
// are removed from the original (each removal below is one feature, and
// each must have been reported in `dropped`); class X files are imported
// and lint reports the fragment. Import, export, import gives the same file.

import { describe, expect, it } from 'vitest';
import { formatLLMView, toLLMView, type ExportFormat } from '../../server/export/index.js';
import { importConversation, type ImportResult } from '../../server/import/index.js';
import { lint } from '../../server/linter.js';
import { conversations, loadCanon, MISSING, seeded } from './shared.js';

const TARGET: Record<string, ExportFormat | undefined> = {
  openai: 'openai',
  anthropic: 'anthropic',
  'ai-sdk': 'vercel',
  'ai-sdk-legacy': 'vercel-legacy',
  'openai-legacy-functions': 'vercel-legacy',
};

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Each content part of the data (message contents, tool result contents, AI SDK outputs), with the list holding it. */
function eachPartList(data: Json, f: (list: Json[]) => Json[]): void {
  const messages: Json[] = Array.isArray(data) ? data : (data.messages ?? []);
  for (const m of messages) {
    if (Array.isArray(m.content)) {
      m.content = f(m.content);
      for (const p of m.content) {
        if (Array.isArray(p.content)) p.content = f(p.content);
        if (p.output?.type === 'content' && Array.isArray(p.output.value)) p.output.value = f(p.output.value);
      }
    }
  }
}

const isMedia = (p: Json) => /image|file|document|audio/.test(String(p?.type));

/** What removing one feature of the README's list does to the original (null: nothing to remove, the round trip keeps it). */
const REMOVE: Record<string, ((data: Json) => void) | null> = {
  'image/file part': (d) => eachPartList(d, (list) => list.filter((p) => !isMedia(p))),
  'part-extra:providerOptions': (d) => eachPartList(d, (list) => list.map(({ providerOptions: _, ...p }) => p)),
  'part-extra:caller': (d) => eachPartList(d, (list) => list.map(({ caller: _, ...p }) => p)),
  'part-extra:signature': (d) => eachPartList(d, (list) => list.map(({ signature: _, ...p }) => p)),
  'part-extra:prompt_cache_breakpoint': (d) => eachPartList(d, (list) => list.map(({ prompt_cache_breakpoint: _, ...p }) => p)),
  'msg-extra:assistantOutput': null, // dexto: no target to compare with
  'msg-extra:success': null,
  'msg-extra:timestamp': null,
  'msg-extra:thinking_blocks': (d) => {
    for (const m of d) delete m.thinking_blocks;
  },
  'server/provider-executed tool': (d) =>
    eachPartList(d, (list) => list.filter((p) => !p.providerExecuted && !/^server_tool_use$|_tool_result$/.test(String(p.type)) && !(p.type === 'tool-result' && p.providerExecuted !== false && !('toolName' in p && 'output' in p && p.output?.type === 'text')))),
  'tool-result-in-assistant': null, // removed with the server tool above
  'output:json': (d) =>
    eachPartList(d, (list) => list.map((p) => (p.output?.type === 'json' ? { ...p, output: { type: 'text', value: JSON.stringify(p.output.value) } } : p))),
  'part:tool-approval-request': (d) => eachPartList(d, (list) => list.filter((p) => !String(p.type).startsWith('tool-approval'))),
  'part:tool-approval-response': (d) => eachPartList(d, (list) => list.filter((p) => !String(p.type).startsWith('tool-approval'))),
  'output:execution-denied': (d) =>
    eachPartList(d, (list) => list.map((p) => (p.output?.type === 'execution-denied' ? { ...p, output: { type: 'error-text', value: p.output.reason ?? 'execution denied' } } : p))),
  'multiple-results-per-call': (d) => {
    // Export joins the results of one call into one tool message, a blank line between.
    for (let i = d.length - 1; i > 0; i--) {
      const a = d[i - 1];
      const b = d[i];
      if (a.role === 'tool' && b.role === 'tool' && a.tool_call_id === b.tool_call_id) {
        a.content = `${a.content}\n\n${b.content}`;
        d.splice(i, 1);
      }
    }
  },
};

/** Keeps only non-empty messages (a removal can leave one empty; export never sends one). */
function dropEmpty(data: Json): void {
  const list: Json[] = Array.isArray(data) ? data : data.messages;
  for (let i = list.length - 1; i >= 0; i--) if (Array.isArray(list[i].content) && list[i].content.length === 0) list.splice(i, 1);
}

/** Differences of a target's own that canon does not remove, undone on the export side (each says why). */
function targetNormal(target: ExportFormat, out: Json, original: Json): Json {
  if (target === 'anthropic') {
    // Anthropic's view must open with a user message: export adds one before an assistant-first conversation.
    const first = (Array.isArray(original) ? original : original.messages)[0];
    if (first?.role === 'assistant' && out.messages[0]?.content?.[0]?.text === '(conversation start)') out.messages.shift();
  }
  if (target === 'openai') {
    // OpenAI's API has no `name` on tool messages: export does not send it (README: "tool message name").
    for (const m of Array.isArray(original) ? original : []) if (m.role === 'tool') delete m.name;
    // An assistant message with calls and empty text is sent with content null.
    for (const m of Array.isArray(original) ? original : []) if (m.role === 'assistant' && m.content === '' && m.tool_calls?.length) m.content = null;
  }
  return out;
}

function exportAs(result: ImportResult, target: ExportFormat): Json {
  return formatLLMView(toLLMView(result.text), target);
}

describe.skipIf(MISSING !== undefined)(`import of the conversations corpus${MISSING ? ` (skipped: ${MISSING})` : ''}`, async () => {
  const canon = MISSING ? undefined : await loadCanon();
  for (const c of conversations()) {
    const target = TARGET[c.provider];
    describe(c.file, () => {
      const result = importConversation(JSON.stringify(c.data), { random: seeded() });
      const diagnostics = lint(result.text, { fileName: 'import.msg.md' }).diagnostics;

      if (c.cls === 'X') {
        it('is imported, and lint reports the fragment', () => {
          expect(diagnostics.length).toBeGreaterThan(0);
        });
      } else {
        it('lints with 0 errors and 0 warnings', () => {
          expect(diagnostics.map((d) => `${d.ruleId} ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
        });
      }

      if (target && c.cls !== 'X') {
        it(`export(import(x)) --to ${target} equals x under canon (class ${c.cls})`, () => {
          const original: Json = structuredClone(c.data);
          if (c.cls === 'L') {
            for (const f of c.features) REMOVE[f]?.(original);
            dropEmpty(original);
          }
          const out = targetNormal(target, exportAs(result, target), original);
          expect(canon!(c.provider, out, { keepIds: true })).toEqual(canon!(c.provider, original, { keepIds: true }));
        });
      }

      if (c.cls === 'L') {
        it('reports what it left out', () => {
          expect(result.dropped.length).toBeGreaterThan(0);
        });
      }

      if (target) {
        it('import, export, import gives the same message file', () => {
          const again = importConversation(JSON.stringify(exportAs(result, target)), { from: result.format === 'openai' && target === 'vercel-legacy' ? 'vercel-legacy' : undefined, random: seeded() });
          expect(again.text).toBe(result.text);
        });
      }
    });
  }
});
