// The issue's round trips over real conversations (../shared/external/
// conversations, README there): class N files come back equal under
// canon(provider, data), call ids kept and renamed, after import then export
// to the same target; class L files too, once the features their README row
// lists are removed from the original (each removal below is one feature,
// and each must have been reported in `dropped`) and what export itself
// changes is applied (each change must be in its notes, which the CLI
// writes on stderr); class X files are imported and lint reports the
// fragment, or import says it is incomplete. Import is deterministic, and
// import, export, import gives the same file.

import { describe, expect, it } from 'vitest';
import { exportNotes, formatLLMView, toLLMView, type ExportFormat } from '../../server/export/index.js';
import { importConversation, type ImportResult } from '../../server/import/index.js';
import { lint } from '../../server/linter.js';
import { conversations, loadCanon, MISSING } from './shared.js';

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
  'server/provider-executed tool': (d) => eachPartList(d, (list) => list.filter((p) => p.providerExecuted !== true && !/^server_tool_use$|_tool_result$/.test(String(p.type)))),
  'tool-result-in-assistant': (d) => {
    for (const m of Array.isArray(d) ? d : d.messages) if (m.role === 'assistant' && Array.isArray(m.content)) m.content = m.content.filter((p: Json) => p.type !== 'tool-result');
  },
  // The AI SDK's reasoning parts of one message are one thinking paragraph, joined by line breaks; Anthropic's: see targetNormal.
  'thinking/reasoning': (d) => {
    for (const m of Array.isArray(d) ? d : d.messages) {
      if (!Array.isArray(m.content)) continue;
      const reasoning = m.content.filter((p: Json) => p.type === 'reasoning');
      if (reasoning.length > 1) m.content = [{ type: 'reasoning', text: reasoning.map((p: Json) => p.text).join('\n') }, ...m.content.filter((p: Json) => p.type !== 'reasoning')];
    }
  },
  'output:json': null, // a result cell with output=json
  'part:tool-approval-request': (d) => eachPartList(d, (list) => list.filter((p) => !String(p.type).startsWith('tool-approval'))),
  'part:tool-approval-response': (d) => eachPartList(d, (list) => list.filter((p) => !String(p.type).startsWith('tool-approval'))),
  'output:execution-denied': (d) =>
    eachPartList(d, (list) => list.map((p) => (p.output?.type === 'execution-denied' ? { ...p, output: { type: 'error-text', value: p.output.reason ?? 'execution denied' } } : p))),
  'multiple-results-per-call': null, // result cells .1 and .2 (export's change: EXPORT_CHANGES)
};

/**
 * What export changes of a feature the file holds, because the target's API
 * takes no other form: the change, applied to the expected original, and
 * the export note that must say it.
 */
const EXPORT_CHANGES: Record<string, { targets: ExportFormat[]; apply: (data: Json) => void; note: RegExp }> = {
  // No API takes two results for one call (OpenAI: "Duplicate value for 'tool_call_id'"): joined, a blank line between.
  'multiple-results-per-call': {
    targets: ['openai', 'anthropic', 'vercel', 'vercel-legacy'],
    apply: (d) => {
      for (let i = d.length - 1; i > 0; i--) {
        const a = d[i - 1];
        const b = d[i];
        if (a.role === 'tool' && b.role === 'tool' && a.tool_call_id === b.tool_call_id) {
          a.content = `${a.content}\n\n${b.content}`;
          d.splice(i, 1);
        }
      }
    },
    note: /results of the call .* are sent as one/,
  },
  // Anthropic takes no thinking block without its signature: export leaves an earlier turn's thinking out (spec section 9, point 7).
  'thinking/reasoning': {
    targets: ['anthropic'],
    apply: (d) => {
      for (const m of Array.isArray(d) ? d : d.messages) {
        if (m.role === 'assistant' && Array.isArray(m.content) && m.content[0]?.type === 'thinking') m.content = m.content.slice(1);
      }
      dropEmpty(d);
    },
    note: /thinking/,
  },
};

/** The `dropped` line each left-out feature must have (features a message file now holds have none). */
function reportOf(feature: string): RegExp | undefined {
  const extra = /^(?:part|msg)-extra:(.+)$/.exec(feature);
  if (extra) return extra[1] === 'timestamp' ? undefined : extra[1] === 'thinking_blocks' ? /thinking block signatures?/ : extra[1] === 'signature' ? /signatures?/ : new RegExp(`\`${extra[1]}\``);
  const table: Record<string, RegExp> = {
    'image/file part': /image|file/,
    'server/provider-executed tool': /server-side/,
    'tool-result-in-assistant': /server-side tool results?/,
    'part:tool-approval-request': /approvals/,
    'part:tool-approval-response': /approvals/,
    'output:execution-denied': /denied/,
  };
  return table[feature];
}

/** Keeps only non-empty messages (a removal can leave one empty; export never sends one). */
function dropEmpty(data: Json): void {
  const list: Json[] = Array.isArray(data) ? data : data.messages;
  for (let i = list.length - 1; i >= 0; i--) if (Array.isArray(list[i].content) && list[i].content.length === 0) list.splice(i, 1);
}

/** Forms of the same conversation that canon does not equate, written as the target writes them (each says why). */
function targetForm(target: ExportFormat, original: Json): Json {
  if (target === 'vercel' && Array.isArray(original) && original[0]?.role === 'system') {
    // A system message before every other one is sent as `system` (spec section 9, item 5).
    return { system: original[0].content, messages: original.slice(1) };
  }
  if (target === 'openai') {
    // User content given as text parts is sent as one string.
    for (const m of original) if (m.role === 'user' && Array.isArray(m.content) && m.content.every((p: Json) => p.type === 'text')) m.content = m.content.map((p: Json) => p.text).join('\n\n');
    // An assistant message with calls and empty text is sent with content null.
    for (const m of original) if (m.role === 'assistant' && m.content === '' && m.tool_calls?.length) m.content = null;
  }
  return original;
}

function exportAs(result: ImportResult, target: ExportFormat): Json {
  return formatLLMView(toLLMView(result.text), target);
}

describe.skipIf(MISSING !== undefined)(`import of the conversations corpus${MISSING ? ` (skipped: ${MISSING})` : ''}`, async () => {
  const canon = MISSING ? undefined : await loadCanon();
  for (const c of conversations()) {
    const target = TARGET[c.provider];
    describe(c.file, () => {
      const result = importConversation(JSON.stringify(c.data));
      const diagnostics = lint(result.text, { fileName: 'import.msg.md' }).diagnostics;

      it('is imported the same, byte for byte, every time', () => {
        expect(importConversation(JSON.stringify(c.data)).text).toBe(result.text);
      });

      if (c.cls === 'X') {
        it('is imported, and lint reports the fragment, or import says it is incomplete', () => {
          // A server-side call without its result is left out with the server tool: the rest is whole, so import must say it.
          expect(diagnostics.length > 0 || result.dropped.some((l) => /^incomplete: /.test(l)), JSON.stringify(result.dropped)).toBe(true);
        });
      } else {
        it('lints with 0 errors and 0 warnings', () => {
          expect(diagnostics.map((d) => `${d.ruleId} ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
        });
      }

      if (target && c.cls !== 'X') {
        it(`export(import(x)) --to ${target} equals x under canon (class ${c.cls}), up to what import and export say`, () => {
          const original: Json = structuredClone(c.data);
          if (c.cls === 'L') {
            for (const f of c.features) REMOVE[f]?.(original);
            dropEmpty(original);
          }
          const view = toLLMView(result.text);
          const notes = exportNotes(view, target).map((n) => n.message);
          for (const f of c.features) {
            const change = EXPORT_CHANGES[f];
            if (!change?.targets.includes(target)) continue;
            change.apply(original);
            expect(notes.some((n) => change.note.test(n)), `${f} in ${JSON.stringify(notes)}`).toBe(true);
          }
          const out = formatLLMView(view, target);
          const expected = targetForm(target, original);
          for (const keepIds of [true, false]) expect(canon!(c.provider, out, { keepIds })).toEqual(canon!(c.provider, expected, { keepIds }));
        });
      }

      const reported = c.features.filter((f) => reportOf(f) !== undefined);
      if (reported.length) {
        it(`reports what it left out (${reported.join(', ')})`, () => {
          for (const f of reported) expect(result.dropped.some((line) => reportOf(f)!.test(line)), `${f} in ${JSON.stringify(result.dropped)}`).toBe(true);
        });
      }

      // What export changes (EXPORT_CHANGES, said in its notes) comes back changed from a second import.
      const changedByExport = target !== undefined && c.features.some((f) => EXPORT_CHANGES[f]?.targets.includes(target));
      if (target && c.cls !== 'X' && !changedByExport) {
        it('import, export, import gives the same message file', () => {
          const again = importConversation(JSON.stringify(exportAs(result, target)), { from: result.format === 'openai' && target === 'vercel-legacy' ? 'vercel-legacy' : undefined });
          expect(again.text).toBe(result.text);
        });
      }
    });
  }
});
