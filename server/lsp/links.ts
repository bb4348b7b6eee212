// Document links: a code output's `output_file="out/result.txt"` links to
// that file, relative to the message file's directory.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentLink } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { MessageDocument } from '../syntax/document.js';
import { messageDocument, type ServerContext } from './context.js';
import { toRange } from './convert.js';
import { guard } from './guard.js';

export function outputFileLinks(doc: MessageDocument, text: TextDocument, fsPath: string): DocumentLink[] {
  const dir = path.dirname(fsPath);
  const links: DocumentLink[] = [];
  for (const m of doc.metadata) {
    for (const a of m.node.attributes) {
      if (a.key !== 'output_file' || a.value.trim() === '') continue;
      let [start, end] = m.segment.abs(a.valueSpan);
      if (a.quoted) {
        start++;
        end--;
      }
      const target = pathToFileURL(path.resolve(dir, a.value)).href;
      links.push({ range: toRange(text, start, end), target, tooltip: `Open ${a.value}` });
    }
  }
  return links;
}

export function registerLinks(ctx: ServerContext): void {
  ctx.connection.onDocumentLinks(
    guard(ctx.log, 'textDocument/documentLink', null, async (params): Promise<DocumentLink[] | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const { state, ls } = open;
      const fsPath = state.fsPath;
      if (!fsPath) return [];
      return state.derive(ls, 'links', (doc) => outputFileLinks(doc, state.text, fsPath)) ?? [];
    }),
  );
}
