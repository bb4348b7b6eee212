// Rename an id segment (the cell id and every id derived from it: renaming
// `2` to `7` renames `2.k7f3q` and `2.k7f3q.1` too) or an agent (the
// frontmatter key, temporary definitions, every `[agent]` use and
// default_agent). A name that is taken or invalid is refused with a message.

import { ErrorCodes, ResponseError, type Range, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import { RESERVED_TYPES } from '../syntax/document.js';
import { isValidSegment } from '../syntax/format/marker.js';
import { targetAt, type Target } from './analysis.js';
import { messageDocument, type OpenMessageDocument, type ServerContext } from './context.js';
import { toOffset, toRange } from './convert.js';
import { documentEdit } from './formatting.js';
import { guard } from './guard.js';
import { occurrences, referenceSpans } from './navigation.js';

type Renamable = Extract<Target, { kind: 'id' } | { kind: 'agent' }>;

function refuse(message: string): never {
  throw new ResponseError(ErrorCodes.InvalidRequest, message);
}

function renamableAt(open: OpenMessageDocument, offset: number): Renamable | undefined {
  const t = targetAt(open.doc, offset);
  return t && (t.kind === 'id' || t.kind === 'agent') ? t : undefined;
}

/** Throws when `newName` cannot replace the target's name. */
function checkNewName(open: OpenMessageDocument, target: Renamable, newName: string, offset: number): void {
  const { doc } = open;
  if (!isValidSegment(newName)) {
    refuse(
      newName.includes('.')
        ? `'${newName}' has a '.': rename one id segment at a time (letters, digits, '_' and '-').`
        : `'${newName}' is not a valid ${target.kind === 'agent' ? 'agent name' : 'id segment'}: use letters, digits, '_' and '-'.`,
    );
  }
  if (target.kind === 'agent') {
    if (RESERVED_TYPES.has(newName)) refuse(`'${newName}' is a reserved type name and cannot name an agent.`);
    if (doc.agents.some((a) => a.name === newName)) refuse(`An agent named '${newName}' already exists.`);
    const def = doc.agentAt(target.name, offset) ?? doc.agents.find((a) => a.name === target.name);
    if (def?.source === 'config') refuse(`'${target.name}' is defined in the msglint configuration; rename it there.`);
    if (doc.cellsById.has(newName) && doc.agents.some((a) => a.name === target.name && a.source === 'body')) {
      refuse(`'${newName}' is already a cell id; a temporary agent's name is its id.`);
    }
    return;
  }
  const parts = target.prefix.split('.');
  parts[parts.length - 1] = newName;
  const renamed = parts.join('.');
  const dotted = renamed + '.';
  if (occurrences(open).some((o) => o.id === renamed || o.id.startsWith(dotted))) refuse(`The id '${renamed}' is already used in this file.`);
  if (parts.length === 1 && doc.agents.some((a) => a.name === renamed && a.source === 'body')) refuse(`'${renamed}' is the name of a temporary agent.`);
}

export function registerRename(ctx: ServerContext): void {
  ctx.connection.onPrepareRename(
    guard(ctx.log, 'textDocument/prepareRename', null, async (params): Promise<{ range: Range; placeholder: string } | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const offset = toOffset(open.state.text, params.position);
      const target = renamableAt(open, offset);
      if (!target) return null;
      if (target.kind === 'agent') {
        const def = open.doc.agentAt(target.name, offset) ?? open.doc.agents.find((a) => a.name === target.name);
        if (def?.source === 'config') refuse(`'${target.name}' is defined in the msglint configuration; rename it there.`);
      }
      const placeholder = open.doc.text.slice(target.span[0], target.span[1]);
      return { range: toRange(open.state.text, target.span[0], target.span[1]), placeholder };
    }),
  );

  ctx.connection.onRenameRequest(
    guard(ctx.log, 'textDocument/rename', null, async (params): Promise<WorkspaceEdit | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const offset = toOffset(open.state.text, params.position);
      const target = renamableAt(open, offset);
      if (!target) refuse('Only ids and agent names can be renamed.');
      const newName = String(params.newName ?? '').trim();
      const oldName = target.kind === 'agent' ? target.name : target.prefix.split('.').pop()!;
      if (newName === oldName) return { changes: {} };
      checkNewName(open, target, newName, offset);
      const edits: TextEdit[] = referenceSpans(open, target, true).map((span) => {
        // For ids the span runs from the id's start to the renamed segment's end: replace that segment only.
        const start = target.kind === 'id' ? span[1] - oldName.length : span[0];
        return { range: toRange(open.state.text, start, span[1]), newText: newName };
      });
      return documentEdit(ctx, open, edits);
    }),
  );
}
