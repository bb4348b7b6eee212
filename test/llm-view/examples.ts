// Valid message files shared by the tests of the code execution, agents,
// sections and LLM view rules: the two examples of spec section 10 (copied
// from shared/spec/message-file.md, which tests must not read) and a
// generator of realistic files (a port of shared/bench/genmsg.mjs, the
// benchmark generator, with the same output for the same arguments).

/** Spec section 10: a valid `.msg.md`. */
export const SPEC_MSG = `---
agents:
  coder:
    models: [gpt-4o]
    context_window: 128000
    system_prompt: You are a careful coding assistant.
default_agent: coder
---

# %% Fix the bug[^1]

[^1]: [markdown] time="2025-05-30T09:00:00+08:00"

Please fix \`add\` in app.py.

# %%% Plan[^2]

[^2]: [coder] time="2025-05-30T09:00:04+08:00" reasoning=1

[I should read the file first.]

## %%% Tool call[^2.k7f3q]

[^2.k7f3q]: [tool] name="read_file"

<tool>
<server_name>local</server_name>
<tool_name>read_file</tool_name>
<arguments>
  <path>app.py</path>
</arguments>
</tool>

## %%% Tool result[^2.k7f3q.1]

[^2.k7f3q.1]: [tool] status="success" duration=0.2s

def add(a, b):
    return a - b

# %% Check[^3]

[^3]: [code] history=summary summary="ran a quick check"

\`\`\`python
print(1 + 1)
\`\`\`

# %%% [^3.1]

[^3.1]: [python] time="2025-05-30T09:01:00+08:00" status="success" duration=0.1s mime_type="text/plain"

stdout> 2
`;

/** Spec section 10: an ordinary Markdown file with a discussion at the end (lint it as a `.md` file). */
export const SPEC_MD = `---
title: Release notes review
message_section: Discussion
---

# Release notes

Text of the document.

# Discussion

## %% [^1]

[^1]: [markdown]

Is the summary accurate?
`;

/** A realistic message file of `turns` turns (same output as `genmsg.mjs TURNS SEED`). */
export function generateMessageFile(turns: number, seed = 1): string {
  let s = seed;
  const rnd = (): number => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const nonce = (): string => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rnd() * 26)] + Math.floor(rnd() * 36 ** 5).toString(36).padStart(5, '0');
  const words = 'the message file records each turn of a conversation with tools code and agents so that a person can read it and a program can parse it'.split(' ');
  const para = (n: number): string => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  const out: string[] = [];
  out.push('---', 'agents:', '  coder:', '    models: [gpt-4o, claude-sonnet-4]', '    context_window: 2000000',
    '    max_output_tokens: 4096', '    reasoning: true', '    temperature: 0.2',
    '    system_prompt: You are a careful coding assistant.', '  reviewer:', '    models: [gpt-4o-mini]',
    '    context_window: 64000', '    use_temperature: false', 'default_agent: coder', '---', '');
  let id = 0;
  const t = (sec: number): string => new Date(Date.UTC(2025, 4, 30, 0, 0, sec)).toISOString().replace('.000Z', '+00:00');
  for (let i = 0; i < turns; i++) {
    const u = ++id;
    out.push(`# %% Question ${i}[^${u}]`, '', `[^${u}]: [markdown] time="${t(i * 10)}" history=include`, '', para(40), '', para(25), '');
    const a = ++id;
    out.push(`# %%% Answer ${i}[^${a}]`, '', `[^${a}]: [coder] time="${t(i * 10 + 3)}" reasoning=1`, '', para(60), '');
    const nc = nonce();
    out.push(`## %%% 工具调用[^${a}.${nc}]`, '', `[^${a}.${nc}]: [tool] name="write_to_file"`, '',
      '<tool>', '<server_name>local</server_name>', '<tool_name>write_to_file</tool_name>', '<arguments>',
      `  <path>src/file${i}.py</path>`, '  <content><![CDATA[def f(a, b):', '    if a < b and b > 0:', '        return a & b', '    return a + b', ']]></content>',
      '</arguments>', '</tool>', '');
    out.push(`## %%% 工具调用结果[^${a}.${nc}.1]`, '', `[^${a}.${nc}.1]: [tool] status="success" duration=0.5s`, '', `Wrote src/file${i}.py`, '');
    if (i % 3 === 0) {
      const c = ++id;
      out.push(`# %% Run[^${c}]`, '', `[^${c}]: [code] history=include`, '', 'Check the result:', '', '```python', '# %% not a marker inside a fence', `print(${i} + 1)`, '```', '');
      out.push(`# %%% [^${c}.1]`, '', `[^${c}.1]: [python] time="${t(i * 10 + 6)}" status="success" duration=0.1s mime_type="text/plain"`, '', `stdout> ${i + 1}`, 'stderr> warning: none', '');
    }
  }
  return out.join('\n');
}

/** The rules of the code execution, agents, sections and LLM view groups. */
export const OWN_RULES = [
  'code-output-parent',
  'code-output-sequence',
  'code-output-stream',
  'code-output-language',
  'frontmatter-yaml',
  'agent-config',
  'agent-temperature-ignored',
  'agent-system-prompt',
  'agent-name',
  'default-agent',
  'message-section-missing',
  'message-section-not-last',
  'cell-outside-section',
  'history-split-pair',
  'context-window',
] as const;

/** Valid files every one of those rules must leave alone: [description, text, file name]. */
export const VALID_FILES: [string, string, string][] = [
  ['the .msg.md example of spec section 10', SPEC_MSG, 'example.msg.md'],
  ['the .md example of spec section 10', SPEC_MD, 'notes.md'],
  ['a generated file of 40 turns', generateMessageFile(40), 'generated.msg.md'],
  ['a generated file of 25 turns, another seed', generateMessageFile(25, 7), 'generated7.msg.md'],
];
