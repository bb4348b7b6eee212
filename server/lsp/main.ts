#!/usr/bin/env node
// msglint-language-server: serves message files to any LSP client.
//   msglint-language-server --stdio | --node-ipc | --socket=PORT | --pipe=NAME

import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { packageInfo } from '../cli/version.js';
import { startServer } from './server.js';

const USAGE = `Usage: msglint-language-server --stdio | --node-ipc | --socket=PORT | --pipe=NAME

Serves msglint diagnostics, fixes, navigation and completion for message
files (*.msg.md) to an editor over the Language Server Protocol.
`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
} else if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`${packageInfo().version}\n`);
} else if (!args.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket=') || a.startsWith('--pipe='))) {
  process.stderr.write(`msglint-language-server: choose a transport.\n${USAGE}`);
  process.exitCode = 2;
} else {
  // createConnection reads the transport from the command line.
  const connection = createConnection(ProposedFeatures.all);
  startServer(connection);
  connection.listen();
}
