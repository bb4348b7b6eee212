// The side panels besides Problems: the Export panel (the file's LLM view
// for a target, from the server's msglint.exportLLMView command; its
// content is the element with `data-export` set to the target) and the
// Agents panel (`msglint agents`' listing, computed in the page from
// msglint's own parser).

import type { LSPClient } from '@codemirror/lsp-client';
import type * as lsp from 'vscode-languageserver-protocol';
import { agentsText, listAgents } from '../../../server/export/agents.js';
import { parse } from '../../../server/syntax/edit/parse.js';

export const EXPORT_TARGETS = ['openai', 'anthropic', 'vercel', 'context-json', 'console'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

interface ExportElements {
  target: HTMLSelectElement;
  force: HTMLInputElement;
  output: HTMLElement;
}

/** Shows the export of the document at `uri()` for the selected target. */
export function exportPanel(client: LSPClient, uri: () => string | undefined, el: ExportElements): () => Promise<void> {
  let seq = 0;
  const refresh = async (): Promise<void> => {
    const current = uri();
    if (!current) return;
    const target = el.target.value as ExportTarget;
    const mine = ++seq;
    let text: string;
    let failed = false;
    try {
      client.sync();
      const result = await client.request<lsp.ExecuteCommandParams, unknown>('workspace/executeCommand', {
        command: 'msglint.exportLLMView',
        arguments: [current, target, { force: el.force.checked }],
      });
      text = typeof result === 'string' ? result : JSON.stringify(result, null, 2);
    } catch (e) {
      failed = true;
      const error = e as { message?: string; data?: { problems?: { message: string; code?: string; range: lsp.Range }[] } };
      const problems = error.data?.problems ?? [];
      const head = problems.length
        ? `Not exported: ${problems.length === 1 ? 'this problem makes' : `these ${problems.length} problems make`} the LLM view invalid (tick "despite problems" to export anyway):`
        : (error.message ?? String(e));
      text = [head, ...problems.map((p) => `  line ${p.range.start.line + 1}: ${p.message}${p.code ? ` (${p.code})` : ''}`)].join('\n');
    }
    if (mine !== seq) return;
    el.output.dataset.export = target;
    el.output.classList.toggle('failed', failed);
    el.output.textContent = text;
  };
  el.target.addEventListener('change', () => void refresh());
  el.force.addEventListener('change', () => void refresh());
  return refresh;
}

/** The agents of `text` as `msglint agents` lists them. */
export function agentsListing(text: string, fileName: string): string {
  try {
    const listing = listAgents(parse(text, { fileName }), fileName);
    return agentsText(listing);
  } catch (e) {
    return `Cannot list the agents: ${(e as Error)?.message ?? e}`;
  }
}
