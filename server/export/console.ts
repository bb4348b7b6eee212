// Seed 001's console display of the indexed conversation, for debugging:
//
//   🧠 System: …
//
//   👤 User <@userid> [Turn X]
//   🕐 timestamp
//   > message
//
//   🤖 Assistant [Turn X]
//   🕐 timestamp
//   🔧 tool (parameter: value)
//      └─ Reason: …
//
// 🔧 for tools in general, 💬 for a message-posting tool and for a plain
// reply, ✅ for a tool that finishes the task. Every user and assistant
// block shows its entry's 🕐 (context-json's timestamp: the cell's own
// `time`, or the one it estimates from the cells before; none in a
// conversation without any `time`), and every
// assistant block one 🔧/💬/✅ line. Decisions beyond the seed: the agent's
// name follows "Assistant" on every assistant entry (a call's agent is its
// reply's); a reply with only thinking says so on its 💬 line and shows the
// thinking as its `└─ Reason:`; a call's result is shown under it
// (`└─ Result:` or `└─ Error:`, at most RESULT_LINES lines); long or
// multi-line argument values are shortened. Colour (bold headers, dim times
// and reasons, red errors) only when asked.

import { visibleControls } from '../base/terminal.js';
import type { JsonValue } from '../tool-calls/index.js';
import { contextItems, type ContextAssistantContent, type ContextUserContent } from './context-json.js';
import type { IMessageFormatter } from './formatter.js';
import type { InternalMessage } from './model.js';

export const RESULT_LINES = 12;

const POST_TOOLS = /^(?:post_?message|send_?message|reply|respond|say|message)$/i;
const FINISH_TOOLS = /^(?:finish(?:_?request)?|task_?completion|attempt_?completion|final_?answer|complete|done|submit)$/i;

export interface ConsoleOptions {
  color?: boolean;
  /** The time of entries in a view without any `time` (ContextOptions.time). */
  time?: string;
}

interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
}

const plain: Style = { bold: (s) => s, dim: (s) => s, red: (s) => s };
const ansi: Style = {
  bold: (s) => `\u001b[1m${s}\u001b[22m`,
  dim: (s) => `\u001b[2m${s}\u001b[22m`,
  red: (s) => `\u001b[31m${s}\u001b[39m`,
};

/** Each message is one block of lines; `format` returns the blocks, joined by a blank line when written. */
export class ConsoleFormatter implements IMessageFormatter<string> {
  private readonly style: Style;
  private readonly time: string | undefined;

  constructor(options: ConsoleOptions = {}) {
    this.style = options.color ? ansi : plain;
    this.time = options.time;
  }

  format(history: Readonly<InternalMessage[]>, systemPrompt?: string | null): string[] {
    const s = this.style;
    // Everything shown comes from the file: its control characters must not reach the terminal.
    const v = visibleControls;
    const items = contextItems(history, systemPrompt, this.time === undefined ? {} : { time: this.time });
    // A conversation without any `time` has no times to show, only the export's.
    const timed = items.some((i) => !i.entry.timestampEstimated);
    return items.map(({ entry, agent, args }) => {
      const lines: string[] = [];
      const time = timed ? [s.dim(`🕐 ${v(entry.timestamp)}`)] : [];
      if (entry.role === 'system') {
        return s.bold('🧠 System:') + ' ' + indent(v(String(entry.content)), '   ');
      }
      if (entry.role === 'user') {
        const c = entry.content as ContextUserContent;
        const who = v(c.userid.startsWith('<@') ? c.userid : `<@${c.userid}>`);
        lines.push(s.bold(`👤 User ${who} [Turn ${entry.turn}]`), ...time);
        for (const l of v(c.text).split('\n')) lines.push(l === '' ? '>' : `> ${l}`);
        return lines.join('\n');
      }
      const c = entry.content as ContextAssistantContent;
      lines.push(s.bold(`🤖 Assistant${agent ? ` ${v(agent)}` : ''} [Turn ${entry.turn}]`), ...time);
      if (c.toolCall === undefined) {
        lines.push(c.text !== undefined ? `💬 ${indent(v(c.text), '   ')}` : `💬 ${s.dim('(thinking only)')}`);
      } else {
        const a = args ?? {};
        const said = typeof a.text === 'string' ? a.text : typeof a.message === 'string' ? a.message : undefined;
        if (POST_TOOLS.test(c.toolCall) && said !== undefined) {
          lines.push(`💬 ${s.bold(v(c.toolCall))}:`, `   ${indent(v(JSON.stringify(said)), '   ')}`);
        } else {
          const emoji = FINISH_TOOLS.test(c.toolCall) ? '✅' : '🔧';
          const params = Object.entries(a).map(([k, value]) => v(`${k}: ${showValue(value)}`));
          lines.push(`${emoji} ${s.bold(v(c.toolCall))}${params.length ? ` (${params.join(', ')})` : ''}`);
        }
      }
      if (c.reasoning !== undefined) lines.push(s.dim(`   └─ Reason: ${indent(v(c.reasoning), '      ')}`));
      if (c.result !== undefined) {
        const label = c.isError ? s.red('   └─ Error:') : '   └─ Result:';
        // Seed 000's results say `Error: …` themselves; the label says it already.
        const body = v(c.isError ? c.result.replace(/^Error:[ \t]*/, '') : c.result).split('\n');
        if (body.length === 1) lines.push(`${label} ${body[0]}`.trimEnd());
        else {
          lines.push(label);
          for (const l of body.slice(0, RESULT_LINES)) lines.push(`      ${l}`.trimEnd());
          if (body.length > RESULT_LINES) lines.push(s.dim(`      … ${body.length - RESULT_LINES} more lines`));
        }
      }
      return lines.join('\n');
    });
  }
}

/** Continuation lines indented, so a block stays under its emoji. */
function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l, i) => (i === 0 || l === '' ? l : prefix + l))
    .join('\n');
}

function showValue(v: JsonValue): string {
  if (typeof v === 'string') {
    if (!v.includes('\n') && v.length <= 60 && !/^\s|\s$|[,()]/.test(v)) return v;
    return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  }
  const json = JSON.stringify(v);
  return json.length > 60 ? `${json.slice(0, 59)}…` : json;
}
