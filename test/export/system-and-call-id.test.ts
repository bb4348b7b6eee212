// `role="system"` message cells and tool calls' `call_id` (spec sections 5
// and 9) in the LLM view and in every target.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportNotes, formatLLMView, toLLMView, type ContextEntry } from '../../server/export/index.js';
import { file } from '../helpers.js';
import { anthropicRules, openaiRules, vercelRules } from './api-rules.js';

const FRONT = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '    system_prompt: You code.', 'default_agent: coder', '---', ''];
const ask = (id: string, text: string, meta = '') => [`# %% [^${id}]`, `[^${id}]: [markdown]${meta}`, '', text, ''];
const reply = (id: string, text: string) => [`# %%% [^${id}]`, `[^${id}]: [coder]`, '', text, ''];
const call = (id: string, meta = '') => [`## %%% [^${id}]`, `[^${id}]: [tool] name="read_file"${meta}`, '', '<tool>', '<tool_name>read_file</tool_name>', '<arguments><path>a.py</path></arguments>', '</tool>', ''];
const result = (id: string, text = `result of ${id}`) => [`## %%% [^${id}]`, `[^${id}]: [tool] status="success"`, '', text, ''];
const msg = (...cells: string[][]) => file(...FRONT, ...cells.flat());

describe('role="system"', () => {
  const text = msg(
    ask('0', 'Be brief.', ' role="system"'),
    ask('s', 'Use British spelling.', ' role=system'),
    ask('1', 'Hi?'),
    reply('2', 'Hello.'),
    ask('3', 'Switch tone.', ' role="system"'),
    ask('4', 'Go.'),
  );
  const view = toLLMView(text);

  it('joins the system prompt before every other message, and is a system message after', () => {
    expect(view.systemPrompt).toBe('You code.\n\nBe brief.\n\nUse British spelling.');
    expect(view.systemCells).toEqual(['0', 's']);
    expect(view.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hi?'],
      ['assistant', 'Hello.'],
      ['system', 'Switch tone.'],
      ['user', 'Go.'],
    ]);
  });

  it('is the system prompt alone without an agent prompt; another value is a user message', () => {
    const v = toLLMView(file(...ask('1', 'Rules.', ' role="system"'), ...ask('2', 'Q?', ' role="assistant"')));
    expect(v.systemPrompt).toBe('Rules.');
    expect(v.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('openai, vercel-legacy: a system message in place', () => {
    const openai = formatLLMView(view, 'openai');
    expect(openai.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'system', 'user']);
    expect(openai[3]).toEqual({ role: 'system', content: 'Switch tone.' });
    expect(openaiRules(openai)).toEqual([]);
    expect(formatLLMView(view, 'vercel-legacy').map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'system', 'user']);
  });

  it('vercel: a system message in `messages`, and a note that generateText needs allowSystemInMessages', () => {
    const vercel = formatLLMView(view, 'vercel');
    expect(vercel.system).toBe('You code.\n\nBe brief.\n\nUse British spelling.');
    expect(vercel.messages[2]).toEqual({ role: 'system', content: 'Switch tone.' });
    expect(vercelRules(vercel)).toEqual([]);
    expect(exportNotes(view, 'vercel').map((n) => n.cell)).toEqual(['3']);
  });

  it('anthropic: a later one is a <system> text block of the user turn at its place, and the export says so', () => {
    const out = formatLLMView(view, 'anthropic');
    expect(out.system).toBe('You code.\n\nBe brief.\n\nUse British spelling.');
    expect(out.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system>\nSwitch tone.\n</system>' },
          { type: 'text', text: 'Go.' },
        ],
      },
    ]);
    expect(anthropicRules(out)).toEqual([]);
    const notes = exportNotes(view, 'anthropic');
    expect(notes.map((n) => n.cell)).toEqual(['3']);
    expect(notes[0]!.message).toMatch(/one system prompt/);
    expect(exportNotes(view, 'openai')).toEqual([]);
  });

  it('anthropic: after a tool result, in the user turn of the results, after them', () => {
    const v = toLLMView(msg(ask('1', 'Read it.'), reply('2', 'Reading.'), call('2.abcd'), result('2.abcd.1'), ask('3', 'Now be careful.', ' role="system"')));
    const out = formatLLMView(v, 'anthropic');
    expect(out.messages[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(anthropicRules(out)).toEqual([]);
    expect(openaiRules(formatLLMView(v, 'openai'))).toEqual([]);
  });

  it('context-json and console: a system entry at its place, in the turn before it', () => {
    const entries: ContextEntry[] = formatLLMView(view, 'context-json', { time: '2025-01-01T00:00:00Z' });
    expect(entries.map((e) => [e.role, e.turn])).toEqual([
      ['system', 0],
      ['user', 0],
      ['assistant', 1],
      ['system', 1],
      ['user', 2],
    ]);
    expect(entries[3]!.content).toBe('Switch tone.');
    const console = formatLLMView(view, 'console');
    expect(console.split('\n\n').filter((b) => b.startsWith('🧠 System:'))).toEqual(['🧠 System: You code.', '🧠 System: Switch tone.']);
  });
});

// The AI SDK's own test of a mid-conversation system message
// (vercel/ai, packages/anthropic/src/convert-to-anthropic-prompt.test.ts),
// kept outside this repository: without it the test skips, saying why.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = process.env.MSGLINT_SHARED ?? path.resolve(ROOT, '../shared');
const MID_SYSTEM = path.join(SHARED, 'external/conversations/ai-sdk/ai-sdk-mid-conversation-system.json');
const midSystemMissing = existsSync(MID_SYSTEM) ? undefined : `${MID_SYSTEM} is absent (the data of another project stays outside this one; set MSGLINT_SHARED)`;

describe('a mid-conversation system message of the AI SDK', () => {
  it.skipIf(midSystemMissing !== undefined)(`is what --to vercel gives for role="system" cells${midSystemMissing ? ` (skipped: ${midSystemMissing})` : ''}`, () => {
    type Part = { type: string; text: string };
    const data = (JSON.parse(readFileSync(MID_SYSTEM, 'utf8')) as { data: { role: string; content: string | Part[] }[] }).data;
    const text = (c: string | Part[]) => (typeof c === 'string' ? c : c.map((p) => p.text).join(''));
    // The file a writer makes of it: each message a cell, system ones with role="system".
    const cells = data.map((m, i) => (m.role === 'assistant' ? reply(String(i + 1), text(m.content)) : ask(String(i + 1), text(m.content), m.role === 'system' ? ' role="system"' : '')));
    const out = formatLLMView(toLLMView(msg(...cells), { agent: 'coder' }), 'vercel');
    expect(out.system).toBe(`You code.\n\n${text(data[0]!.content)}`);
    expect(out.messages.map((m) => [m.role, typeof m.content === 'string' ? m.content : text(m.content as Part[])])).toEqual(data.slice(1).map((m) => [m.role, text(m.content)]));
  });
});

describe('call_id', () => {
  const exchange = (id: string, meta: string) => [...reply(id, `Calling ${id}.`), ...call(`${id}.abcd`, meta), ...result(`${id}.abcd.1`)];

  it('is the id of the call and of its results where the target takes it', () => {
    const v = toLLMView(msg(ask('1', 'Go.'), ...[exchange('2', ' call_id="toolu_01A9"')]));
    expect(v.messages[1]!.toolCalls![0]!.callId).toBe('toolu_01A9');
    const openai = formatLLMView(v, 'openai');
    expect(openai[2]).toMatchObject({ tool_calls: [{ id: 'toolu_01A9' }] });
    expect(openai[3]).toMatchObject({ role: 'tool', tool_call_id: 'toolu_01A9' });
    const anthropic = formatLLMView(v, 'anthropic');
    expect(anthropic.messages[1]!.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_01A9' });
    expect(anthropic.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01A9' });
    const vercel = formatLLMView(v, 'vercel');
    expect(vercel.messages[1]!.content[1]).toMatchObject({ type: 'tool-call', toolCallId: 'toolu_01A9' });
    expect(vercel.messages[2]!.content[0]).toMatchObject({ type: 'tool-result', toolCallId: 'toolu_01A9' });
  });

  it('is replaced by the cell id where the target does not take it', () => {
    const long = 'call_' + 'x'.repeat(40);
    const v = toLLMView(msg(ask('1', 'Go.'), exchange('2', ' call_id="call:a.b"'), exchange('3', ` call_id="${long}"`)));
    const openai = formatLLMView(v, 'openai');
    expect(openai.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []))).toEqual(['call:a.b', '3.abcd']);
    const anthropic = formatLLMView(v, 'anthropic');
    expect(anthropic.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])))).toEqual(['2_abcd', long]);
    const vercel = formatLLMView(v, 'vercel');
    expect(vercel.messages.flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool-call' ? [p.toolCallId] : [])) : []))).toEqual([
      '2_abcd',
      '3_abcd',
    ]);
    expect(openaiRules(openai)).toEqual([]);
    expect(anthropicRules(anthropic)).toEqual([]);
    expect(vercelRules(vercel)).toEqual([]);
  });

  it('is not used when another call of the view has the same one, and ids made from cell ids avoid it', () => {
    const v = toLLMView(msg(ask('1', 'Go.'), exchange('2', ' call_id="same"'), exchange('3', ' call_id="same"'), exchange('4', ' call_id="5_abcd"'), exchange('5', '')));
    const anthropic = formatLLMView(v, 'anthropic');
    const ids = anthropic.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
    expect(ids).toEqual(['2_abcd', '3_abcd', '5_abcd', '5_abcd_2']);
    expect(anthropicRules(anthropic)).toEqual([]);
  });
});
