// Hover and completion of issue 32's format additions, over stdio: `role`
// on message cells, `call_id` on tool calls, and the `type` attribute of
// argument elements inside a `<tool>` element (`json` on `<arguments>`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletionItem, CompletionList, Hover, TextEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits, fixtureUri, LspClient, positionOf } from './client.js';

const TEXT = [
  '---',
  'agents:',
  '  coder:',
  '    models: [gpt-4o]',
  '---',
  '# %% Rules[^1]',
  '[^1]: [markdown] role="system"',
  '',
  'Be brief.',
  '',
  '# %% Ask[^2]',
  '[^2]: [markdown] role=admin',
  '',
  'Count the files.',
  '',
  '# %%% [^3]',
  '[^3]: [coder] reasoning=1',
  '',
  '## %%% Call[^3.k7f3q]',
  '[^3.k7f3q]: [tool] name="count" call_id="toolu_01A9"',
  '',
  '<tool>',
  '<tool_name>count</tool_name>',
  '<arguments>',
  '  <limit type="number">3</limit>',
  '  <dirs type="array"><dir>src</dir></dirs>',
  '  <flag type="bool">true</flag>',
  '</arguments>',
  '</tool>',
  '',
  '## %%% Result[^3.k7f3q.1]',
  '[^3.k7f3q.1]: [tool] status="success"',
  '',
  '12',
  '',
].join('\n');

let client: LspClient;
let n = 0;
const uri = fixtureUri('format-attributes.msg.md');
beforeAll(async () => {
  client = await LspClient.start();
  await client.open(uri, TEXT);
});
afterAll(async () => {
  await client.stop();
});

const hover = async (needle: string, delta = 0): Promise<string> => {
  const h = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(TEXT, needle, delta) });
  return h ? (h.contents as { value: string }).value : '';
};

/** Opens `marked` with the cursor at `|` and returns the completion items there and a way to apply one. */
async function completeAt(marked: string): Promise<{ items: CompletionItem[]; apply: (label: string) => string }> {
  const at = marked.indexOf('|');
  const text = marked.slice(0, at) + marked.slice(at + 1);
  const u = fixtureUri(`format-attributes-${++n}.msg.md`);
  await client.open(u, text);
  const list = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri: u }, position: positionOf(text, marked.slice(0, at), at) });
  await client.close(u);
  const items = list?.items ?? [];
  return {
    items,
    apply: (label) => {
      const item = items.find((i) => i.label === label);
      if (!item) throw new Error(`no item '${label}' in ${items.map((i) => i.label).join(', ')}`);
      return applyTextEdits(text, [item.textEdit as TextEdit]);
    },
  };
}
const labels = (items: CompletionItem[]) => items.map((i) => i.label);
/** TEXT up to the end of `needle`, with the cursor there, and `rest` after it. */
const upTo = (needle: string, rest = '') => TEXT.slice(0, TEXT.indexOf(needle) + needle.length) + '|' + rest;

describe('hover', () => {
  it('on role and its values', async () => {
    expect(await hover('role="system"', 1)).toContain('**role**: Message cell: `user` (default) or `system`');
    expect(await hover('role="system"', 7)).toContain('**role=system**: A system message at this place of the conversation.');
    expect(await hover('role=admin', 7)).toContain('`admin` is not a role: use user or system.');
    expect(await hover('[^1]: [markdown]', 2)).toContain('Role: A system message');
  });

  it('on call_id, and the call says which id export sends', async () => {
    expect(await hover('call_id=', 2)).toContain("Export sends it as the call's id");
    expect(await hover('[^3.k7f3q]: [tool]', 5)).toContain('Call id: `toolu_01A9`');
  });

  it("on an argument's type: what it means, or that it is not one", async () => {
    expect(await hover('type="number"', 8)).toBe('**type="number"** on `<limit>`: The text is a JSON number: `<count type="number">3</count>`.');
    expect(await hover('type="array"', 1)).toContain('A list, even with one or no child element');
    expect(await hover('type="bool"', 7)).toContain('`bool` is not a type an argument may have: `number`, `boolean`, `null`, `array`, `object`.');
  });
});

describe('completion', () => {
  it('offers role on a message cell and call_id on a tool call', async () => {
    expect(labels((await completeAt(upTo('[^2]: [markdown] ', ''))).items)).toContain('role');
    expect(labels((await completeAt(upTo('[^3.k7f3q]: [tool] name="count" ', ''))).items)).toContain('call_id');
    expect(labels((await completeAt(upTo('[^3]: [coder] reasoning=1 ', ''))).items)).not.toContain('role');
  });

  it("offers role's values", async () => {
    const { items, apply } = await completeAt(TEXT.replace('role=admin', 'role=|'));
    expect(labels(items)).toEqual(['user', 'system']);
    expect(items[1]!.documentation).toContain('system prompt');
    expect(apply('system')).toContain('[^2]: [markdown] role=system\n');
  });

  it('offers type and its values in an argument element, json on <arguments>', async () => {
    const key = await completeAt(TEXT.replace('<limit type="number">', '<limit t|>'));
    expect(labels(key.items)).toEqual(['type']);
    expect(key.apply('type')).toContain('<limit type=">');
    const values = await completeAt(TEXT.replace('<limit type="number">', '<limit type="|>'));
    expect(labels(values.items)).toEqual(['number', 'boolean', 'null', 'array', 'object']);
    expect(values.apply('null')).toContain('<limit type="null">');
    const args = await completeAt(TEXT.replace('<arguments>', '<arguments type=|>'));
    expect(labels(args.items)).toEqual(['json']);
    expect(args.apply('json')).toContain('<arguments type="json">');
    expect((await completeAt(TEXT.replace('<tool_name>count', '<tool_name type="|>count'))).items).toEqual([]);
  });
});
