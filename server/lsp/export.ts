// The msglint.exportLLMView command: an open message file's LLM view in a
// provider's shape (spec section 9), as `msglint export` writes it, for the
// document's current version.
//
// Arguments: `[uri, format, options?]`. The URI may also be given as
// `{ uri }` or `{ textDocument: { uri } }`; format is one of EXPORT_FORMATS;
// options may carry `agent`, `until`, `codeAsTool`, `force` and `thinking`
// (`omit`, the default, or `text`, as the command's --thinking). Returns the
// exported JSON value (openai, vercel-legacy, context-json: the messages;
// anthropic, vercel: `{system, messages}`), or for `console` the display's
// text without colour. context-json entries of a file without any `time`
// take the time of the request.
//
// Like the CLI, a file whose problems make the view invalid (viewBlockers)
// is refused, with those problems as the error's `data.problems`, unless
// `force` is true. Anything wrong with the request is a ResponseError with a
// message meant for the user; nothing here crashes the server.

import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { EXPORT_FORMATS, ExportOptionError, THINKING_MODES, formatLLMView, toLLMView, viewBlockers, type ExportFormat, type LLMView, type ThinkingMode, type ToLLMViewOptions } from '../export/index.js';
import { uriArgument, type ServerContext } from './context.js';
import { toLspDiagnostic } from './convert.js';

export const EXPORT_LLM_VIEW_COMMAND = 'msglint.exportLLMView';

const USAGE = `${EXPORT_LLM_VIEW_COMMAND} takes [uri, format, options?]`;

function invalid(message: string, data?: unknown): ResponseError<unknown> {
  return new ResponseError(ErrorCodes.InvalidParams, `${EXPORT_LLM_VIEW_COMMAND}: ${message}`, data);
}

interface ExportRequest {
  uri: string;
  format: ExportFormat;
  view: ToLLMViewOptions;
  force: boolean;
  thinking: ThinkingMode;
}

function parseArguments(args: unknown[] | undefined): ExportRequest {
  const uri = uriArgument(args?.[0]);
  if (uri === undefined) throw invalid(`the first argument must be the document's URI (${USAGE})`);
  const format = args?.[1];
  if (typeof format !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    const what = typeof format === 'string' ? `unknown format '${format}'` : 'the second argument must be the format';
    throw invalid(`${what}: use one of ${EXPORT_FORMATS.join(', ')}`);
  }
  const raw = args?.[2];
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw invalid('the third argument, if given, must be an object of options (agent, until, codeAsTool, force)');
  }
  const o = (raw ?? {}) as Record<string, unknown>;
  const view: ToLLMViewOptions = {};
  for (const key of ['agent', 'until'] as const) {
    const v = o[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw invalid(`the option '${key}' must be a string`);
    view[key] = v;
  }
  for (const key of ['codeAsTool', 'force'] as const) {
    if (o[key] !== undefined && o[key] !== null && typeof o[key] !== 'boolean') throw invalid(`the option '${key}' must be true or false`);
  }
  if (o.codeAsTool === true) view.codeAsTool = true;
  const thinking = o.thinking ?? 'omit';
  if (typeof thinking !== 'string' || !(THINKING_MODES as readonly string[]).includes(thinking)) {
    throw invalid(`the option 'thinking' must be one of ${THINKING_MODES.join(', ')}`);
  }
  return { uri, format: format as ExportFormat, view, force: o.force === true, thinking: thinking as ThinkingMode };
}

/** Runs msglint.exportLLMView (see the top of this file). */
export async function exportLLMViewCommand(ctx: ServerContext, args: unknown[] | undefined): Promise<unknown> {
  const request = parseArguments(args);
  const state = ctx.store.get(request.uri);
  if (!state) throw invalid(`no open document has the URI ${request.uri} (open it in the editor first)`);
  if (!state.isMessageFile()) {
    throw invalid(`${request.uri} is not a message file (a *.msg.md file, or a *.md file whose frontmatter has message_section)`);
  }
  const ls = await ctx.settings.forDocument(state);
  if (ctx.store.get(request.uri) !== state) throw invalid(`${request.uri} was closed before it could be exported`);
  const doc = state.parse(ls);
  if (!doc) throw invalid(`msglint is disabled for ${request.uri} (by the msglint.enable setting or the config's ignores)`);

  // The view of this version with these options, kept until the next edit.
  const key = `llm-view:${JSON.stringify([request.view.agent ?? null, request.view.until ?? null, request.view.codeAsTool === true])}`;
  let view: LLMView | undefined;
  try {
    view = state.derive(ls, key, (d) => toLLMView(d, request.view));
  } catch (error) {
    if (error instanceof ExportOptionError) throw invalid(error.message);
    throw error;
  }
  if (!view) throw invalid(`${request.uri} cannot be exported`);

  if (!request.force) {
    const blockers = viewBlockers(doc, view, state.lint(ls), request.format);
    if (blockers.length) {
      const n = blockers.length;
      const first = blockers[0]!;
      const line = doc.lines.lineOf(first.range.start.offset) + 1;
      const problems = blockers.map((d) => toLspDiagnostic(state.text, state.uri, d));
      throw invalid(
        `not exported, ${n} problem${n === 1 ? ' makes' : 's make'} the LLM view invalid (fix ${n === 1 ? 'it' : 'them'}, or pass { force: true }): line ${line}: ${first.message}`,
        { problems },
      );
    }
  }
  return formatLLMView(view, request.format, { color: false, thinking: request.thinking });
}
