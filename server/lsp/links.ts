// Document links: a code output's `output_file="out/result.txt"` links to
// that file, relative to the message file's directory.

import type { DocumentLink } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { MessageDocument } from '../syntax/document.js';
import { messageDocument, type ServerContext } from './context.js';
import { toRange } from './convert.js';
import { guard } from './guard.js';

/** `target`: the URI of a file named relative to the document (the environment's fileLink). */
export function outputFileLinks(doc: MessageDocument, text: TextDocument, target: (relative: string) => string): DocumentLink[] {
  const links: DocumentLink[] = [];
  for (const m of doc.metadata) {
    for (const a of m.node.attributes) {
      if (a.key !== 'output_file' || a.value.trim() === '') continue;
      let [start, end] = doc.abs(m.segment, a.valueSpan);
      if (a.quoted) {
        start++;
        end--;
      }
      links.push({ range: toRange(text, start, end), target: target(a.value), tooltip: `Open ${a.value}` });
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
      const fileLink = ctx.env.fileLink;
      if (!fsPath || !fileLink) return [];
      return state.derive(ls, 'links', (doc) => outputFileLinks(doc, state.text, (relative) => fileLink(fsPath, relative))) ?? [];
    }),
  );
}
