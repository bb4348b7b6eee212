// `msglint import FILE|- [--from FORMAT] [-o OUT] [--force] [--redact]`: a
// conversation (JSON in a provider's shape) as a message file (spec section
// 9, "Import"). The format is recognised when --from is absent and named on
// stderr; each kind of thing the file cannot hold is one `dropped` line on
// stderr. Exit codes: 0 imported, 2 usage error, unreadable or bad input,
// or an output file that exists (without --force).

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { describeFsError } from '../config/load.js';
import { ImportError, IMPORT_FORMATS, importConversation, type ImportFormat } from '../import/index.js';
import { parseSubcommand } from './args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from './errors.js';
import { decode, readSourceText } from './files.js';
import { replacedLinkLine, writeOutputFile } from './output-file.js';
import type { CliIo } from './lint-command.js';

export const IMPORT_HELP = `Usage: msglint import FILE [options]

Write a conversation (JSON) as a message file. FILE "-" reads standard input.
What a message file cannot hold (images, files, thinking signatures,
provider-only fields, server-side tools, approvals) is left out, one line
per kind on stderr.

Formats (recognised when --from is absent):
  openai         Chat Completions messages (also function_call / function role)
  anthropic      Messages API {system, messages}, or the messages array
  vercel         AI SDK (ai 5+) ModelMessage[], or {system, messages}
  vercel-legacy  AI SDK 3.x Message[] (function_call, "function" role)
  context-json   msglint export --to context-json
  dexto          dexto's InternalMessage[]
  forge          Forge's {role, content} memory with XML <tool> calls

Options:
      --from FORMAT         The input's format
  -o, --output-file PATH    Write the message file here (its folder is made);
                            default: stdout
      --force               Overwrite the output file when it exists
      --redact              Replace credentials with [REDACTED:KIND]
  -h, --help                Print this help

Exit codes: 0 imported, 2 usage error, unreadable or bad input, or an
output file that exists (without --force).
`;

export interface ImportCommand {
  command: 'import';
  file: string;
  from?: ImportFormat;
  outputFile?: string;
  force: boolean;
  redact: boolean;
}

export function parseImportArgs(argv: readonly string[]): ImportCommand | { command: 'help' } {
  const raw = parseSubcommand(argv, {
    name: 'import',
    values: ['from', 'output-file'],
    flags: ['force', 'redact', 'help'],
    short: { o: 'output-file', h: 'help' },
  });
  if (raw.flags.has('help')) return { command: 'help' };
  if (raw.color !== undefined) throw new UsageError(`option '--${raw.color ? 'color' : 'no-color'}' does not apply to 'msglint import'`);
  if (raw.positionals.length === 0) throw new UsageError("'msglint import' needs a FILE, or - for standard input (see msglint import --help)");
  if (raw.positionals.length > 1) throw new UsageError(`'msglint import' takes one FILE, got '${raw.positionals[1]}' too`);
  const command: ImportCommand = { command: 'import', file: raw.positionals[0]!, force: raw.flags.has('force'), redact: raw.flags.has('redact') };
  const from = raw.values.get('from');
  if (from !== undefined) {
    if (!(IMPORT_FORMATS as readonly string[]).includes(from)) throw new UsageError(`unknown import format '${from}' (expected one of: ${IMPORT_FORMATS.join(', ')})`);
    command.from = from as ImportFormat;
  }
  const out = raw.values.get('output-file');
  if (out !== undefined) command.outputFile = out;
  return command;
}

export async function runImport(argv: readonly string[], io: CliIo): Promise<number> {
  const command = parseImportArgs(argv);
  if (command.command === 'help') {
    io.stdout.write(IMPORT_HELP);
    return EXIT_OK;
  }
  const label = command.file === '-' ? '<stdin>' : command.file;
  const target = command.outputFile !== undefined ? path.resolve(io.cwd, command.outputFile) : undefined;
  // Anything at the path counts, a link too (with --force it is replaced, not written through).
  if (target !== undefined && lstatSync(target, { throwIfNoEntry: false }) !== undefined && !command.force) {
    io.error(`msglint: ${command.outputFile}: exists; give --force to overwrite it`);
    return EXIT_FAILURE;
  }
  let input: string;
  if (command.file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    input = decode(Buffer.concat(chunks)).text;
  } else {
    try {
      // A FIFO or device is refused before it is read: it could block or stream forever.
      input = readSourceText(path.resolve(io.cwd, command.file)).text;
    } catch (error) {
      io.error(`msglint: ${label}: ${describeFsError(error)}`);
      return EXIT_FAILURE;
    }
  }
  let result;
  try {
    result = importConversation(input, { ...(command.from !== undefined ? { from: command.from } : {}), redact: command.redact });
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    io.error(`msglint: ${label}: ${error.message.replace(/\s*\n\s*/g, ' ')}`);
    return EXIT_FAILURE;
  }
  if (command.from === undefined) io.error(`msglint: ${label}: read as ${result.format}`);
  for (const line of result.dropped) io.error(`msglint: ${label}: ${line}`);
  if (target === undefined) {
    io.stdout.write(result.text);
    return EXIT_OK;
  }
  try {
    if (writeOutputFile(target, result.text)) io.error(replacedLinkLine(command.outputFile!, 'imported file'));
  } catch (error) {
    io.error(`msglint: ${command.outputFile}: cannot write: ${describeFsError(error)}`);
    return EXIT_FAILURE;
  }
  return EXIT_OK;
}
