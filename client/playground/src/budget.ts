// The conversation's budget in the page, from the server: its inlay hints
// at the end of each marker line (a cell's tokens, the running total at an
// agent reply) and the whole view's total beside the problem count
// (msglint/viewTotal). Asked for after each version's diagnostics arrive and
// when the editor scrolls to lines it had no hints for.
//
// A hint's text is drawn by CSS from its `data-label` (`::after`), so it is
// not part of the line's text: copying a line, or reading it, gives the file.

import { LSPPlugin, type LSPClient } from '@codemirror/lsp-client';
import { RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import type * as lsp from 'vscode-languageserver-protocol';

/** What msglint/viewTotal answers for a message file. */
interface ViewTotal {
  label: string;
  tooltip: string;
}

class HintWidget extends WidgetType {
  constructor(
    readonly label: string,
    readonly tooltip: string,
  ) {
    super();
  }
  override eq(other: HintWidget): boolean {
    return other.label === this.label && other.tooltip === this.tooltip;
  }
  toDOM(): HTMLElement {
    const span = document.createElement('span');
    span.className = 'cm-inlay-hint';
    span.dataset.label = this.label;
    span.title = this.tooltip;
    return span;
  }
}

const setHints = StateEffect.define<DecorationSet>();

export const inlayHints = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setHints)) return effect.value;
    return tr.docChanged ? value.map(tr.changes) : value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const text = (label: string | lsp.InlayHintLabelPart[]): string => (typeof label === 'string' ? label : label.map((p) => p.value).join(''));
const tooltipOf = (hint: lsp.InlayHint): string => {
  const parts = typeof hint.label === 'string' ? [hint.tooltip] : hint.label.map((p) => p.tooltip);
  return parts
    .map((t) => (t === undefined ? '' : typeof t === 'string' ? t : t.value))
    .filter((t) => t !== '')
    .join('\n');
};

/** Asks for the hints of the lines in view (and some around them) and shows them, mapped through what was typed since. */
export async function refreshInlayHints(client: LSPClient, view: EditorView): Promise<void> {
  const plugin = LSPPlugin.get(view);
  if (!plugin || !client.serverCapabilities?.inlayHintProvider) return;
  const doc = plugin.syncedDoc;
  const first = Math.max(1, doc.lineAt(Math.min(view.viewport.from, doc.length)).number - 100);
  const last = Math.min(doc.lines, doc.lineAt(Math.min(view.viewport.to, doc.length)).number + 100);
  const hints = await client.request<lsp.InlayHintParams, lsp.InlayHint[] | null>('textDocument/inlayHint', {
    textDocument: { uri: plugin.uri },
    range: { start: { line: first - 1, character: 0 }, end: { line: last, character: 0 } },
  });
  if (LSPPlugin.get(view) !== plugin || plugin.syncedDoc !== doc) return;
  const builder = new RangeSetBuilder<Decoration>();
  for (const hint of hints ?? []) {
    const at = plugin.unsyncedChanges.mapPos(plugin.fromPosition(hint.position, doc), 1);
    builder.add(at, at, Decoration.widget({ widget: new HintWidget(text(hint.label), tooltipOf(hint)), side: 1 }));
  }
  view.dispatch({ effects: setHints.of(builder.finish()) });
}

/** Shows the whole view's tokens against the default agent's window in `element` (hidden for a file that is not a message file). */
export async function refreshTotal(client: LSPClient, view: EditorView, element: HTMLElement): Promise<void> {
  const plugin = LSPPlugin.get(view);
  if (!plugin) return;
  const total = await client.request<{ textDocument: { uri: string } }, ViewTotal | null>('msglint/viewTotal', { textDocument: { uri: plugin.uri } });
  if (LSPPlugin.get(view) !== plugin) return;
  element.hidden = !total;
  element.textContent = total?.label ?? '';
  element.title = total?.tooltip ?? '';
}

/** Asks for hints again when the editor scrolls (shortly after it stops). */
export const hintsOnScroll = (client: LSPClient) =>
  ViewPlugin.fromClass(
    class {
      private timer: ReturnType<typeof setTimeout> | undefined;
      update(update: ViewUpdate): void {
        if (!update.viewportChanged || update.docChanged) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void refreshInlayHints(client, update.view).catch((e: unknown) => console.warn('msglint playground: inlay hints failed', e)), 150);
      }
      destroy(): void {
        clearTimeout(this.timer);
      }
    },
  );
