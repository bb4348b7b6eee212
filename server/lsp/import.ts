// The msglint/importConversation request: a conversation's JSON (a
// provider's messages, context-json, dexto's or Forge's) as a message file,
// as `msglint import` writes it (spec section 9, "Import"). The client
// reads the JSON (a file, the clipboard) and shows the result; the server
// only converts, so the request works wherever the server runs, in a Web
// Worker too.
//
// Params: `{ text: string, from?: ImportFormat }`; without `from` the
// format is recognised from the JSON. Result: `{ text, format, dropped }`,
// `dropped` one line per kind of thing the file could not hold. A text that
// is not a conversation is InvalidParams with the import's one-line reason.

import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { importConversation, ImportError, IMPORT_FORMATS, type ImportFormat, type ImportResult } from '../import/index.js';
import type { ServerContext } from './context.js';
import { guard } from './guard.js';

export const IMPORT_CONVERSATION_REQUEST = 'msglint/importConversation';

export interface ImportConversationParams {
  text: string;
  from?: string;
}

function invalid(message: string): ResponseError<unknown> {
  return new ResponseError(ErrorCodes.InvalidParams, `${IMPORT_CONVERSATION_REQUEST}: ${message}`);
}

/** Answers one request (see the top of this file). */
export function importConversationRequest(params: unknown): ImportResult {
  const p = (params ?? {}) as Partial<Record<keyof ImportConversationParams, unknown>>;
  if (typeof p.text !== 'string') throw invalid('params must be { text: string, from?: string }, text the conversation as JSON');
  const from = p.from ?? undefined;
  if (from !== undefined && (typeof from !== 'string' || !(IMPORT_FORMATS as readonly string[]).includes(from))) {
    throw invalid(`unknown format ${JSON.stringify(from)}: use one of ${IMPORT_FORMATS.join(', ')}, or none to have it recognised`);
  }
  try {
    const { text, format, dropped } = importConversation(p.text, from === undefined ? {} : { from: from as ImportFormat });
    return { text, format, dropped };
  } catch (error) {
    if (error instanceof ImportError) throw invalid(error.message);
    throw error;
  }
}

export function registerImport(ctx: ServerContext): void {
  ctx.connection.onRequest(
    IMPORT_CONVERSATION_REQUEST,
    guard(ctx.log, IMPORT_CONVERSATION_REQUEST, null, (params: unknown) => importConversationRequest(params)),
  );
}
