// The msglint.lintWorkspace command (workspace/executeCommand, no
// arguments): the problems of the workspace's message files that are not
// open. A client that pulls workspace diagnostics is asked to pull again
// (workspace/diagnostic/refresh); any other gets them published, with work
// done progress when it supports it. Returns `{ files, problems }` of what
// was published, or `{ refreshed: true }`.

import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import type { ServerContext } from './context.js';
import { LINT_WORKSPACE_COMMAND } from './workspace-diagnostics.js';

export { LINT_WORKSPACE_COMMAND };

export async function lintWorkspaceCommand(ctx: ServerContext): Promise<unknown> {
  const workspace = ctx.workspace;
  if (!workspace) {
    throw new ResponseError(ErrorCodes.InvalidRequest, `${LINT_WORKSPACE_COMMAND}: no workspace folder on disk to lint (open a folder)`);
  }
  if (ctx.workspacePull) {
    await ctx.connection.languages.diagnostics.refresh();
    return { refreshed: true };
  }
  const progress = await ctx.connection.window.createWorkDoneProgress();
  return workspace.publish(progress, progress.token);
}
