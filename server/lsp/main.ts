#!/usr/bin/env node
// msglint-language-server: serves message files to any LSP client.
//   msglint-language-server --stdio | --node-ipc | --socket=PORT | --pipe=NAME

import { format } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { createConnection, ProposedFeatures, StreamMessageReader, type Connection } from 'vscode-languageserver/node';
import { packageInfo } from '../base/package-info.js';
import { FramingRepair } from './framing.js';
import { collectWhenIdle } from './idle-gc.js';
import { answerRefusals, createLifecycle } from './lifecycle.js';
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
  const output = new OneWriteMessageWriter(process.stdout);
  // Our own reader, to answer a body that is not JSON with a parse error
  // (-32700, id null) as JSON-RPC asks; the library only logs it.
  const reader = new StreamMessageReader(input);
  reader.onError((error) => {
    if (error instanceof SyntaxError) void output.write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${error.message}` } } as never).catch(() => undefined);
  });
  const lifecycle = createLifecycle();
  connection = createConnection(ProposedFeatures.all, reader, output, lifecycle.options);
  // Given streams, the library exits when the input ends; given a reader, we do.
  for (const event of ['end', 'close'] as const) process.stdin.on(event, () => process.exit(lifecycle.shutDown ? 0 : 1));
  // Standard output carries the protocol: console output goes to the client's log (as
  // vscode-languageserver arranges itself when it opens stdio from the command line).
  const log = connection.console;
  console.log = console.info = console.debug = (...a: unknown[]) => log.log(format(...a));
  console.warn = (...a: unknown[]) => log.warn(format(...a));
  console.error = console.trace = (...a: unknown[]) => log.error(format(...a));
  startServer(connection, nodeEnvironment(), lifecycle.quietFor);
  answerRefusals(connection);
  collectWhenIdle();
  connection.listen();
} else {
  // createConnection reads the transport from the command line.
  const lifecycle = createLifecycle();
  const connection = createConnection(ProposedFeatures.all, lifecycle.options);
  startServer(connection, nodeEnvironment(), lifecycle.quietFor);
  answerRefusals(connection);
  collectWhenIdle();
  connection.listen();
}
