// Values cached per tree object live on the object (server/base/memo.ts),
// not in module-level WeakMaps, whose values V8's scavenger keeps alive: a
// cache keyed by a document kept every linted document alive until a full
// collection.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentInfos } from '../../server/agents/agents.js';
import { lint, lintDocument } from '../../server/linter.js';
import { parse } from '../../server/syntax/document.js';
import { MEMO, Memo, type MemoOwner } from '../../server/base/memo.js';
import { toolCallsOf } from '../../server/tool-calls/read.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEXT = [
  '---',
  'agents:',
  '  coder:',
  '    model: gpt-4o',
  '---',
  '',
  '# %% Ask[^1]',
  '',
  '[^1]: [markdown]',
  '',
  'Read the file, please.',
  '',
  '# %%% Reply[^2]',
  '',
  '[^2]: [coder]',
  '',
  'Reading it.',
  '',
  '## %%% Call[^2.abc12]',
  '',
  '[^2.abc12]: [tool] name="read"',
  '',
  '<tool>',
  '<tool_name>read</tool_name>',
  '<arguments><path>a.txt</path></arguments>',
  '</tool>',
  '',
  '### %%% Result[^2.abc12.1]',
  '',
  '[^2.abc12.1]: [tool] status="success"',
  '',
  'File contents here.',
  '',
].join('\n');

const owner = (): MemoOwner => ({ [MEMO]: undefined });

describe('Memo', () => {
  it('keeps one value per owner and memo', () => {
    const a = new Memo<MemoOwner, string>();
    const b = new Memo<MemoOwner, number>();
    const x = owner();
    const y = owner();
    expect(a.get(x)).toBeUndefined();
    b.set(x, 2);
    a.set(x, 'one');
    expect([a.get(x), b.get(x), a.get(y), b.get(y)]).toEqual(['one', 2, undefined, undefined]);
    a.set(x, 'again');
    expect(a.get(x)).toBe('again');
  });

  it('keeps the slots array packed (no holes)', () => {
    new Memo<MemoOwner, number>();
    const late = new Memo<MemoOwner, number>();
    const x = owner();
    late.set(x, 1);
    const slots = x[MEMO]!;
    expect(slots.length).toBeGreaterThan(1);
    for (let i = 0; i < slots.length; i++) expect(i in slots).toBe(true);
  });
});

describe('tree objects that hold memos', () => {
  it('do not show them to JSON.stringify or Object.keys', () => {
    const doc = parse(TEXT, { fileName: 'a.msg.md' });
    lintDocument(doc);
    agentInfos(doc);
    const withTools = doc.cells.find((c) => c.parse && toolCallsOf(c).length > 0)!;
    expect(withTools).toBeDefined();
    expect(withTools.parse![MEMO]).toBeDefined();
    expect(doc[MEMO]).toBeDefined();
    expect(Object.keys(doc)).not.toContain('memo');
    expect(JSON.stringify(withTools.parse)).not.toMatch(/memo/);
  });

  it('answer from the memo: the same value twice, a new one for a new parse', () => {
    const doc = parse(TEXT, { fileName: 'a.msg.md' });
    expect(agentInfos(doc)).toBe(agentInfos(doc));
    const cell = doc.cells.find((c) => c.parse && c.parse.tools.length > 0)!;
    expect(toolCallsOf(cell)).toBe(toolCallsOf(cell));
    const again = parse(TEXT, { fileName: 'a.msg.md' });
    expect(agentInfos(again)).not.toBe(agentInfos(doc));
    expect(agentInfos(again)).toEqual(agentInfos(doc));
  });
});

describe('caches of tree objects', () => {
  it('are not module-level WeakMaps keyed by documents, parses or structures', () => {
    const sources: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (name.endsWith('.ts')) sources.push(file);
      }
    };
    walk(path.join(ROOT, 'server'));
    walk(path.join(ROOT, 'rules'));
    const offenders = sources.filter((file) => /new WeakMap<\s*(MessageDocument|CellParse|FileFacts|Cell|Segment|object)\b/.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => path.relative(ROOT, file))).toEqual([]);
  });
});
