// The examples of the rules' pages in docs/rules/: each page's "Wrong" and
// "Right" blocks are message files (rules-docs.test.ts lints them; the export
// tests export them).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MsglintConfig } from '../../server/engine/types.js';

export const docsDir = fileURLToPath(new URL('../../docs/rules/', import.meta.url));

export interface Example {
  text: string;
  fileName: string;
  config?: MsglintConfig;
}

/** The first fenced block under a `## heading` of the page; its info string may say `file=NAME` and `config=JSON`. */
export function example(page: string, heading: string): Example | undefined {
  const at = page.search(new RegExp(`^## ${heading}\\s*$`, 'm'));
  if (at === -1) return undefined;
  const rest = page.slice(at);
  const open = /^(`{3,}|~{3,})(.*)$/m.exec(rest);
  if (!open) return undefined;
  const fence = open[1]!;
  const info = open[2]!;
  const body = rest.slice(open.index + open[0].length + 1);
  const close = body.search(new RegExp(`^${fence}\\s*$`, 'm'));
  const text = close === -1 ? body : body.slice(0, close);
  const fileName = /file=(\S+)/.exec(info)?.[1] ?? 'example.msg.md';
  const configText = /config=(\{.*\})\s*$/.exec(info)?.[1];
  return { text, fileName, config: configText ? (JSON.parse(configText) as MsglintConfig) : undefined };
}

/** Every page's Wrong and Right examples: [page id, heading, example]. */
export function allExamples(): [string, 'Wrong' | 'Right', Example][] {
  const out: [string, 'Wrong' | 'Right', Example][] = [];
  for (const f of readdirSync(docsDir).filter((n) => n.endsWith('.md')).sort()) {
    const page = readFileSync(`${docsDir}${f}`, 'utf8');
    for (const heading of ['Wrong', 'Right'] as const) {
      const e = example(page, heading);
      if (e) out.push([f.slice(0, -3), heading, e]);
    }
  }
  return out;
}
