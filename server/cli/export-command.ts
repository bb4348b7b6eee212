// `msglint export FILE --to FORMAT [--agent NAME] [--until ID] [--code-as-tool] [--force]`:
// the file's LLM view in a provider's shape on stdout (spec section 9).
// Exit codes: 0 exported, 1 the view is invalid (the problems are printed
// on stderr; --force exports anyway), 2 usage error or unreadable file.

import { once } from 'node:events';
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigResolver, describeFsError } from '../config/load.js';
import { allRules, lintDocumentOnce, parseForLint } from '../linter.js';
import { fileVerdict } from '../engine/limits.js';
import { garbageCollector } from '../base/collect.js';
import type { MsglintConfig } from '../engine/types.js';
import { EXPORT_FORMATS, ExportOptionError, THINKING_MODES, exportChunks, exportNotes, toLLMView, viewBlockers, type ExportFormat, type LLMView, type ThinkingMode } from '../export/index.js';
import type { MessageDocument } from '../syntax/document.js';
import { isMessageFile } from '../syntax/format/detect.js';
import { shouldUseColor } from './color.js';
import { EXIT_FAILURE, EXIT_LINT_ERRORS, EXIT_OK, UsageError } from './errors.js';
import { decode, readSourceText, type SourceText } from './files.js';
import { replacedLinkLine, writeOutputFile } from './output-file.js';
import { encodingName } from '../base/decode.js';
import { format as stylish } from './formatters/stylish.js';
import type { CliIo } from './lint-command.js';
import { toFileReport } from './report.js';

export const EXPORT_HELP = `Usage: msglint export FILE --to FORMAT [options]

Write the LLM view of a message file (what a program sends to a model) in a
provider's shape. FILE "-" reads standard input.

Formats:
  openai         Chat Completions messages (system first, tool_calls, tool messages)
  anthropic      Messages API {system, messages}: tool_use and tool_result blocks
  vercel         AI SDK (ai 5+) {system, messages}: ModelMessage[] with
                 tool-call and tool-result parts
  vercel-legacy  AI SDK before 4: messages with function_call and "function"
                 role results
  context-json   indexed conversation: index, turn, timestamp, role, content
  console        readable display with emoji (coloured on a terminal)

Options:
      --to FORMAT           The target format (required)
      --agent NAME          Use this agent's system prompt (default: the
                            default agent at the end of the view)
      --until ID            Stop after the cell with this id
      --code-as-tool        Code cells become code_execution tool calls and
                            their outputs the tool results (CodeAct)
      --thinking MODE       openai, anthropic, vercel-legacy: a reply's
                            thinking paragraph is left out ("omit", the
                            default: those APIs take no earlier reasoning) or
                            sent as text ("text"); stderr says which
      --force               Export even when the view is invalid
  -c, --config PATH         Use this config file
  -o, --output-file PATH    Write to a file instead of stdout
      --stdin-filename NAME File name for standard input (default stdin.msg.md)
      --color, --no-color   Force colour of the console format on or off
  -h, --help                Print this help

Exit codes: 0 exported, 1 the view is invalid (split tool call and result,
orphan result, unreadable tool call, a tool name the target's API rejects,
...; nothing is written), 2 usage error or unreadable file.
`;

export interface ExportCommand {
  command: 'export';
  file: string;
  to: ExportFormat;
  agent?: string;
  until?: string;
  codeAsTool: boolean;
  force: boolean;
  thinking: ThinkingMode;
  configPath?: string;
  outputFile?: string;
  stdinFilename?: string;
  color?: boolean;
}

export { parseSubcommand, type ParsedSubcommand, type SubcommandSpec } from './args.js';
import { parseSubcommand } from './args.js';

export function parseExportArgs(argv: readonly string[]): ExportCommand | { command: 'help' } {
  const raw = parseSubcommand(argv, {
    name: 'export',
    values: ['to', 'agent', 'until', 'thinking', 'config', 'output-file', 'stdin-filename'],
    flags: ['code-as-tool', 'force', 'help'],
    short: { c: 'config', o: 'output-file', h: 'help' },
  });
  if (raw.flags.has('help')) return { command: 'help' };
  if (raw.positionals.length === 0) throw new UsageError("'msglint export' needs a FILE (see msglint export --help)");
  if (raw.positionals.length > 1) throw new UsageError(`'msglint export' takes one FILE, got '${raw.positionals[1]}' too`);
  const to = raw.values.get('to');
  if (to === undefined) throw new UsageError(`'msglint export' needs --to FORMAT (one of: ${EXPORT_FORMATS.join(', ')})`);
  if (!(EXPORT_FORMATS as readonly string[]).includes(to)) {
    throw new UsageError(`unknown export format '${to}' (expected one of: ${EXPORT_FORMATS.join(', ')})`);
  }
  const thinking = raw.values.get('thinking') ?? 'omit';
  if (!(THINKING_MODES as readonly string[]).includes(thinking)) {
    throw new UsageError(`unknown --thinking mode '${thinking}' (expected one of: ${THINKING_MODES.join(', ')})`);
  }
  const command: ExportCommand = {
    command: 'export',
    file: raw.positionals[0]!,
    to: to as ExportFormat,
    codeAsTool: raw.flags.has('code-as-tool'),
    force: raw.flags.has('force'),
    thinking: thinking as ThinkingMode,
  };
  const set = <K extends 'agent' | 'until' | 'configPath' | 'outputFile' | 'stdinFilename'>(key: K, option: string) => {
    const v = raw.values.get(option);
    if (v !== undefined) command[key] = v;
  };
  set('agent', 'agent');
  set('until', 'until');
  set('configPath', 'config');
  set('outputFile', 'output-file');
  set('stdinFilename', 'stdin-filename');
  if (raw.color !== undefined) command.color = raw.color;
  if (command.stdinFilename !== undefined && command.file !== '-') throw new UsageError('--stdin-filename requires FILE "-" (standard input)');
  return command;
}

/** A message file read and parsed for export or agents: its name for messages, the document, its config. */
export interface LoadedMessageFile {
  label: string;
  fileName: string;
  doc: MessageDocument;
  config: MsglintConfig;
}

/** Reads, checks and parses one message file (FILE or "-"); failures are UsageErrors (exit 2). */
export async function loadMessageFile(
  file: string,
  options: { configPath?: string; stdinFilename?: string },
  io: Pick<CliIo, 'cwd' | 'stdin'>,
): Promise<LoadedMessageFile> {
  let source: SourceText;
  let fileName: string;
  let label: string;
  if (file === '-') {
    fileName = path.resolve(io.cwd, options.stdinFilename ?? 'stdin.msg.md');
    label = options.stdinFilename ?? '<stdin>';
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    source = decode(Buffer.concat(chunks));
  } else {
    fileName = path.resolve(io.cwd, file);
    label = file;
    try {
      // A FIFO or device is refused before it is read: it could block or stream forever.
      source = readSourceText(fileName);
    } catch (error) {
      throw new UsageError(`${label}: ${describeFsError(error)}`);
    }
  }
  if (source.problem) {
    // What would be sent is not what the file says: U+FFFD for bytes that did not decode, or nothing of a binary file.
    const p = source.problem;
    const what = p.kind === 'binary' ? 'is binary, not text' : `is not valid ${encodingName(p.encoding)} from line ${lineNumberAt(source.text, p.offset)}`;
    throw new UsageError(`${label}: ${what}; not read`);
  }
  if (!isMessageFile(fileName, source.text)) {
    throw new UsageError(`${label}: not a message file (a *.msg.md file, or a *.md file whose frontmatter has message_section)`);
  }
  const configs = new ConfigResolver(allRules, options.configPath === undefined ? undefined : path.resolve(io.cwd, options.configPath));
  const config = configs.forFile(fileName).config;
  // Parsed, it would take more memory than a process has (engine/limits.ts).
  const verdict = fileVerdict(source.text, undefined);
  if (verdict) throw new UsageError(`${label}: ${verdict.message.replace(/^This file is/, 'is').replace(/\.$/, '')}; not read`);
  const doc = parseForLint(source.text, { fileName, config }, true);
  return { label, fileName, doc, config };
}

export async function runExport(argv: readonly string[], io: CliIo): Promise<number> {
  const command = parseExportArgs(argv);
  if (command.command === 'help') {
    io.stdout.write(EXPORT_HELP);
    return EXIT_OK;
  }
  if (command.outputFile !== undefined && command.file !== '-' && samePath(path.resolve(io.cwd, command.file), path.resolve(io.cwd, command.outputFile))) {
    throw new UsageError(`${command.outputFile}: is the file being exported; write the export elsewhere`);
  }
  // Made in a function of its own: the tree is gone before the export is written.
  const text = await exportedText(command, io);
  if (typeof text === 'number') return text;
  // The tree is garbage now: collected before the view is written out.
  garbageCollector()?.();
  if (command.outputFile !== undefined) {
    try {
      // As lint's -o: the folder is made when missing, a link at the path replaced (output-file.ts).
      if (writeOutputFile(path.resolve(io.cwd, command.outputFile), text)) io.error(replacedLinkLine(command.outputFile, 'export'));
    } catch (error) {
      io.error(`msglint: ${command.outputFile}: cannot write: ${describeFsError(error)}`);
      return EXIT_FAILURE;
    }
  } else {
    // A pipe takes what its reader has read: the rest waits in memory, so each piece waits for the last to
    // drain (without, a long export sat in memory whole, beside the view).
    for (const piece of text) if (io.stdout.write(piece) === false) await once(io.stdout, 'drain');
  }
  return EXIT_OK;
}

/** The 1-based line of an offset. */
function lineNumberAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The export's text in pieces (export/index.ts exportChunks), or the exit code when there is none (problems that make the view invalid). */
async function exportedText(command: ExportCommand, io: CliIo): Promise<Iterable<string> | number> {
  const view = await checkedView(command, io);
  if (typeof view === 'number') return view;
  const color = command.to === 'console' && (command.outputFile === undefined ? shouldUseColor(command.color, io.env, io.stdout) : command.color === true);
  const time = command.to === 'context-json' ? await fileTime(command.file === '-' ? undefined : path.resolve(io.cwd, command.file)) : undefined;
  return exportChunks(view, command.to, { color, time, thinking: command.thinking });
}

/**
 * The file's view, its blockers and notes said on stderr, or the exit code
 * when it is not to be exported. A function of its own, so that nothing
 * holds the tree once the view is made.
 */
async function checkedView(command: ExportCommand, io: CliIo): Promise<LLMView | number> {
  const { label, fileName, doc, config } = await loadMessageFile(command.file, command, io);
  // Linted before the view is made: what the lint makes on the way is gone before the view takes its memory.
  const diagnostics = lintDocumentOnce(doc, { fileName, config });
  // What the lint made on the way is garbage: collected now, the view takes its place rather than more memory.
  garbageCollector()?.();

  let view: LLMView;
  try {
    view = toLLMView(doc, { agent: command.agent, until: command.until, codeAsTool: command.codeAsTool });
  } catch (error) {
    if (error instanceof ExportOptionError) throw new UsageError(`${label}: ${error.message}`);
    throw error;
  }

  const blockers = viewBlockers(doc, view, diagnostics, command.to);
  if (blockers.length) {
    const report = toFileReport(fileName, { filePath: fileName, isMessageFile: true, diagnostics: blockers, text: doc.text });
    const color = shouldUseColor(command.color, io.env, { isTTY: (process.stderr as { isTTY?: boolean }).isTTY });
    const text = stylish([report], { cwd: io.cwd, color, rules: [], version: '' });
    if (!command.force) {
      io.errorReport(`${text.replace(/^\n+|\n+$/g, '')}\n`);
      io.error(`msglint: ${label}: not exported: these problems make the LLM view invalid (fix them, or export anyway with --force)`);
      return EXIT_LINT_ERRORS;
    }
    const n = blockers.length;
    io.error(`msglint: ${label}: exported with ${n} problem${n === 1 ? ' that makes' : 's that make'} the LLM view invalid (--force)`);
  }
  for (const o of view.omitted) io.error(`msglint: ${label}:${doc.lines.lineOf(o.offset) + 1}: left out: ${o.message}`);
  for (const n of exportNotes(view, command.to, { thinking: command.thinking })) {
    const cell = n.cell !== undefined ? doc.cellsById.get(n.cell)?.[0] : undefined;
    io.error(`msglint: ${label}${cell ? `:${doc.lines.lineOf(doc.offsetOf(cell)) + 1}` : ''}: ${n.message}`);
  }
  return view;
}

/** Whether two paths name one file (through links too); a path that does not exist is compared as written. */
function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return real(a) === real(b);
}

/** The timestamp of context-json entries in a file without any `time`: the file's modification time, or now for standard input. */
async function fileTime(fileName: string | undefined): Promise<string> {
  let ms = Date.now();
  if (fileName !== undefined) {
    try {
      ms = (await stat(fileName)).mtimeMs;
    } catch {
      // Read a moment ago: a file gone since then has no better time than now.
    }
  }
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
