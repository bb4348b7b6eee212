// Warms the typing path once, right after the server has answered for its first
// large document. Opening runs the whole parse and lint, so the code that
// handles an edit (splicing cells, the facts made from the previous version's,
// the cell inputs compared) is still unoptimized when the first keystroke
// comes, and that keystroke in a long file runs its loops over every cell in
// V8's interpreter. Here a generated conversation of a few dozen turns gets the
// edits people make (prose, a marker, an id, a metadata value, tool XML, a
// fence, a pasted and a deleted block, a new cell at the end) through the same
// DocumentState as an open document, one edit per timer tick, so a real
// keystroke waits for at most one small step. Nothing is sent to the client;
// the document is dropped at the end.

import { DocumentState } from './documents.js';
import type { LintSettings } from './settings.js';

/** Documents shorter than this open fast enough that their first keystroke does too. */
export const WARM_UP_MIN_LENGTH = 256 * 1024;
/**
 * Turns in the generated conversation: 720 cells, more than two chunks of a
 * ChunkedList, so that the code is optimized for the shapes a long file has
 * (40 turns left the first keystroke on 1,000 turns at 190 ms, 120 at 25 ms).
 */
const TURNS = 120;

/** One edit: `remove` characters at `at` replaced by `insert`. */
interface Edit {
  at: number;
  remove: number;
  insert: string;
}

/**
 * Runs the warm-up in steps on timers; `diagnose` is what the server does
 * with a version (lint it and convert the findings): each step is one call
 * of it; a step that throws ends the warm-up and is passed to `failed` (the
 * typing path has a bug the user's next edit of the same kind would meet).
 * Nothing is done before the first step, which waits until `wait` says 0 or
 * less (the milliseconds still to wait; asked again after that many): a
 * step runs to its end, so a request that comes meanwhile waits for it.
 */
export function warmUp(
  ls: LintSettings,
  diagnose: (state: DocumentState, ls: LintSettings) => unknown,
  failed: (error: unknown) => void = () => undefined,
  wait: () => number = () => 0,
): void {
  let state: DocumentState;
  let edits: Edit[];
  let version = 1;
  let next = 0;
  const step = (): void => {
    try {
      if (next === 0) diagnose(state, ls);
      else {
        const e = edits[next - 1]!;
        const range = { start: state.text.positionAt(e.at), end: state.text.positionAt(e.at + e.remove) };
        state.update([{ range, text: e.insert }], ++version);
        diagnose(state, ls);
      }
    } catch (e) {
      failed(e);
      return;
    }
    if (++next <= edits.length) setTimeout(step, 0);
  };
  const begin = (): void => {
    const ms = wait();
    if (ms > 0) {
      setTimeout(begin, ms);
      return;
    }
    state = new DocumentState('untitled:msglint-warm-up.msg.md', 'markdown', 1, conversation(TURNS));
    edits = script(state.text.getText());
    step();
  };
  setTimeout(begin, 0);
}

/** A conversation like the ones msglint is used on: questions, replies with tool calls, code and output. */
export function conversation(turns: number): string {
  const out = [
    '---\ntitle: warm-up\nagents:\n  coder:\n    models: [gpt-4o]\n    context_window: 200000\n    system_prompt: You are a careful coding assistant.\n',
    'default_agent: coder\n---\n',
  ];
  for (let t = 0; t < turns; t++) {
    const q = 3 * t + 1;
    const a = q + 1;
    const c = q + 2;
    const nonce = `k${(t * 7919 + 50000).toString(36)}`;
    out.push(
      `\n# %% Question ${t}[^${q}]\n\n[^${q}]: [markdown] time="2025-05-30T00:00:00+00:00" history=include\n\n` +
        `Why does the loader read the config twice? See \`load_config\` in \`models.py\`.\n\n- one\n- two\n`,
      `\n# %%% Answer ${t}[^${a}]\n\n[^${a}]: [coder] time="2025-05-30T00:00:03+00:00"\n\nIt caches the wrong key. Let me fix it.\n`,
      `\n## %%% Tool call[^${a}.${nonce}]\n\n[^${a}.${nonce}]: [tool] name="write_to_file"\n\n<tool>\n<server_name>local</server_name>\n` +
        `<tool_name>write_to_file</tool_name>\n<arguments>\n  <path>src/${t}.py</path>\n  <content><![CDATA[def f(a, b):\n    return a + b\n]]></content>\n</arguments>\n</tool>\n`,
      `\n## %%% Tool result[^${a}.${nonce}.1]\n\n[^${a}.${nonce}.1]: [tool] status="success" duration=0.8s\n\nWrote src/${t}.py\n`,
      `\n# %% Run[^${c}]\n\n[^${c}]: [code] history=include\n\n\`\`\`python\nprint(${t} + 1)\n\`\`\`\n`,
      `\n# %%% [^${c}.1]\n\n[^${c}.1]: [python] status="success" duration=0.1s mime_type="text/plain"\n\nstdout> ${t + 1}\n`,
    );
  }
  return out.join('');
}

/** The edits, in order, each against the text the ones before it left. */
function script(start: string): Edit[] {
  const edits: Edit[] = [];
  let text = start;
  const apply = (e: Edit): void => {
    edits.push(e);
    text = text.slice(0, e.at) + e.insert + text.slice(e.at + e.remove);
  };
  const type = (at: number, s: string): void => {
    for (let i = 0; i < s.length; i++) apply({ at: at + i, remove: 0, insert: s[i]! });
  };
  const erase = (end: number, n: number): void => {
    for (let i = 0; i < n; i++) apply({ at: end - i - 1, remove: 1, insert: '' });
  };
  const middle = (needle: string): number => text.indexOf(needle, text.length >> 1);

  // Prose in the middle.
  type(middle('Let me fix it.') + 'Let me fix it'.length, ', and test it');
  // A marker deleted and typed again.
  let at = middle('\n# %% Question') + 1;
  erase(at + 5, 5);
  type(at, '# %% ');
  // An id deleted and typed again.
  at = middle('# %%% Answer');
  const id = /\[\^(\d+)\]/.exec(text.slice(at))!;
  const idEnd = at + id.index + 2 + id[1]!.length;
  erase(idEnd, id[1]!.length);
  type(idEnd - id[1]!.length, id[1]!);
  // A metadata value.
  at = middle('status="success"') + 'status="'.length;
  erase(at + 7, 7);
  type(at, 'error_with_retry');
  // A tool call's XML.
  type(middle('<arguments>') + '<arguments>'.length, '\n  <mode>fast</mode>');
  // A fence opened and closed in a message.
  type(middle('Let me fix it.') + 'Let me fix it.'.length, '\n\n```\nx = 1\n```');
  // A block of cells pasted, then undone; a cell deleted, then restored.
  const block = conversation(4).slice(conversation(0).length);
  at = middle('\n# %% Question');
  apply({ at, remove: 0, insert: block });
  apply({ at, remove: block.length, insert: '' });
  at = middle('\n# %% Run');
  const cell = text.slice(at, text.indexOf('\n# %%%', at));
  apply({ at, remove: cell.length, insert: '' });
  apply({ at, remove: 0, insert: cell });
  // A new message cell typed at the end.
  const n = 3 * TURNS + 1;
  type(text.length, `\n# %% Next question[^${n}]\n\n[^${n}]: [markdown] history=include\n\nWhy does it fail?\n`);
  return edits;
}
