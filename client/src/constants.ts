// Names shared by the extension, its manifest (package.json) and the tests.
// No `vscode` import here: tests load this module outside VS Code.

/** The language client's id: also the settings section (`msglint.*`) and the prefix of `msglint.trace.server`. */
export const CLIENT_ID = 'msglint';
export const CLIENT_NAME = 'msglint';

/** Commands the extension registers (each one is contributed in package.json). */
export const COMMANDS = {
  fixAll: 'msglint.applyAllFixes',
  rewriteLegacyToolCalls: 'msglint.rewriteLegacyToolCalls',
  restartServer: 'msglint.restartServer',
  showOutput: 'msglint.showOutput',
  exportLLMView: 'msglint.exportLLMViewToEditor',
  lintWorkspace: 'msglint.lintWorkspaceFiles',
  importConversation: 'msglint.importConversation',
} as const;

/**
 * The server's command that lints the workspace's files nobody opened. VS
 * Code pulls their diagnostics anyway; the command asks it to pull again.
 */
export const SERVER_LINT_WORKSPACE_COMMAND = 'msglint.lintWorkspace';

/** The server's command that returns an open file's LLM view in a provider's shape. */
export const SERVER_EXPORT_COMMAND = 'msglint.exportLLMView';

/** The server's request for the whole LLM view's tokens against the default agent's window (`{ textDocument }` → `{ tokens, label, tooltip, … } | null`). */
export const SERVER_VIEW_TOTAL_REQUEST = 'msglint/viewTotal';

/** Where the extension remembers the last export target (workspace state): "Export view up to here" uses it without asking. */
export const EXPORT_FORMAT_KEY = 'msglint.exportFormat';

/** The server's export targets (its EXPORT_FORMATS), as "Export LLM view…" offers them. */
export const EXPORT_TARGETS = [
  { format: 'openai', description: 'Chat Completions messages' },
  { format: 'anthropic', description: 'Messages API: {system, messages}' },
  { format: 'vercel', description: 'AI SDK 5+: {system, messages}' },
  { format: 'vercel-legacy', description: 'AI SDK 3 messages' },
  { format: 'context-json', description: 'indexed conversation' },
  { format: 'console', description: 'readable text' },
] as const;

/** The server's request that turns a conversation's JSON into a message file (`{ text, from? }` → `{ text, format, dropped }`). */
export const SERVER_IMPORT_REQUEST = 'msglint/importConversation';

/** The formats the server imports (its IMPORT_FORMATS), offered when it cannot recognise one. */
export const IMPORT_FORMATS = ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json', 'dexto', 'forge'] as const;

/** The server's workspace/executeCommand command that applies every safe fix to a document. */
export const SERVER_FIX_ALL_COMMAND = 'msglint.fixAll';

/** The code action kind of the server's fix-all (for `editor.codeActionsOnSave`). */
export const FIX_ALL_KIND = 'source.fixAll.msglint';

/** The rule whose fixes "Rewrite legacy tool calls" applies. */
export const LEGACY_TOOL_CALL_RULE = 'legacy-json-tool-call';

/** Settings of the `msglint` section (the server reads enable, run and rules through workspace/configuration). */
export const SETTINGS = ['enable', 'run', 'inlayHints', 'rules', 'trace.server'] as const;

/** The bundled language server, relative to the extension's folder. */
export const SERVER_MODULE = 'dist/server.js';

/** The web extension's entry and its language server for a Web Worker (VS Code for the Web), relative to the extension's folder. */
export const BROWSER_MAIN = 'dist/web/extension.js';
export const BROWSER_SERVER_MODULE = 'dist/web/server.js';

/** What the client sends to the server: Markdown files on disk and unsaved ones; the server decides which are message files. */
export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'markdown' },
  { scheme: 'untitled', language: 'markdown' },
  { scheme: 'file', pattern: '**/*.msg.md' },
] as const;

/**
 * The same on the web, where files live under other schemes (`vscode-vfs` on
 * github.dev, `vscode-test-web`, ...): Markdown and `*.msg.md` files of any scheme.
 */
export const BROWSER_DOCUMENT_SELECTOR = [{ language: 'markdown' }, { pattern: '**/*.msg.md' }] as const;

/** Whether a file name is one the status bar item is shown for. */
export function isMarkdownLike(languageId: string, fileName: string): boolean {
  return languageId === 'markdown' || fileName.endsWith('.msg.md');
}
