#!/usr/bin/env node
// Entry point of the `msglint` command. Kept thin: parse the arguments, load
// only the code the command needs, and turn every failure into one line on
// stderr and exit code 2 (never a stack trace; MSGLINT_DEBUG=1 shows one).

import { visibleControls, visibleLine } from '../base/terminal.js';
import { HELP_TEXT, parseArgs } from './args.js';
import { EXIT_FAILURE } from './errors.js';
import type { CliIo } from './lint-command.js';

async function main(argv: readonly string[]): Promise<number> {
  const io: CliIo = {
    cwd: process.cwd(),
    env: process.env,
    // A getter: making process.stdin loads Node's stream code, and only
    // --stdin reads it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    // The one way a line reaches stderr: it quotes names and errors from
    // outside, whose control characters must neither drive the terminal nor
    // start a line of their own (a forged report line or workflow command).
    error: (line) => process.stderr.write(`${visibleLine(line)}\n`),
    errorReport: (text) => process.stderr.write(text),
  };
  // Subcommands with their own options, only in first position (as `rules`).
  if (argv[0] === 'export') return (await import('./export-command.js')).runExport(argv.slice(1), io);
  if (argv[0] === 'import') return (await import('./import-command.js')).runImport(argv.slice(1), io);
  if (argv[0] === 'agents') return (await import('./agents-command.js')).runAgents(argv.slice(1), io);
  const command = parseArgs(argv);
  switch (command.command) {
    case 'help':
      process.stdout.write(HELP_TEXT);
      return 0;
    case 'version':
      process.stdout.write(`${(await import('../base/package-info.js')).packageInfo().version}\n`);
      return 0;
    case 'rules':
      return (await import('./rules-command.js')).runRules(command, io);
    case 'lint':
      return (await import('./lint-command.js')).runLint(command, io);
    case 'print-config':
      return (await import('./print-config-command.js')).runPrintConfig(command, io);
  }
}

/** Known failures (usage, config) carry a message meant for the user; anything else is our bug. */
function reportFailure(error: unknown): void {
  const name = error instanceof Error ? error.name : '';
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();
  const expected = name === 'UsageError' || name === 'ConfigError';
  // Config errors name files and quote their keys: shown as any stderr line is.
  process.stderr.write(`${visibleLine(`msglint: ${expected ? message : `internal error: ${message || name || 'unknown error'}`}`)}\n`);
  if (process.env.MSGLINT_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${visibleControls(error.stack)}\n`);
}

// A reader that stops early (`msglint | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  reportFailure(error);
  process.exit(EXIT_FAILURE);
});
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    reportFailure(error);
    process.exit(EXIT_FAILURE);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Exit once what was written has been handed over (an empty write's
    // callback runs after the writes before it): a natural exit first tears
    // down the heap and waits for V8's background work, time the user would
    // wait for nothing.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  },
  (error: unknown) => {
    reportFailure(error);
    process.exitCode = EXIT_FAILURE;
  },
);
