// Go to definition and find references.
//
// Ids are navigated segment by segment: on the last segment of `[^2.k7f3q.1]`
// definition goes from the marker to its metadata line and back; on `k7f3q`
// it goes to the tool call `2.k7f3q`, on `2` to the reply `2` (a result to
// its call, a call to its reply, a code output to its code cell).
// References of an id are every marker and metadata line of that id and of
// the ids derived from it. Agent names go to their definition (frontmatter
// key or temporary agent line); their references are every use.

import type { Location } from 'vscode-languageserver/node';
import type { MessageDocument } from '../syntax/document.js';
import { agentFor, agentOccurrences, idOccurrences, occurrencesOf, targetAt, type IdOccurrence, type Span, type Target } from './analysis.js';
import { messageDocument, type OpenMessageDocument, type ServerContext } from './context.js';
import { toOffset, toRange } from './convert.js';
import { guard } from './guard.js';

/** The id occurrences of a version (cached). */
export function occurrences(open: OpenMessageDocument): IdOccurrence[] {
  return open.state.derive(open.ls, 'id-occurrences', idOccurrences) ?? [];
}

function definitionSpans(open: OpenMessageDocument, target: Target, offset: number): Span[] {
  const { doc } = open;
  switch (target.kind) {
    case 'id': {
      const o = target.occurrence;
      const last = target.index === o.segments.length - 1;
      if (last && o.where === 'marker') {
        // The marker's metadata line.
        const meta = o.cell && doc.metadataOf(o.cell);
        return meta ? [doc.abs(meta.segment, meta.node.id.span)] : [];
      }
      if (last) {
        // A metadata line: the cells that use it.
        return (doc.cellsById.get(o.id) ?? []).map((c) => doc.abs(c, c.marker.idRef!.span));
      }
      // A prefix: the cell it names.
      const cell = doc.cellsById.get(target.prefix)?.[0];
      if (cell) return [doc.abs(cell, cell.marker.idRef!.span)];
      const meta = occurrences(open).find((x) => x.where === 'metadata' && x.id === target.prefix);
      return meta ? [[meta.segments[0]![0], meta.segments[meta.segments.length - 1]![1]]] : [];
    }
    case 'agent': {
      const def = agentFor(doc, target.name, offset);
      if (!def || def.source === 'config') return [];
      return [unquotedAt(doc, def.at)];
    }
    default:
      return [];
  }
}

function unquotedAt(doc: MessageDocument, at: [number, number]): Span {
  const c = doc.text[at[0]];
  return (c === '"' || c === "'") && at[1] - at[0] >= 2 ? [at[0] + 1, at[1] - 1] : at;
}

/** Spans that refer to what the cursor is on (the prefix part of derived ids). */
export function referenceSpans(open: OpenMessageDocument, target: Target, includeDeclaration: boolean): Span[] {
  if (target.kind === 'id') {
    const k = target.index;
    return occurrencesOf(occurrences(open), target.prefix)
      .filter((o) => includeDeclaration || !(o.where === 'metadata' && o.id === target.prefix))
      .map((o) => [o.segments[0]![0], o.segments[k]![1]] as Span);
  }
  if (target.kind === 'agent') {
    return agentOccurrences(open.doc, target.name)
      .filter((o) => includeDeclaration || (o.role !== 'frontmatter' && o.role !== 'body'))
      .map((o) => o.span);
  }
  return [];
}

export function registerNavigation(ctx: ServerContext): void {
  ctx.connection.onDefinition(
    guard(ctx.log, 'textDocument/definition', null, async (params): Promise<Location[] | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const offset = toOffset(open.state.text, params.position);
      const target = targetAt(open.doc, offset);
      if (!target) return null;
      const spans = definitionSpans(open, target, offset);
      return spans.map((s) => ({ uri: open.state.uri, range: toRange(open.state.text, s[0], s[1]) }));
    }),
  );

  ctx.connection.onReferences(
    guard(ctx.log, 'textDocument/references', null, async (params): Promise<Location[] | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const target = targetAt(open.doc, toOffset(open.state.text, params.position));
      if (!target) return null;
      const spans = referenceSpans(open, target, params.context?.includeDeclaration ?? true);
      return spans.map((s) => ({ uri: open.state.uri, range: toRange(open.state.text, s[0], s[1]) }));
    }),
  );
}
