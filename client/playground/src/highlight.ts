// Highlighting from the server's semantic tokens (markers, ids, types,
// agents, attributes, directives): the page has no grammar of its own for
// message files, and the server's tokens are what any LSP editor gets.
// Asked for after each version's diagnostics arrive, so a token never
// lags more than a publication behind the text.

import { LSPPlugin, type LSPClient } from '@codemirror/lsp-client';
import { RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import type * as lsp from 'vscode-languageserver-protocol';

const setTokens = StateEffect.define<DecorationSet>();

export const semanticHighlighting = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setTokens)) return effect.value;
    return tr.docChanged ? value.map(tr.changes) : value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const marks = new Map<string, Decoration>();
const markFor = (type: string, declaration: boolean): Decoration => {
  const key = `${type}${declaration ? ' decl' : ''}`;
  let mark = marks.get(key);
  if (!mark) marks.set(key, (mark = Decoration.mark({ class: `tok-${type}${declaration ? ' tok-declaration' : ''}` })));
  return mark;
};

/** Asks for the tokens of the version the server has and shows them, mapped through what was typed since. */
export async function refreshHighlighting(client: LSPClient, view: EditorView): Promise<void> {
  const plugin = LSPPlugin.get(view);
  const legend = (client.serverCapabilities?.semanticTokensProvider as lsp.SemanticTokensOptions | undefined)?.legend;
  if (!plugin || !legend) return;
  const doc = plugin.syncedDoc;
  const tokens = await client.request<lsp.SemanticTokensParams, lsp.SemanticTokens | null>('textDocument/semanticTokens/full', { textDocument: { uri: plugin.uri } });
  if (!tokens || LSPPlugin.get(view) !== plugin || plugin.syncedDoc !== doc) return;
  const builder = new RangeSetBuilder<Decoration>();
  const data = tokens.data;
  let line = 0;
  let char = 0;
  // Five numbers a token: line delta, start (relative on the same line), length, type, modifiers.
  for (let i = 0; i + 5 <= data.length; i += 5) {
    line += data[i]!;
    char = data[i]! === 0 ? char + data[i + 1]! : data[i + 1]!;
    const start = plugin.fromPosition({ line, character: char }, doc);
    const from = plugin.unsyncedChanges.mapPos(start, 1);
    const to = plugin.unsyncedChanges.mapPos(Math.min(start + data[i + 2]!, doc.length), -1);
    const type = legend.tokenTypes[data[i + 3]!];
    if (type && to > from) builder.add(from, to, markFor(type, (data[i + 4]! & 1) !== 0));
  }
  view.dispatch({ effects: setTokens.of(builder.finish()) });
}
