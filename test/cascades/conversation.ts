// A small valid conversation with one cell of every kind, to break one thing
// at a time: each test file under test/cascades/ breaks it at one root cause
// and expects that cause reported once, with only the findings that stand
// on their own beside it (spec: report each problem once, at its root).
import { check, file } from '../helpers.js';

export const FRONTMATTER = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', '---', ''];

/** The cells, by name; `build` joins them in this order. */
export const CELLS = {
  ask: ['# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Read app.py.', ''],
  reply: ['# %%% Plan[^2]', '', '[^2]: [coder]', '', 'Reading.', ''],
  call: ['## %%% Call[^2.k7f3q]', '', '[^2.k7f3q]: [tool] name="read_file"', '', '<tool>', '<tool_name>read_file</tool_name>', '<arguments><path>app.py</path></arguments>', '</tool>', ''],
  result: ['## %%% Result[^2.k7f3q.1]', '', '[^2.k7f3q.1]: [tool] status="success"', '', 'def add(a, b): return a - b', ''],
  code: ['# %% Run[^3]', '', '[^3]: [code]', '', '```python', 'print(1 + 2)', '```', ''],
  out: ['# %%% [^3.1]', '', '[^3.1]: [python] status="success"', '', 'stdout> 3', ''],
  done: ['# %%% Done[^4]', '', '[^4]: [coder]', '', 'Fixed.'],
};

export type CellName = keyof typeof CELLS;

/** The conversation with some cells replaced (and the frontmatter, when given). */
export function build(cells: Partial<Record<CellName, string[]>> = {}, frontmatter: string[] = FRONTMATTER): string {
  const all = { ...CELLS, ...cells };
  return file(...frontmatter, ...all.ask, ...all.reply, ...all.call, ...all.result, ...all.code, ...all.out, ...all.done);
}

/** A cell's lines with one piece of text replaced everywhere in them. */
export function edit(name: CellName, from: string, to: string): string[] {
  return CELLS[name].map((line) => line.split(from).join(to));
}

/** A cell's lines with lines inserted before line `at` (0: the marker). */
export function insert(name: CellName, at: number, ...lines: string[]): string[] {
  const out = [...CELLS[name]];
  out.splice(at, 0, ...lines);
  return out;
}

/** What the linter reports, as `rule line:column text`, in order. */
export function findings(text: string): string[] {
  return check(text).map((f) => `${f.ruleId} ${f.line}:${f.column} ${f.text}`);
}
