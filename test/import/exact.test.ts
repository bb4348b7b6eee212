// Issue 47, point 3: import is exact, or says why; and export says what it
// changes. Each test names the item of the issue it holds; each failed on
// the code before it (a tool name reported as changed, JSON outputs back as
// text, results merged unsaid, an invented "(conversation start)", names
// dropped and counted twice, results put in call order, a server-side call
// without its result unsaid, --from openai on an Anthropic conversation
// accepted, random nonces).

import { afterAll, describe, expect, it } from 'vitest';
import { exportNotes, formatLLMView, toLLMView } from '../../server/export/index.js';
import { importConversation } from '../../server/import/index.js';
import { lint } from '../../server/linter.js';
import { cleanupTempDirs, makeTree, run } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const imp = (data: unknown, from?: 'openai' | 'anthropic' | 'vercel') => importConversation(JSON.stringify(data), from ? { from } : {});
const problems = (text: string) => lint(text, { fileName: 'i.msg.md' }).diagnostics.map((d) => d.ruleId);
const notes = (text: string, to: Parameters<typeof exportNotes>[1]) => exportNotes(toLLMView(text), to).map((n) => n.message);
const call = (id: string, name: string, args = '{}') => ({ id, type: 'function', function: { name, arguments: args } });

describe('a tool name kept as it is is not reported as changed', () => {
  it('import says it kept the name, and why that is worth a word, never "changed"', () => {
    const r = imp([{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call('c1', 'get weather')] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }]);
    expect(r.text).toContain('<tool_name>get weather</tool_name>');
    expect(r.dropped.filter((l) => l.startsWith('changed'))).toEqual([]);
    expect(r.dropped).toEqual([
      'kept: tool names that the OpenAI and Anthropic APIs do not take, written as given (tool-name-syntax warns; export to those APIs refuses them, or with --force maps them) (message 2)',
    ]);
  });

  it('export says nothing of a name it sends as the file has it', () => {
    const r = imp([{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call('c1', 'get_weather')] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }]);
    for (const to of ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json'] as const) expect(notes(r.text, to)).toEqual([]);
  });
});

describe('an AI SDK JSON output keeps its type', () => {
  const data = [
    { role: 'user', content: 'weather?' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'w1', toolName: 'weather', input: { city: 'Paris' } }, { type: 'tool-call', toolCallId: 'w2', toolName: 'weather', input: { city: 'Oslo' } }] },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'w1', toolName: 'weather', output: { type: 'json', value: { temp: 21.5, sky: 'clear', alerts: [] } } },
        { type: 'tool-result', toolCallId: 'w2', toolName: 'weather', output: { type: 'error-json', value: { error: 'no station' } } },
      ],
    },
  ];

  it('written as its JSON text with output=json, lint clean, and exported to vercel as json again', () => {
    const r = imp(data);
    expect(r.dropped).toEqual([]);
    expect(r.text).toMatch(/\[tool\] output=json\n\n\{"temp":21\.5,"sky":"clear","alerts":\[\]\}\n/);
    expect(r.text).toMatch(/\[tool\] status=error output=json\n\n\{"error":"no station"\}\n/);
    expect(problems(r.text)).toEqual([]);
    const out = formatLLMView(toLLMView(r.text), 'vercel');
    expect(out.messages[2]).toEqual({ role: 'tool', content: (data[2] as Json).content });
    expect(notes(r.text, 'vercel')).toEqual([]);
    // A target without typed outputs gets the JSON text, as the AI SDK's own providers send it.
    expect(formatLLMView(toLLMView(r.text), 'openai').filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['{"temp":21.5,"sky":"clear","alerts":[]}', '{"error":"no station"}']);
  });

  it('a result marked output=json whose text is not JSON (edited) is sent as text, and said', () => {
    const text = imp(data).text.replace('{"error":"no station"}', 'no station');
    const out = formatLLMView(toLLMView(text), 'vercel');
    expect((out.messages[2] as Json).content[1].output).toEqual({ type: 'error-text', value: 'no station' });
    expect(notes(text, 'vercel')).toEqual([expect.stringMatching(/marked output=json but its text is not JSON: it is sent as text/)]);
  });
});

describe('two results for one call', () => {
  const data = [
    { role: 'user', content: 'weather?' },
    { role: 'assistant', content: null, tool_calls: [call('call_a', 'get_weather', '{"city":"NYC"}')] },
    { role: 'tool', tool_call_id: 'call_a', content: 'Partial result...' },
    { role: 'tool', tool_call_id: 'call_a', content: '{"temperature": 72}' },
  ];

  it('are two result cells; export sends them as one (no API takes two) and says so, on stderr too', () => {
    const r = imp(data);
    expect(r.text).toMatch(/\.1\]: \[tool\]\n\nPartial result\.\.\.\n/);
    expect(r.text).toMatch(/\.2\]: \[tool\]\n\n\{"temperature": 72\}\n/);
    const out = formatLLMView(toLLMView(r.text), 'openai');
    expect(out.slice(2)).toEqual([{ role: 'tool', tool_call_id: 'call_a', content: 'Partial result...\n\n{"temperature": 72}' }]);
    for (const to of ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json'] as const) {
      expect(notes(r.text, to)).toEqual([expect.stringMatching(/^the 2 results of the call 2\.[a-z0-9]{6} \(2\.[a-z0-9]{6}\.1, 2\.[a-z0-9]{6}\.2\) are sent as one, joined by a blank line: no API takes two results for one call$/)]);
    }
    const dir = makeTree({ 'chat.msg.md': r.text });
    const e = run(['export', 'chat.msg.md', '--to', 'openai'], { cwd: dir });
    expect(e.status).toBe(0);
    expect(e.stderr).toMatch(/^msglint: chat\.msg\.md:\d+: the 2 results of the call .* are sent as one/);
  });
});

describe('a conversation that opens with an assistant message', () => {
  const data = { messages: [{ role: 'assistant', content: [{ type: 'text', text: 'Hello, how can I help?' }] }, { role: 'user', content: [{ type: 'text', text: 'Nothing.' }] }] };

  it('comes back as it is: nothing is made up before it; export says the Anthropic API has refused such a start', () => {
    const r = imp(data, 'anthropic');
    const out = formatLLMView(toLLMView(r.text), 'anthropic');
    expect(out).toEqual(data);
    expect(JSON.stringify(out)).not.toContain('conversation start');
    expect(notes(r.text, 'anthropic')).toEqual([expect.stringMatching(/^the view opens with an assistant message, and no user message is made up before it: the Anthropic API has refused/)]);
    expect(importConversation(JSON.stringify(out)).text).toBe(r.text);
  });
});

describe('names: a tool message\'s and a participant\'s', () => {
  it('KodeAgent\'s tool messages keep their `name`, and --to openai sends it back', () => {
    const data = [
      { role: 'user', content: '1+1?' },
      { role: 'assistant', tool_calls: [call('c1', 'f')] },
      { role: 'tool', tool_call_id: 'c1', name: 'f', content: '2' },
      { role: 'assistant', content: 'It is 2.' },
    ];
    const r = imp(data);
    expect(r.dropped).toEqual([]);
    expect(r.text).toMatch(/\.1\]: \[tool\] name="f"\n/);
    expect(problems(r.text)).toEqual([]);
    const out = formatLLMView(toLLMView(r.text), 'openai');
    expect(out[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '2', name: 'f' });
    // Targets whose results name their tool send it as the call's: nothing to say; Anthropic has no field.
    expect(notes(r.text, 'vercel')).toEqual([]);
    expect(notes(r.text, 'anthropic')).toContainEqual(expect.stringMatching(/^the `name` of the cell 2\.[a-z0-9]{6}\.1 is not sent: --to anthropic has no field for it/));
  });

  it('a participant\'s `name` is its cell\'s, sent back by --to openai; one the file cannot hold is counted once', () => {
    const user = imp([{ role: 'user', content: 'hi', name: 'a' }]);
    expect(user.dropped).toEqual([]);
    expect(user.text).toContain('[^1]: [markdown] name="a"\n\nhi');
    expect(formatLLMView(toLLMView(user.text), 'openai')).toEqual([{ role: 'user', content: 'hi', name: 'a' }]);
    expect(imp([{ role: 'user', content: 'hi', name: 7 }]).dropped).toEqual(['dropped 1 provider-only field `name` (message 1)']);
    // AI SDK 3.x ids were counted twice too (as ids and as provider-only fields).
    const legacy = [{ id: '1', role: 'user', content: 'hi', name: 'a' }, { id: '2', role: 'assistant', content: '', function_call: { name: 'f', arguments: '{}' } }, { id: '3', role: 'function', name: 'f', content: 'ok' }];
    expect(importConversation(JSON.stringify(legacy)).dropped).toEqual(['dropped 3 message ids (messages 1, 2, 3)']);
    // The first system message is the agent's system_prompt, which has no name.
    expect(imp([{ role: 'system', content: 'Be brief.', name: 'policy' }, { role: 'user', content: 'hi' }]).dropped).toEqual(['dropped 1 provider-only field `name` (message 1)']);
  });
});

describe('parallel results in another order than their calls', () => {
  it('come back in the order they came, in every target that has ids', () => {
    const data = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a', 'slow'), call('b', 'fast')] },
      { role: 'tool', tool_call_id: 'b', content: 'fast done' },
      { role: 'tool', tool_call_id: 'a', content: 'slow done' },
    ];
    const r = imp(data);
    const view = toLLMView(r.text);
    expect(formatLLMView(view, 'openai')).toEqual(data);
    expect(formatLLMView(view, 'anthropic').messages[2]!.content.map((b) => (b.type === 'tool_result' ? b.tool_use_id : ''))).toEqual(['b', 'a']);
    expect((formatLLMView(view, 'vercel').messages[2] as Json).content.map((p: Json) => p.toolCallId)).toEqual(['b', 'a']);
  });
});

describe('a server-side call without its result', () => {
  it('is left out, and import says the conversation is incomplete', () => {
    const data = {
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'server_tool_use', id: 'srv_1', name: 'code_execution', input: { code: 'x' } }, { type: 'tool_use', id: 't1', name: 'get_weather', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }] },
      ],
    };
    const r = imp(data);
    expect(r.dropped).toEqual(['dropped 1 server-side tool block (message 2)', 'incomplete: server-side tool calls without their result in the input, left out (message 2)']);
    // With its result, the conversation is whole: only the blocks are said.
    (data.messages[1]!.content as Json[]).splice(2, 0, { type: 'code_execution_tool_result', tool_use_id: 'srv_1', content: {} });
    expect(imp(data).dropped).toEqual(['dropped 2 server-side tool blocks (message 2)']);
  });
});

describe('--from a format the input is not in', () => {
  it('an Anthropic conversation read --from openai is refused, naming the format it looks like', () => {
    const dir = makeTree({
      'chat.json': JSON.stringify({
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }] },
        ],
      }),
    });
    const r = run(['import', 'chat.json', '--from', 'openai'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'msglint: chat.json: read as openai, the input would lose 1 request field (system), 1 tool_use part (message 2), 1 tool_result part (message 3); it looks like anthropic, which keeps it: give --from anthropic, or leave --from out\n',
    );
    expect(run(['import', 'chat.json', '--from', 'anthropic'], { cwd: dir }).status).toBe(0);
  });

  it('a format that loses nothing more than the one it looks like stands', () => {
    const r = importConversation(JSON.stringify([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]), { from: 'anthropic' });
    expect(r.format).toBe('anthropic');
  });
});

describe('import is deterministic', () => {
  const data = [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: null, tool_calls: [call('x', 'f', '{"a":1}'), call('y', 'f', '{"a":1}')] },
    { role: 'tool', tool_call_id: 'x', content: '1' },
    { role: 'tool', tool_call_id: 'y', content: '2' },
    { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }, { type: 'function', function: { name: 'f', arguments: '{}' } }] },
    { role: 'tool', content: 'no id' },
    { role: 'tool', content: 'no id' },
    { role: 'tool', tool_call_id: 'gone', content: 'orphan' },
  ];

  it('the same input gives the same file, byte for byte; nonces stay unique, even of identical calls', () => {
    const a = imp(data);
    expect(imp(data).text).toBe(a.text);
    // Four calls and the call the orphan result names, which no cell has.
    const nonces = new Set([...a.text.matchAll(/^\[\^\d+\.([a-z0-9]+)(?:\.\d+)?\]:/gm)].map((m) => m[1]));
    expect(nonces.size).toBe(5);
    for (const n of nonces) expect(n).toMatch(/^(?=.*[a-z])[a-z0-9]{6}$/);
  });

  it('as a process too: two runs, the same stdout', () => {
    const dir = makeTree({ 'chat.json': JSON.stringify(data) });
    const one = run(['import', 'chat.json'], { cwd: dir });
    expect(one.status).toBe(0);
    expect(run(['import', 'chat.json'], { cwd: dir }).stdout).toBe(one.stdout);
  });
});

describe('JSON arguments', () => {
  it('keep their values, types included; the text\'s own spacing does not come back, and import says so', () => {
    const r = imp([{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: [call('c', 'f', '{"city": "NYC", "n": 2, "ok": true}')] }, { role: 'tool', tool_call_id: 'c', content: 'ok' }]);
    const sent = formatLLMView(toLLMView(r.text), 'openai')[1] as Json;
    expect(JSON.parse(sent.tool_calls[0].function.arguments)).toEqual({ city: 'NYC', n: 2, ok: true });
    expect(sent.tool_calls[0].function.arguments).toBe('{"city":"NYC","n":2,"ok":true}');
    expect(r.dropped).toEqual(['changed: the spacing of JSON arguments text (its values are kept, as typed arguments, which export sends as compact JSON) (message 2)']);
    // Compact text comes back byte for byte: nothing to say.
    expect(imp([{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: [call('c', 'f', '{"city":"NYC"}')] }, { role: 'tool', tool_call_id: 'c', content: 'ok' }]).dropped).toEqual([]);
  });
});
