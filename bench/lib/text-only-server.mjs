// A language server that keeps each opened text and reports no findings:
// what opening a file costs before any parsing or linting (the client
// turning the text into a message, the pipe, the server decoding it, one
// pull answered). The benchmark opens the 5,000-turn file with it beside
// msglint and the baseline, so the share of an open that msglint can change
// is measured in the same run.
import { createConnection, ProposedFeatures, TextDocumentSyncKind } from 'vscode-languageserver/node';

const connection = createConnection(ProposedFeatures.all);
const texts = new Map();
connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
  },
}));
connection.onDidOpenTextDocument(({ textDocument }) => texts.set(textDocument.uri, textDocument.text));
connection.onDidCloseTextDocument(({ textDocument }) => texts.delete(textDocument.uri));
connection.languages.diagnostics.on(() => ({ kind: 'full', items: [] }));
connection.listen();
