// Builders for message files around tool calls, for the tool-call rule tests.
import { check, file, type Found } from '../helpers.js';
import type { LintOptions } from '../../server/engine/types.js';

export const TOOL_RULES = [
  'tool-call-parent',
  'tool-call-nonce',
  'nonce-reused',
  'tool-result-orphan',
  'tool-result-sequence',
  'tool-call-unanswered',
  'tool-name-mismatch',
  'tool-xml',
  'tool-xml-structure',
  'cdata-unterminated',
  'cdata-placeholder',
  'cdata-recommended',
  'legacy-json-tool-call',
  'legacy-json-invalid',
];

export const FRONTMATTER = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', ''];

export function ask(id = '1', text = 'Please read app.py.'): string[] {
  return [`# %% Ask[^${id}]`, '', `[^${id}]: [markdown]`, '', text, ''];
}

export function reply(id = '2', text = '[I should read the file first.]'): string[] {
  return [`# %%% Plan[^${id}]`, '', `[^${id}]: [coder]`, '', ...text.split('\n'), ''];
}

export function call(id = '2.k7f3q', name: string | null = 'read_file', body = XML_READ): string[] {
  const meta = name === null ? `[^${id}]: [tool]` : `[^${id}]: [tool] name="${name}"`;
  return [`## %%% Tool call[^${id}]`, '', meta, '', ...body.split('\n'), ''];
}

export function result(id = '2.k7f3q.1', text = 'def add(a, b):\n    return a + b'): string[] {
  return [`## %%% Tool result[^${id}]`, '', `[^${id}]: [tool] status="success"`, '', ...text.split('\n'), ''];
}

export const XML_READ = ['<tool>', '<tool_name>read_file</tool_name>', '<arguments>', '  <path>app.py</path>', '</arguments>', '</tool>'].join('\n');

/** A whole file: frontmatter with the agent `coder`, then the given cells. */
export function msg(...cells: string[][]): string {
  return file(...FRONTMATTER, ...cells.flat()).replace(/\n+$/, '\n');
}

/** A file with one agent reply, one tool call holding `body`, and one result. */
export function withCall(body: string, name: string | null = 'read_file'): string {
  return msg(ask(), reply(), call('2.k7f3q', name, body), result());
}

/** Findings of the tool-call rules only. */
export function toolFindings(text: string, options: LintOptions = {}): Found[] {
  return check(text, options).filter((f) => TOOL_RULES.includes(f.ruleId));
}
