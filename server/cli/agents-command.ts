// `msglint agents FILE [--format json]`: every agent of a message file
// (predefined or temporary), its models and settings, where it is the
// default agent and which cells it answered.

import { agentsText, listAgents } from '../export/agents.js';
import { palette, shouldUseColor } from './color.js';
import { EXIT_OK, UsageError } from './errors.js';
import { loadMessageFile, parseSubcommand } from './export-command.js';
import type { CliIo } from './lint-command.js';

export const AGENTS_HELP = `Usage: msglint agents FILE [--format json]

List the agents of a message file: predefined (frontmatter) and temporary
(declared in the body) ones, their models and settings, the lines where each
is the default agent, and the cells each one answered. FILE "-" reads
standard input.

Options:
  -f, --format NAME         text (default) or json
  -c, --config PATH         Use this config file (its agents are listed too)
      --stdin-filename NAME File name for standard input (default stdin.msg.md)
      --color, --no-color   Force colour on or off
  -h, --help                Print this help
`;

export async function runAgents(argv: readonly string[], io: CliIo): Promise<number> {
  const raw = parseSubcommand(argv, {
    name: 'agents',
    values: ['format', 'config', 'stdin-filename'],
    flags: ['help'],
    short: { f: 'format', c: 'config', h: 'help' },
  });
  if (raw.flags.has('help')) {
    io.stdout.write(AGENTS_HELP);
    return EXIT_OK;
  }
  if (raw.positionals.length === 0) throw new UsageError("'msglint agents' needs a FILE (see msglint agents --help)");
  if (raw.positionals.length > 1) throw new UsageError(`'msglint agents' takes one FILE, got '${raw.positionals[1]}' too`);
  const format = raw.values.get('format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`'msglint agents' supports --format text or json, got '${format}'`);
  const file = raw.positionals[0]!;
  const stdinFilename = raw.values.get('stdin-filename');
  if (stdinFilename !== undefined && file !== '-') throw new UsageError('--stdin-filename requires FILE "-" (standard input)');
  const { label, doc } = await loadMessageFile(file, { configPath: raw.values.get('config'), stdinFilename }, io);
  const listing = listAgents(doc, label);
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
    return EXIT_OK;
  }
  io.stdout.write(agentsText(listing, palette(shouldUseColor(raw.color, io.env, io.stdout))));
  return EXIT_OK;
}
