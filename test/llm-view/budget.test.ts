// The view's running total (server/llm-view/budget.ts): one value per
// version, the numbers of the context-window rule, counted only as far as a
// question needs, and carried from version to version on the editor's path
// without changing an earlier version.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateMessageFile } from '../../bench/generate.mjs';
import { addsOf, viewBudget, wholeView } from '../../server/llm-view/budget.js';
import { lintDocument, parse, type MessageDocument } from '../../server/index.js';
import { toLLMView } from '../../server/export/index.js';
import { thinkingTokens } from '../../server/llm-view/tokens.js';

const example = readFileSync(fileURLToPath(new URL('../../examples/coding-session.msg.md', import.meta.url)), 'utf8');

/** Every cell's count, the total before it and, at a reply, the reply's total. */
function totals(doc: MessageDocument): unknown[] {
  const out: unknown[] = [];
  const budget = viewBudget(doc);
  budget.forEach(0, budget.length, (i, count, before, reply) => out.push([i, addsOf(count), before, reply?.tokens, reply?.count.window]));
  return [out, wholeView(doc).tokens];
}

describe('the running total', () => {
  it("is what context-window reports: the rule's number at the first reply over the window", () => {
    const text = example.replace('context_window: 128000', 'context_window: 150');
    const doc = parse(text, { fileName: 'a.msg.md' });
    const found = lintDocument(doc).filter((d) => d.ruleId === 'context-window');
    expect(found).toHaveLength(1);
    const reported = Number(/about ([\d,]+) tokens/.exec(found[0]!.message)![1]!.replace(/,/g, ''));
    const over: number[] = [];
    viewBudget(doc).forEach(0, doc.cellCount, (_i, _count, _before, reply) => {
      if (reply?.count.window !== undefined && reply.tokens > reply.count.window) over.push(reply.tokens);
    });
    expect(over[0]).toBe(reported);
  });

  it('counts the cells only as far as asked: a screen of a long file reads the chunks before it', () => {
    const doc = parse(generateMessageFile({ turns: 1000 }), { fileName: 'a.msg.md' });
    const budget = viewBudget(doc);
    expect(budget.counted).toBe(0);
    // The first screen: its own cells.
    budget.forEach(0, 20, () => undefined);
    expect(budget.counted).toBe(0);
    // A screen in the second chunk: the first chunk's total, then a walk.
    budget.forEach(300, 320, () => undefined);
    expect(budget.counted).toBe(256);
    expect(budget.complete).toBe(false);
    expect(budget.total).toBeGreaterThan(0);
    expect(budget.complete).toBe(true);
    expect(budget.counted).toBe(doc.cellCount);
  });

  it("takes the previous version's counts on the editor's path: a keystroke recounts its own chunk only", () => {
    const text = generateMessageFile({ turns: 1000 });
    const first = parse(text, { fileName: 'a.msg.md' });
    const before = viewBudget(first);
    void before.total;
    const at = text.indexOf('\n', text.indexOf('# %% Question 500[')) - 1;
    const next = parse(text.slice(0, at) + 'x' + text.slice(at), { fileName: 'a.msg.md', previous: first, edit: { start: at, oldEnd: at, text: 'x' } });
    const after = viewBudget(next);
    const changed = after.slots.chunks.filter((chunk, c) => chunk !== before.slots.chunks[c]);
    expect(changed).toHaveLength(1);
    expect(totals(next)).toEqual(totals(parse(next.text, { fileName: 'a.msg.md' })));
  });

  it('counts a cell again when an edit elsewhere gives it a metadata line (a refreshed cell)', () => {
    const text = '# %% Q[^9]\n\nhello there my friend\n\n# %% R[^1]\n\n[^1]: [markdown]\n\nworld\n';
    const first = parse(text, { fileName: 'a.msg.md' });
    void viewBudget(first).total;
    const line = '[^9]: [markdown] history=exclude\n';
    const at = text.indexOf('world');
    const next = parse(text.slice(0, at) + line + text.slice(at), { fileName: 'a.msg.md', previous: first, edit: { start: at, oldEnd: at, text: line } });
    expect(next.edit?.replaced.refreshed).toHaveLength(1);
    expect(totals(next)).toEqual(totals(parse(next.text, { fileName: 'a.msg.md' })));
    expect(viewBudget(next).before(1)).toBe(0);
  });

  // Cells, words, history settings, and metadata lines of other cells' ids (the edit then refreshes those cells).
  const pieces = ['# %% [^9]\n', '# %%% [^8]\n', '# %%% [^2.abcd]\n', '\n', 'x', 'word ', ' history=summary', ' history=exclude', '```\n', '<tool>'];
  const metadata = ['[^9]: [markdown] history=exclude\n', '[^8]: [reviewer]\n', '[^8]: [coder] history=summary\n', '[^1]: [markdown]\n', '[^6]: [coder]\n'];
  const edit = fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    del: fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: 60 })),
    ins: fc.array(fc.constantFrom(...pieces, ...metadata), { maxLength: 3 }).map((a) => a.join('')),
  });

  it('of every kept version equals that of a fresh parse of its text, and making a later one leaves it as it was', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 8 }), fc.boolean(), (edits, countEarly) => {
        let text = example;
        let doc = parse(text, { fileName: 'a.msg.md' });
        const versions: { doc: MessageDocument; expected: unknown[] }[] = [];
        for (const e of edits) {
          // Counted now or later: a version counted after the next one was made must still answer for its own text.
          if (countEarly) totals(doc);
          else viewBudget(doc);
          versions.push({ doc, expected: totals(parse(text, { fileName: 'a.msg.md' })) });
          const at = Math.floor(e.at * text.length);
          const oldEnd = Math.min(text.length, at + e.del);
          text = text.slice(0, at) + e.ins + text.slice(oldEnd);
          doc = parse(text, { fileName: 'a.msg.md', previous: doc, edit: { start: at, oldEnd, text: e.ins } });
          viewBudget(doc);
          lintDocument(doc);
        }
        versions.push({ doc, expected: totals(parse(text, { fileName: 'a.msg.md' })) });
        for (const [i, v] of versions.entries()) expect(totals(v.doc), `version ${i}`).toEqual(v.expected);
      }),
      { numRuns: 150 },
    );
  });
});

describe("a reply's thinking paragraph", () => {
  const head = '---\nagents:\n  coder:\n    context_window: 100000\n    system_prompt: Be brief.\ndefault_agent: coder\n---\n\n# %% Q[^1]\n\n[^1]: [markdown]\n\nWhy does it fail?\n\n';
  const reply = (id: number, body: string): string => `# %%% R${id}[^${id}]\n\n[^${id}]: [coder]\n\n${body}\n\n`;
  const thinking = ['[I should read\nthe two files first.]', '  [Short.]  \n\t\n'];
  const notThinking = ['\\[Not thinking, escaped.]', '[^9] is a footnote.]', '[A link](https://example.com) opens it.', '[Opened but not closed'];
  const bodies = [...thinking.map((t) => `${t}\n\nThe answer.`), ...notThinking.map((t) => `${t}\n\nThe answer.`), thinking[0]!];

  it('is left out of every count, as `msglint export --to openai` leaves it out; what the export does not split off is counted', () => {
    const text = head + bodies.map((b, i) => reply(i + 2, b)).join('');
    const doc = parse(text, { fileName: 'a.msg.md' });
    // The same file with the thinking paragraphs (and the blank lines after them) taken out.
    let bare = text;
    for (const t of thinking) bare = bare.split(`${t}\n\n`).join('');
    expect(totals(doc)).toEqual(totals(parse(bare, { fileName: 'a.msg.md' })));
    // Which replies have thinking is what the export splits off.
    const split = new Set(toLLMView(doc).messages.filter((m) => m.source.thinking !== undefined).flatMap((m) => m.source.cells));
    const counted = doc.cells.filter((c) => thinkingTokens(doc, c) > 0).map((c) => c.id);
    expect(counted).toEqual([...split]);
    expect(counted).toEqual(['2', '3', String(bodies.length + 1)]);
  });
});
