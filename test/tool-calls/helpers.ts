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

/** A realistic conversation with varied tool calls, deterministic for a seed. */
export function realisticFile(turns: number, seed = 1): string {
  let s = seed;
  const rnd = (): number => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const used = new Set<string>();
  const nonce = (): string => {
    for (;;) {
      const n = 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rnd() * 26)] + Math.floor(rnd() * 36 ** 5).toString(36).padStart(5, '0');
      if (!used.has(n)) {
        used.add(n);
        return n;
      }
    }
  };
  const words = 'the message file records each turn of a conversation with tools code and agents so that a person can read it'.split(' ');
  const para = (n: number): string => Array.from({ length: n }, () => pick(words)).join(' ');
  const calls: { name: string; xml: string[] }[] = [
    { name: 'read_file', xml: ['<tool>', '<server_name>local</server_name>', '<tool_name>read_file</tool_name>', '<arguments>', '  <path>src/app.py</path>', '</arguments>', '</tool>'] },
    {
      name: 'write_to_file',
      xml: ['<tool>', '<tool_name>write_to_file</tool_name>', '<arguments>', '  <path>src/a.ts</path>', '  <content><![CDATA[export const f = (a: number, b: number) => a < b && b > 0;', '', '// ]]]]><![CDATA[> is split', ']]></content>', '</arguments>', '</tool>'],
    },
    {
      name: 'apply_diff',
      xml: ['<tool>', '  <server_name>local</server_name>', '  <tool_name>apply_diff</tool_name>', '  <arguments>', '    <path>main.go</path>', '    <edits>', '      <edit>', '        <search><![CDATA[if x>3{]]></search>', '        <replace>if x &gt; 3 {</replace>', '      </edit>', '    </edits>', '  </arguments>', '</tool>'],
    },
    { name: 'search_files', xml: ['<tool>', '<tool_name>search_files</tool_name>', '<arguments>', '  <pattern>func.*&amp;&amp;.*return</pattern>  <!-- escaped -->', '  <exclude>vendor</exclude>', '  <exclude>.git</exclude>', '</arguments>', '</tool>'] },
    { name: 'use_mcp_tool', xml: ['<tool>', '<server_name>github</server_name>', '<tool_name>use_mcp_tool</tool_name>', '<arguments>', '  <files>', '    <file><path>a.txt</path></file>', '    <file><path>b.txt</path></file>', '  </files>', '</arguments>', '</tool>'] },
    { name: 'list_sessions', xml: ['Listing first. <tool><tool_name>list_sessions</tool_name><arguments/></tool>'] },
  ];
  const out = ['---', 'agents:', '  coder:', '    models: [gpt-4o, claude-sonnet-4]', '    context_window: 2000000', 'default_agent: coder', '---', ''];
  let id = 0;
  for (let i = 0; i < turns; i++) {
    const u = ++id;
    out.push(`# %% Question ${i}[^${u}]`, '', `[^${u}]: [markdown]`, '', para(30), '');
    const a = ++id;
    const raw = rnd() < 0.2 ? ['', 'The raw output was:', '', ...pick(calls).xml] : [];
    out.push(`# %%% Answer ${i}[^${a}]`, '', `[^${a}]: [coder] reasoning=1`, '', `[${para(12)}]`, '', para(40), ...raw, '');
    const n = 1 + Math.floor(rnd() * 3);
    const batch = Array.from({ length: n }, () => ({ nonce: nonce(), c: pick(calls) }));
    for (const { nonce: nc, c } of batch) {
      out.push(`## %%% Tool call[^${a}.${nc}]`, '', `[^${a}.${nc}]: [tool] name="${c.name}"`, '', para(8), '', ...c.xml, '');
    }
    for (const { nonce: nc } of batch) {
      const results = rnd() < 0.2 ? 2 : 1;
      for (let r = 1; r <= results; r++) {
        out.push(`## %%% Tool result[^${a}.${nc}.${r}]`, '', `[^${a}.${nc}.${r}]: [tool] status="success" duration=0.5s`, '', `Tool: done`, `Result: ${para(6)}`, '');
      }
    }
  }
  return out.join('\n');
}
