#!/usr/bin/env node
// msglint-language-server: serves message files to any LSP client.
//   msglint-language-server --stdio | --node-ipc | --socket=PORT | --pipe=NAME

import { format } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/node';
import { packageInfo } from '../base/package-info.js';
import { FramingRepair } from './framing.js';
import { collectWhenIdle } from './idle-gc.js';
import { nodeEnvironment } from './node-environment.js';
import { startServer } from './server.js';
import { OneWriteMessageWriter } from './writer.js';

const USAGE = `Usage: msglint-language-server --stdio | --node-ipc | --socket=PORT | --pipe=NAME

Serves msglint diagnostics, fixes, navigation and completion for message
files (*.msg.md) to an editor over the Language Server Protocol.
`;

// The command's V8 settings (docs/performance.md, "V8 settings"): set before
// any of the server's code is optimized, they make opening a long file
// faster and typing no slower.
setFlagsFromString('--max-inlined-bytecode-size-cumulative=100 --no-allocation-site-pretenuring');

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
} else if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`${packageInfo().version}\n`);
} else if (!args.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket=') || a.startsWith('--pipe='))) {
  process.stderr.write(`msglint-language-server: choose a transport.\n${USAGE}`);
  process.exitCode = 2;
} else if (args.includes('--stdio')) {
  // Standard input goes through FramingRepair, so a malformed header costs
  // only the message it garbles (see framing.ts).
  let connection: Connection | undefined;
  const input = process.stdin.pipe(new FramingRepair((message) => connection?.console.warn(message)));
  // A stream and a writer: vscode-languageserver reads a stream itself (and
  // exits when it ends) and uses a writer as it is; its overloads type only
  // two streams or a reader and a writer, hence the cast.
  const output = new OneWriteMessageWriter(process.stdout) as unknown as NodeJS.WritableStream;
  connection = createConnection(ProposedFeatures.all, input, output);
  // Standard output carries the protocol: console output goes to the client's log (as
  // vscode-languageserver arranges itself when it opens stdio from the command line).
  const log = connection.console;
  console.log = console.info = console.debug = (...a: unknown[]) => log.log(format(...a));
  console.warn = (...a: unknown[]) => log.warn(format(...a));
  console.error = console.trace = (...a: unknown[]) => log.error(format(...a));
  startServer(connection, nodeEnvironment());
  collectWhenIdle();
  connection.listen();
} else {
  // createConnection reads the transport from the command line.
  const connection = createConnection(ProposedFeatures.all);
  startServer(connection, nodeEnvironment());
  collectWhenIdle();
  connection.listen();
}
