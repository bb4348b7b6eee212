// importConversation: which source it recognises, how a conversation is
// written (agent, system prompt, replies, calls, results), what `dropped`
// says, and the one-line errors.

import { describe, expect, it } from 'vitest';
import { toLLMView } from '../../server/export/index.js';
import { detectFormat, ImportError, importConversation } from '../../server/import/index.js';
import { lint } from '../../server/linter.js';
import { seeded } from './shared.js';

const imp = (data: unknown, from?: Parameters<typeof importConversation>[1] extends infer O ? O extends { from?: infer F } ? F : never : never) =>
  importConversation(JSON.stringify(data), { random: seeded(), ...(from !== undefined ? { from } : {}) });
const clean = (text: string) => lint(text, { fileName: 'i.msg.md' }).diagnostics.map((d) => `${d.ruleId} ${d.range.start.line + 1}: ${d.message}`);

describe('detectFormat', () => {
  it.each([
    ['openai', [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }]],
    ['openai', [{ role: 'developer', content: 'x' }]],
    ['anthropic', { system: 'x', messages: [{ role: 'user', content: 'hi' }] }],
    ['anthropic', [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }]],
    ['vercel', [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't', toolName: 'f', input: {} }] }]],
    ['vercel-legacy', [{ id: '1', role: 'assistant', content: '', function_call: { name: 'f', arguments: '{}' } }]],
    ['context-json', [{ index: 0, turn: 0, timestamp: '2025-01-01T00:00:00Z', role: 'user', content: { userid: 'user', text: 'hi' } }]],
    ['dexto', [{ role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1000 }]],
    ['forge', [{ role: 'assistant', content: '<tool><tool_name>f</tool_name></tool>' }, { role: 'tool', content: 'ok' }]],
  ])('%s', (format, data) => {
    expect(detectFormat(data)).toBe(format);
  });

  it('recognises nothing in what is no conversation', () => {
    expect(detectFormat({ a: 1 })).toBeUndefined();
    expect(detectFormat([1, 2])).toBeUndefined();
    expect(detectFormat('text')).toBeUndefined();
  });
});

describe('importConversation', () => {
  it('names the agent after the model, one id segment; the first system message is its system_prompt, a later one a role="system" cell', () => {
    const r = imp({ model: 'claude-3.5 sonnet', system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] }, 'anthropic');
    expect(r.text.startsWith('---\nagents:\n  claude-3-5-sonnet:\n    models: ["claude-3.5 sonnet"]\n    system_prompt: Be brief.\ndefault_agent: claude-3-5-sonnet\n---\n')).toBe(true);
    const o = imp([{ role: 'system', content: 'first' }, { role: 'user', content: 'hi' }, { role: 'system', content: 'later' }], 'openai');
    expect(o.text).toContain('system_prompt: first');
    expect(o.text).toContain('[^2]: [markdown] role="system"\n\nlater');
    expect(toLLMView(o.text).messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['system', 'later'],
    ]);
    expect(clean(o.text)).toEqual([]);
  });

  it('keeps call ids, typed arguments, arguments that are no JSON object, errors and several results', () => {
    const r = imp([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'Calling.', tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"n":1,"ok":true,"none":null,"list":["a"]}' } },
        { id: 'call_2', type: 'function', function: { name: 'g', arguments: 'arg1, arg2' } },
      ] },
      { role: 'tool', tool_call_id: 'call_1', content: 'one' },
      { role: 'tool', tool_call_id: 'call_1', content: 'two' },
      { role: 'tool', tool_call_id: 'call_2', content: 'bad' },
    ]);
    expect(r.format).toBe('openai');
    expect(r.dropped).toEqual([]);
    expect(clean(r.text)).toEqual([]);
    const calls = toLLMView(r.text).messages[1]!.toolCalls!;
    expect(calls.map((c) => [c.callId, c.input, c.function.arguments])).toEqual([
      ['call_1', { n: 1, ok: true, none: null, list: ['a'] }, '{"n":1,"ok":true,"none":null,"list":["a"]}'],
      ['call_2', {}, 'arg1, arg2'],
    ]);
    expect(r.text).toMatch(/\[\^2\.[a-z0-9]{6}\.2\]: \[tool\]\n\ntwo/);
  });

  it('lists what it leaves out, one line per kind, with the messages', () => {
    const r = imp({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'text', text: 'a cat', cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }, { type: 'text', text: 'and this?' }] },
      ],
    });
    expect(r.format).toBe('anthropic');
    expect(r.dropped).toEqual(['dropped 2 image blocks (messages 1, 3)', 'dropped 1 thinking signature (message 2)', 'dropped 1 provider-only field `cache_control` (message 2)']);
    expect(r.text).toContain('[hmm]\n\na cat');
    expect(clean(r.text)).toEqual([]);
  });

  it('writes a result whose call is missing as a fragment that lint reports, and says so', () => {
    const r = imp([{ role: 'tool', tool_call_id: 'nowhere', content: 'x' }], 'openai');
    expect(r.dropped).toEqual(['changed: results without their call, written as results of a call that is not in the file (message 1)']);
    expect(clean(r.text).map((l) => l.split(' ')[0])).toEqual(['tool-result-orphan']);
  });

  it('Forge: the reply keeps the raw <tool>, a call cell records it, results answer in order', () => {
    const r = imp([
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: 'Sure.\n<tool><server_name>local</server_name><tool_name>read_file</tool_name><arguments><path>a.txt</path></arguments></tool>' },
      { role: 'tool', content: 'contents' },
    ], 'forge');
    expect(clean(r.text)).toEqual([]);
    const view = toLLMView(r.text);
    expect(view.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'read it'],
      ['assistant', 'Sure.'],
      ['tool', 'contents'],
    ]);
    expect(view.messages[1]!.toolCalls![0]!.input).toEqual({ path: 'a.txt' });
  });

  it('dexto: millisecond timestamps become time', () => {
    const r = imp([{ role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1000 }], 'dexto');
    expect(r.text).toContain('[^1]: [markdown] time="1970-01-01T00:00:01Z"');
  });

  it('context-json: userid, thinking, a call with its result', () => {
    const r = imp([
      { index: 0, turn: 0, timestamp: '2025-01-01T00:00:00Z', role: 'user', content: { userid: 'ann', text: 'hi' } },
      { index: 1, turn: 1, timestamp: '2025-01-01T00:00:01Z', role: 'assistant', content: { text: 'ok', reasoning: 'think' } },
      { index: 2, turn: 1, timestamp: '2025-01-01T00:00:01Z', timestampEstimated: true, role: 'assistant', content: { toolCall: 'f', path: 'x', result: 'done' } },
    ]);
    expect(r.format).toBe('context-json');
    expect(r.text).toContain('[^1]: [markdown] time="2025-01-01T00:00:00Z" userid=ann');
    expect(r.text).toContain('[think]\n\nok');
    expect(clean(r.text)).toEqual([]);
  });

  it('redact: credentials become [REDACTED:KIND]', () => {
    const token = `ghp_${'aB3dE5fG7h'.repeat(3)}K9mN2p`;
    const r = importConversation(JSON.stringify([{ role: 'user', content: `token ${token}` }]), { redact: true });
    expect(r.text).not.toContain(token);
    expect(r.text).toMatch(/token \[REDACTED:[^\]]+\]/);
  });

  it.each([
    ['{', /^not JSON: /],
    ['{"a":1}', /^not a conversation of a known shape \(give --from FORMAT\)$/],
    ['[{"role":"user","content":"x"},{"role":"robot"}]', /^message 2 has the role "robot"/],
  ])('ImportError, one line: %s', (input, message) => {
    expect(() => importConversation(input)).toThrow(ImportError);
    try {
      importConversation(input);
    } catch (e) {
      expect((e as Error).message).toMatch(message);
      expect((e as Error).message).not.toContain('\n');
    }
  });

  it('never throws anything but ImportError', () => {
    for (const input of ['null', '[]', '[null]', '{"messages":[{"role":"assistant","content":[null,{"type":"tool_use"}]}]}', '[{"role":"tool"}]', '[{"role":"assistant","tool_calls":[null]}]', '{"messages":{}}']) {
      try {
        const r = importConversation(input);
        expect(typeof r.text).toBe('string');
      } catch (e) {
        expect(e).toBeInstanceOf(ImportError);
      }
    }
  });

  it('says which numbers JSON.parse read as another (issue 46); an OpenAI call\'s text keeps them as written', () => {
    const input = { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { ok: 2 } }] }] };
    const text = JSON.stringify(input).replace('{"ok":2}', '{"ok":2,"id":12345678901234567890,"big":1e999,"tiny":1e-400,"fine":1.50}');
    const r = importConversation(text, { random: seeded() });
    expect(r.dropped).toEqual(['changed: numbers that a double does not hold, read as the nearest it holds (12345678901234567890 as 12345678901234567000, 1e999 as null, 1e-400 as 0)']);
    expect(r.text).toContain('<id type="number">12345678901234567000</id>');
    expect(clean(r.text)).toEqual([]);
    const openai = imp([{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"id":12345678901234567890}' } }] }]);
    expect(openai.dropped).toEqual([]);
    expect(openai.text).toContain('<arguments type="json"><![CDATA[{"id":12345678901234567890}]]></arguments>');
  });
});
