// workspace/executeCommand: the commands the server advertises
// (executeCommandProvider) and the one handler that dispatches them.

import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { SHOW_LOCATION_COMMAND, showLocationCommand } from './code-lenses.js';
import type { ServerContext } from './context.js';
import { EXPORT_LLM_VIEW_COMMAND, exportLLMViewCommand } from './export.js';
import { FIX_ALL_COMMAND, fixAllCommand } from './formatting.js';
import { guard } from './guard.js';
import { LINT_WORKSPACE_COMMAND, lintWorkspaceCommand } from './workspace-command.js';

type CommandHandler = (ctx: ServerContext, args: unknown[] | undefined) => Promise<unknown>;

const HANDLERS: Readonly<Record<string, CommandHandler>> = {
  [FIX_ALL_COMMAND]: fixAllCommand,
  [EXPORT_LLM_VIEW_COMMAND]: exportLLMViewCommand,
  [LINT_WORKSPACE_COMMAND]: lintWorkspaceCommand,
  [SHOW_LOCATION_COMMAND]: showLocationCommand,
};

/** The commands of executeCommandProvider. */
export const COMMANDS: readonly string[] = Object.keys(HANDLERS);

export function registerCommands(ctx: ServerContext): void {
  ctx.connection.onExecuteCommand(
    guard(ctx.log, 'workspace/executeCommand', null, async (params): Promise<unknown> => {
      const command = params?.command;
      const handler = typeof command === 'string' && Object.hasOwn(HANDLERS, command) ? HANDLERS[command] : undefined;
      if (!handler) throw new ResponseError(ErrorCodes.InvalidParams, `Unknown command '${String(command)}'.`);
      const args = Array.isArray(params.arguments) ? params.arguments : undefined;
      return (await handler(ctx, args)) ?? null;
    }),
  );
}
