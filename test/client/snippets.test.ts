// The extension's static snippets: expanded as VS Code expands them
// (placeholders, mirrors, choices, variables such as CURRENT_YEAR and
// RANDOM_HEX), chained into a conversation, and linted: the cells they
// make are clean message-file cells.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from '../../server/index.js';
import { CLIENT } from './textmate.js';

interface Snippet {
  prefix: string | string[];
  body: string | string[];
  description: string;
}

const snippets = JSON.parse(readFileSync(path.join(CLIENT, 'snippets/msglint.json'), 'utf8')) as Record<string, Snippet>;

const pad = (n: number) => String(n).padStart(2, '0');

/** VS Code's snippet variables this file uses, for the current time. */
function variables(now = new Date()): Record<string, () => string> {
  const offset = -now.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return {
    CURRENT_YEAR: () => String(now.getFullYear()),
    CURRENT_MONTH: () => pad(now.getMonth() + 1),
    CURRENT_DATE: () => pad(now.getDate()),
    CURRENT_HOUR: () => pad(now.getHours()),
    CURRENT_MINUTE: () => pad(now.getMinutes()),
    CURRENT_SECOND: () => pad(now.getSeconds()),
    CURRENT_TIMEZONE_OFFSET: () => `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`,
    // Resolved anew at each use, as VS Code does.
    RANDOM_HEX: () => Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0'),
  };
}

type Node = { text: string } | { tab: number; def?: Node[]; choices?: string[] } | { variable: string };

/** Parses the TextMate/VS Code snippet syntax this file uses. */
function parse(src: string): Node[] {
  let i = 0;
  const nodes = (stopAtBrace: boolean): Node[] => {
    const out: Node[] = [];
    let text = '';
    const flush = () => {
      if (text) out.push({ text });
      text = '';
    };
    while (i < src.length) {
      const c = src[i]!;
      if (c === '\\' && i + 1 < src.length) {
        text += src[i + 1];
        i += 2;
      } else if (stopAtBrace && c === '}') {
        break;
      } else if (c === '$') {
        const simple = /^\$(\d+|[A-Z_]+)/.exec(src.slice(i));
        if (simple) {
          flush();
          out.push(/^\d/.test(simple[1]!) ? { tab: Number(simple[1]) } : { variable: simple[1]! });
          i += simple[0].length;
          continue;
        }
        const braced = /^\$\{(\d+|[A-Z_]+)([:|}])/.exec(src.slice(i));
        if (!braced) throw new Error(`Bad snippet syntax at ${i}: ${src.slice(i, i + 20)}`);
        flush();
        i += braced[0].length;
        const name = braced[1]!;
        const isTab = /^\d/.test(name);
        if (braced[2] === '}') {
          out.push(isTab ? { tab: Number(name) } : { variable: name });
        } else if (braced[2] === '|') {
          const end = src.indexOf('|}', i);
          out.push({ tab: Number(name), choices: src.slice(i, end).split(',') });
          i = end + 2;
        } else {
          const def = nodes(true);
          if (src[i] !== '}') throw new Error('Unclosed placeholder');
          i++;
          out.push(isTab ? { tab: Number(name), def } : { variable: name });
        }
      } else {
        text += c;
        i++;
      }
    }
    flush();
    return out;
  };
  return nodes(false);
}

/**
 * Expands a snippet: each tab stop takes `values[n]`, else its default
 * (its first choice), and mirrors repeat it. Returns the text and the
 * value of every tab stop.
 */
function expand(snippet: Snippet, values: Record<number, string> = {}): { text: string; stops: Record<number, string> } {
  const body = Array.isArray(snippet.body) ? snippet.body.join('\n') : snippet.body;
  const vars = variables();
  const tree = parse(body);
  const stops: Record<number, string> = { ...values };
  const render = (ns: Node[]): string =>
    ns
      .map((n) => {
        if ('text' in n) return n.text;
        if ('variable' in n) {
          const v = vars[n.variable];
          if (!v) throw new Error(`Unknown snippet variable ${n.variable}`);
          return v();
        }
        if (stops[n.tab] === undefined) {
          if (n.choices) stops[n.tab] = n.choices[0]!;
          else if (n.def) stops[n.tab] = render(n.def);
        }
        return stops[n.tab] ?? '';
      })
      .join('');
  // Defaults come from a tab stop's first occurrence that has one: resolve those first.
  const visit = (ns: Node[]) => {
    for (const n of ns) {
      if ('tab' in n && stops[n.tab] === undefined && (n.def || n.choices)) {
        stops[n.tab] = n.choices ? n.choices[0]! : render(n.def!);
      }
    }
  };
  visit(tree);
  return { text: render(tree), stops };
}

const named = (name: string) => {
  const s = snippets[`msglint: ${name}`];
  if (!s) throw new Error(`No snippet "msglint: ${name}"`);
  return s;
};

describe('snippets', () => {
  it('each has a description, word prefixes and a body, and parses', () => {
    expect(Object.keys(snippets).length).toBeGreaterThanOrEqual(6);
    for (const [name, s] of Object.entries(snippets)) {
      expect(name).toMatch(/^msglint: /);
      expect(s.description, name).toMatch(/^msglint: /);
      const prefixes = Array.isArray(s.prefix) ? s.prefix : [s.prefix];
      for (const p of prefixes) expect(p, name).toMatch(/^[a-z][a-z-]*$/);
      expect(() => expand(s), name).not.toThrow();
    }
  });

  it('chain into a conversation that lints clean', () => {
    const parts: string[] = [];
    const add = (name: string, values: Record<number, string>) => {
      const r = expand(named(name), values);
      parts.push(r.text);
      return r.stops;
    };
    add('frontmatter with an agent', { 0: '' });
    add('message cell', { 1: 'Read the app', 0: 'Please read app.py.\n' });
    add('agent reply', { 3: 'assistant', 0: 'I will read it.\n' });
    const call = add('tool call', { 4: 'read_file', 7: 'app.py', 0: '' });
    expect(call[3]).toMatch(/^n[0-9a-f]{6}$/);
    add('tool result', { 2: `2.${call[3]}`, 0: 'print(1)\n' });
    add('code cell', { 2: '3', 0: 'print(1)' });
    add('code output', { 1: '3', 0: '1\n' });
    const text = parts.join('\n');
    const { diagnostics } = lint(text, { fileName: 'snippets.msg.md' });
    expect(diagnostics.map((d) => `${d.range.start.line + 1}: ${d.ruleId}: ${d.message}`), text).toEqual([]);
  });

  it('make cells whose markers and metadata lines parse, even with every default', () => {
    for (const name of ['message cell', 'agent reply', 'tool call', 'tool result', 'code cell', 'code output']) {
      const { text } = expand(named(name), { 0: 'Content.' });
      const { diagnostics } = lint(`---\nagents:\n  agent:\n    models: [gpt-4o]\n---\n\n${text}\n`, { fileName: 'one.msg.md' });
      const syntax = diagnostics.filter((d) => ['cell-marker', 'metadata-syntax', 'cell-id-syntax', 'cell-type', 'attribute-value', 'tool-xml', 'tool-xml-structure', 'unknown-agent'].includes(d.ruleId));
      expect(syntax.map((d) => `${d.ruleId}: ${d.message}`), `${name}:\n${text}`).toEqual([]);
    }
  });

  it('give a temporary agent that can be used as a reply type', () => {
    const agent = expand(named('temporary agent'), { 1: 'helper' }).text;
    const reply = expand(named('agent reply'), { 2: '1', 3: 'helper', 0: 'Hello.' }).text;
    const { diagnostics } = lint(`${agent}\n\n${reply}\n`, { fileName: 'temp.msg.md' });
    expect(diagnostics.map((d) => d.ruleId)).toEqual([]);
  });
});
