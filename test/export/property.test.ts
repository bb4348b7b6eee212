// Property: every exported conversation is one the provider's API takes
// (api-rules.ts: every tool call paired with its result, ids, names, roles),
// whatever the history settings of a lint-clean file (and with --until
// anywhere, with or without --code-as-tool).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLLMView, toLLMView, viewBlockers } from '../../server/export/index.js';
import { lintDocument } from '../../server/linter.js';
import { parse } from '../../server/syntax/document.js';
import { anthropicRulesOf, contextRules, openaiRules, vercelLegacyRules, vercelRules } from './api-rules.js';

type Mode = 'include' | 'exclude' | 'summary';
const mode = fc.constantFrom<Mode>('include', 'include', 'exclude', 'summary');

const callSpec = fc.record({
  mode,
  results: fc.integer({ min: 1, max: 2 }),
  error: fc.boolean(),
  legacy: fc.boolean(),
  // MCP servers whose tools share names with the local ones.
  server: fc.constantFrom('', '', 'github', 'code-index'),
});
const turnSpec = fc.record({
  user: fc.record({ mode, code: fc.boolean(), outputs: fc.array(mode, { maxLength: 2 }) }),
  reply: fc.option(
    // longId: a reply id that makes its calls' ids longer than OpenAI's 40 characters.
    fc.record({ mode, agent: fc.constantFrom('coder', 'reviewer'), reasoning: fc.boolean(), thinking: fc.boolean(), longId: fc.boolean() }),
    { freq: 4 },
  ),
  calls: fc.array(callSpec, { maxLength: 3 }),
  parallel: fc.boolean(),
});
const fileSpec = fc.record({ turns: fc.array(turnSpec, { minLength: 1, maxLength: 5 }), pending: fc.boolean() });

function history(m: Mode, what: string): string {
  return m === 'include' ? '' : m === 'exclude' ? ' history=exclude' : ` history=summary summary="${what}"`;
}

/** A lint-clean message file from a spec. */
function generate(spec: fc.RecordValue<typeof fileSpec>): { text: string; ids: string[] } {
  const out = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '    system_prompt: You code.', '  reviewer:', '    models: [gpt-4o-mini]', 'default_agent: coder', '---', ''];
  const ids: string[] = [];
  let id = 0;
  let nonce = 0;
  const cell = (marker: string, cid: string, meta: string, body: string[]) => {
    ids.push(cid);
    out.push(`${marker}[^${cid}]`, '', `[^${cid}]: ${meta}`, '', ...body, '');
  };
  const call = (parent: string, c: fc.RecordValue<typeof callSpec>, n: number): string => {
    const cid = `${parent}.n${(nonce++).toString(36).padStart(3, '0')}k`;
    const body = c.legacy
      ? ['<tool>', `{${c.server ? `"server_name": "${c.server}", ` : ''}"tool_name": "read_file", "arguments": {"path": "f${n}.py"}}`, '</tool>']
      : ['Reading it.', '', '<tool>', ...(c.server ? [`<server_name>${c.server}</server_name>`] : []), '<tool_name>read_file</tool_name>', '<arguments>', `  <path>f${n}.py</path>`, '</arguments>', '</tool>'];
    cell('## %%% Call', cid, `[tool] name="read_file"${history(c.mode, 'read a file')}`, body);
    return cid;
  };
  const results = (cid: string, c: fc.RecordValue<typeof callSpec>) => {
    for (let r = 1; r <= c.results; r++) {
      cell('## %%% Result', `${cid}.${r}`, `[tool] status="${c.error && r === c.results ? 'error' : 'success'}"${history(c.mode, 'file read')}`, [`line ${r}`]);
    }
  };
  spec.turns.forEach((t, ti) => {
    const u = String(++id);
    if (t.user.code) {
      cell('# %% Run', u, `[code]${history(t.user.mode, 'ran code')}`, ['Try it:', '', '```python', `print(${ti})`, '```']);
      t.user.outputs.forEach((m, k) => cell('# %%% Output', `${u}.${k + 1}`, `[python] status="success"${history(m, 'output')}`, [`stdout> ${ti}`]));
    } else {
      cell('# %% Ask', u, `[markdown]${history(t.user.mode, 'a question')}`, [`Question ${ti}?`]);
    }
    if (!t.reply) return;
    const r = t.reply;
    const a = r.longId ? `reading-the-configuration-file-first-${++id}` : String(++id);
    cell('# %%% Answer', a, `[${r.agent}]${r.reasoning ? ' reasoning=1' : ''}${history(r.mode, 'an answer')}`, [...(r.thinking ? ['[Think first.]', ''] : []), `Answer ${ti}.`]);
    if (t.parallel) {
      const cids = t.calls.map((c, n) => call(a, c, n));
      t.calls.forEach((c, n) => results(cids[n]!, c));
    } else {
      t.calls.forEach((c, n) => results(call(a, c, n), c));
    }
  });
  if (spec.pending) {
    const a = String(++id);
    cell('# %%% Still working', a, '[coder]', ['One more file.']);
    call(a, { mode: 'include', results: 0, error: false, legacy: false, server: '' }, 9);
  }
  return { text: out.join('\n'), ids };
}

describe('export pairs every tool call with its result', () => {
  it('for lint-clean files with random history settings, --until and --code-as-tool', () => {
    let exportedCalls = 0;
    let leftOut = 0;
    let longIds = 0;
    let qualified = 0;
    fc.assert(
      fc.property(fileSpec, fc.boolean(), fc.option(fc.nat(), { freq: 2 }), (spec, codeAsTool, untilAt) => {
        const { text, ids } = generate(spec);
        const doc = parse(text, { fileName: 'generated.msg.md' });
        const diagnostics = lintDocument(doc);
        const until = untilAt === null ? undefined : ids[untilAt % ids.length];
        const view = toLLMView(doc, { codeAsTool, until });
        // Lint-clean: errors would make the view invalid; legacy calls only warn.
        expect(diagnostics.filter((d) => d.severity === 2).map((d) => `${d.ruleId}: ${d.message}`)).toEqual([]);
        if (!codeAsTool) expect(viewBlockers(doc, view, diagnostics)).toEqual([]);
        const openai = formatLLMView(view, 'openai');
        for (const m of openai) if (m.role === 'assistant') exportedCalls += m.tool_calls?.length ?? 0;
        for (const m of view.messages) for (const c of m.toolCalls ?? []) if (c.id.length > 40) longIds++;
        if (JSON.stringify(openai).includes('__read_file')) qualified++;
        leftOut += view.omitted.length;
        expect(openaiRules(openai)).toEqual([]);
        expect(anthropicRulesOf(view)).toEqual([]);
        expect(vercelRules(formatLLMView(view, 'vercel'))).toEqual([]);
        expect(vercelLegacyRules(formatLLMView(view, 'vercel-legacy'))).toEqual([]);
        expect(contextRules(formatLLMView(view, 'context-json'))).toEqual([]);
        // Only calls without a result in the view are left out, never a call that has one.
        for (const o of view.omitted) expect(['no-result', 'no-call', 'empty']).toContain(o.reason);
      }),
      { numRuns: 300 },
    );
    // Not vacuous: calls were exported, and some were left out.
    expect(exportedCalls).toBeGreaterThan(100);
    expect(leftOut).toBeGreaterThan(10);
    expect(longIds).toBeGreaterThan(10);
    expect(qualified).toBeGreaterThan(10);
  });
});
