// Command-line parsing. Hand-written rather than node:util parseArgs because
// Node 20.0-20.15 lacks `--no-<flag>` negation and parseArgs' error messages
// are long and mention internals; here every mistake becomes one short line.

import { UsageError } from './errors.js';
import { globCostProblem } from '../config/globs.js';

export const FORMAT_NAMES = ['stylish', 'json', 'sarif', 'github', 'junit', 'gitlab', 'rdjson'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export type RuleSeverityOverride = 'off' | 'warn' | 'error';

export interface LintCommand {
  command: 'lint';
  paths: string[];
  format: FormatName;
  fix: boolean;
  fixDryRun: boolean;
  quiet: boolean;
  /** Undefined: no limit. */
  maxWarnings?: number;
  /** In command-line order; a later entry for the same id wins. */
  ruleOverrides: [id: string, severity: RuleSeverityOverride][];
  configPath?: string;
  stdin: boolean;
  stdinFilename?: string;
  outputFile?: string;
  /** Undefined: decide from the environment and the terminal. */
  color?: boolean;
  reportUnusedDisableDirectives: boolean;
  /** Worker threads: a count, 'auto' or 'off' (undefined: off). */
  concurrency?: number | 'auto' | 'off';
  cache: boolean;
  cacheLocation?: string;
  /** False with --no-error-on-unmatched-pattern: a path that yields no message file is said, not an error. */
  errorOnUnmatchedPattern: boolean;
  /** --ignore-pattern GLOB and `!GLOB` arguments, in order: relative to the working directory, as a config's `ignores`. */
  ignorePatterns: string[];
  /** --no-ignore: no .gitignore, config `ignores` or ignore pattern applies. */
  noIgnore: boolean;
}

export interface RulesCommand {
  command: 'rules';
  format: 'text' | 'json';
}

/** `--print-config FILE`: the config that applies to FILE, as JSON. */
export interface PrintConfigCommand {
  command: 'print-config';
  file: string;
  configPath?: string;
  ruleOverrides: [id: string, severity: RuleSeverityOverride][];
}

export type Command = LintCommand | RulesCommand | PrintConfigCommand | { command: 'help' } | { command: 'version' };

type ValueOption = 'format' | 'max-warnings' | 'rule' | 'ignore-pattern' | 'config' | 'stdin-filename' | 'output-file' | 'concurrency' | 'cache-location' | 'print-config';
type FlagOption =
  | 'fix'
  | 'fix-dry-run'
  | 'quiet'
  | 'stdin'
  | 'color'
  | 'no-color'
  | 'report-unused-disable-directives'
  | 'cache'
  | 'no-error-on-unmatched-pattern'
  | 'no-ignore'
  | 'version'
  | 'help';

const VALUE_OPTIONS = new Set<string>([
  'format',
  'max-warnings',
  'rule',
  'ignore-pattern',
  'config',
  'stdin-filename',
  'output-file',
  'concurrency',
  'cache-location',
  'print-config',
]);
const FLAG_OPTIONS = new Set<string>([
  'fix',
  'fix-dry-run',
  'quiet',
  'stdin',
  'color',
  'no-color',
  'report-unused-disable-directives',
  'cache',
  'no-error-on-unmatched-pattern',
  'no-ignore',
  'version',
  'help',
]);
/** The same short aliases as ESLint, so muscle memory works. */
const SHORT_OPTIONS: Record<string, string> = { f: 'format', c: 'config', o: 'output-file', h: 'help', v: 'version' };

interface RawOptions {
  values: Partial<Record<ValueOption, string>>;
  rules: string[];
  ignorePatterns: string[];
  flags: Set<FlagOption>;
  /** The last of --color / --no-color wins. */
  color?: boolean;
  positionals: string[];
}

export interface SubcommandSpec {
  /** The subcommand, for messages; absent for the main command. */
  name?: string;
  values: readonly string[];
  flags: readonly string[];
  short?: Record<string, string>;
  /** Value options that may be given more than once (`--rule`). */
  repeatable?: readonly string[];
}

export interface ParsedSubcommand {
  values: Map<string, string>;
  /** Every value of a repeatable option, in order. */
  repeated: Map<string, string[]>;
  flags: Set<string>;
  /** The last of --color / --no-color wins. */
  color?: boolean;
  positionals: string[];
}

/**
 * Options of the main command and of subcommands: `--name value`,
 * `--name=value`, short aliases, flags, `--color`/`--no-color`, and `--`.
 */
export function parseSubcommand(argv: readonly string[], spec: SubcommandSpec): ParsedSubcommand {
  const out: ParsedSubcommand = { values: new Map(), repeated: new Map(), flags: new Set(), positionals: [] };
  const help = spec.name ? ` for 'msglint ${spec.name}' (see msglint ${spec.name} --help)` : ' (see msglint --help)';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.positionals.push(arg);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
    } else {
      const long = spec.short?.[arg.slice(1)];
      if (long === undefined) throw new UsageError(`unknown option '${arg}'${help}`);
      name = long;
    }
    if (spec.values.includes(name)) {
      let value = inline;
      if (value === undefined) {
        const next = argv[i + 1];
        // A negative number is a value (`--max-warnings -1`), not an option.
        if (next === undefined || (next.startsWith('-') && next !== '-' && !/^-\d/.test(next))) {
          throw new UsageError(`option '--${name}' needs a value`);
        }
        value = next;
        i++;
      }
      if (spec.repeatable?.includes(name)) {
        const list = out.repeated.get(name);
        if (list) list.push(value);
        else out.repeated.set(name, [value]);
      } else out.values.set(name, value);
    } else if (spec.flags.includes(name) || name === 'color' || name === 'no-color') {
      if (inline !== undefined) throw new UsageError(`option '--${name}' does not take a value`);
      if (name === 'color' || name === 'no-color') out.color = name === 'color';
      else out.flags.add(name);
    } else {
      throw new UsageError(`unknown option '${arg.split('=')[0]}'${help}`);
    }
  }
  return out;
}

function tokenize(argv: readonly string[]): RawOptions {
  const parsed = parseSubcommand(argv, {
    values: [...VALUE_OPTIONS],
    flags: [...FLAG_OPTIONS].filter((f) => f !== 'color' && f !== 'no-color'),
    short: SHORT_OPTIONS,
    repeatable: ['rule', 'ignore-pattern'],
  });
  return {
    values: Object.fromEntries(parsed.values) as RawOptions['values'],
    rules: parsed.repeated.get('rule') ?? [],
    ignorePatterns: parsed.repeated.get('ignore-pattern') ?? [],
    flags: parsed.flags as Set<FlagOption>,
    color: parsed.color,
    positionals: parsed.positionals,
  };
}

export function parseArgs(argv: readonly string[]): Command {
  // `rules` is a subcommand only in first position, so a directory named
  // "rules" can still be linted as `msglint ./rules` or `msglint -- rules`.
  if (argv[0] === 'rules') return parseRulesCommand(argv.slice(1));

  const raw = tokenize(argv);
  if (raw.flags.has('help')) return { command: 'help' };
  if (raw.flags.has('version')) return { command: 'version' };

  const ruleOverrides = raw.rules.map(parseRuleOverride);
  const printConfig = raw.values['print-config'];
  if (printConfig !== undefined) {
    const other = Object.keys(raw.values).find((name) => name !== 'print-config' && name !== 'config') ?? [...raw.flags][0];
    if (other !== undefined) throw new UsageError(`--print-config cannot be combined with --${other}`);
    if (raw.positionals.length) throw new UsageError('--print-config takes one file and no other paths');
    const command: PrintConfigCommand = { command: 'print-config', file: printConfig, ruleOverrides };
    if (raw.values.config !== undefined) command.configPath = raw.values.config;
    return command;
  }

  const format = raw.values.format ?? 'stylish';
  if (!(FORMAT_NAMES as readonly string[]).includes(format)) {
    throw new UsageError(`unknown format '${format}' (expected one of: ${FORMAT_NAMES.join(', ')})`);
  }

  let maxWarnings: number | undefined;
  if (raw.values['max-warnings'] !== undefined) {
    const text = raw.values['max-warnings'];
    if (!/^(-1|\d+)$/.test(text)) {
      throw new UsageError(`--max-warnings expects a whole number, got '${text}'`);
    }
    // -1 means "no limit", as in ESLint.
    maxWarnings = text === '-1' ? undefined : Number(text);
  }

  // `!GLOB` arguments exclude, as --ignore-pattern GLOB does (markdownlint-cli2, ESLint's negated patterns).
  const negated = raw.positionals.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const ignorePatterns = [...raw.ignorePatterns, ...negated];
  for (const pattern of ignorePatterns) {
    const problem = pattern.trim() === '' ? 'an empty pattern' : globCostProblem(pattern);
    if (problem !== undefined) throw new UsageError(`--ignore-pattern '${pattern}': ${problem}`);
  }
  const command: LintCommand = {
    command: 'lint',
    paths: raw.positionals.filter((p) => !p.startsWith('!')),
    format: format as FormatName,
    fix: raw.flags.has('fix'),
    fixDryRun: raw.flags.has('fix-dry-run'),
    quiet: raw.flags.has('quiet'),
    ruleOverrides,
    stdin: raw.flags.has('stdin'),
    reportUnusedDisableDirectives: raw.flags.has('report-unused-disable-directives'),
    errorOnUnmatchedPattern: !raw.flags.has('no-error-on-unmatched-pattern'),
    ignorePatterns,
    noIgnore: raw.flags.has('no-ignore'),
    cache: raw.flags.has('cache'),
  };
  const concurrency = raw.values.concurrency;
  if (concurrency !== undefined) {
    if (concurrency === 'auto' || concurrency === 'off') command.concurrency = concurrency;
    else if (/^[1-9]\d{0,3}$/.test(concurrency)) command.concurrency = Number(concurrency);
    else throw new UsageError(`--concurrency expects auto, off or a number of threads, got '${concurrency}'`);
  }
  if (raw.values['cache-location'] !== undefined) command.cacheLocation = raw.values['cache-location'];
  if (maxWarnings !== undefined) command.maxWarnings = maxWarnings;
  if (raw.values.config !== undefined) command.configPath = raw.values.config;
  if (raw.values['stdin-filename'] !== undefined) command.stdinFilename = raw.values['stdin-filename'];
  if (raw.values['output-file'] !== undefined) command.outputFile = raw.values['output-file'];
  if (raw.color !== undefined) command.color = raw.color;

  if (command.fix && command.fixDryRun) throw new UsageError('--fix and --fix-dry-run cannot be used together');
  if (command.stdin) {
    if (command.paths.length > 0) throw new UsageError('--stdin cannot be combined with paths');
  } else if (command.stdinFilename !== undefined) {
    throw new UsageError('--stdin-filename requires --stdin');
  }
  if (command.paths.length === 0 && !command.stdin) command.paths = ['.'];
  return command;
}

const SEVERITY_WORDS: Record<string, RuleSeverityOverride | undefined> = {
  off: 'off',
  warn: 'warn',
  error: 'error',
  0: 'off',
  1: 'warn',
  2: 'error',
};

function parseRuleOverride(text: string): [string, RuleSeverityOverride] {
  const colon = text.lastIndexOf(':');
  const id = colon === -1 ? '' : text.slice(0, colon).trim();
  const level = colon === -1 ? '' : text.slice(colon + 1).trim();
  const severity = SEVERITY_WORDS[level];
  if (!id || severity === undefined) {
    throw new UsageError(`--rule expects RULE:off|warn|error, got '${text}'`);
  }
  return [id, severity];
}

function parseRulesCommand(argv: readonly string[]): Command {
  const raw = tokenize(argv);
  if (raw.flags.has('help')) return { command: 'help' };
  const extra = [...raw.flags].filter((f) => f !== 'help');
  const otherValues = Object.keys(raw.values).filter((k) => k !== 'format');
  if (raw.positionals.length) throw new UsageError(`'msglint rules' takes no arguments, got '${raw.positionals[0]}'`);
  if (extra.length || otherValues.length || raw.rules.length || raw.color !== undefined) {
    const name = extra[0] ?? otherValues[0] ?? (raw.rules.length ? 'rule' : raw.color ? 'color' : 'no-color');
    throw new UsageError(`option '--${name}' does not apply to 'msglint rules'`);
  }
  const format = raw.values.format ?? 'text';
  if (format === 'json') return { command: 'rules', format: 'json' };
  if (format === 'text' || format === 'stylish') return { command: 'rules', format: 'text' };
  throw new UsageError(`'msglint rules' supports --format text or json, got '${format}'`);
}

export const HELP_TEXT = `Usage: msglint [options] [paths...]
       msglint rules [--format json]
       msglint export FILE --to openai|anthropic|vercel|vercel-legacy|context-json|console [...]
       msglint agents FILE [--format json]
       msglint import FILE|- [--from FORMAT] [-o OUT] [--force] [--redact]

Lint message files (*.msg.md, and *.md files whose frontmatter declares
message_section). Paths may be files, directories (searched recursively) or
glob patterns; the default is the current directory. .gitignore files,
node_modules, .git and the config's "ignores" are skipped. A path that yields
no message file is an error (a file named but ignored is only said).

Options:
  -f, --format NAME         stylish (default), json, sarif, github, junit,
                            gitlab (Code Quality) or rdjson (reviewdog)
      --fix                 Apply safe fixes and write the files that change
                            (with --stdin: print the fixed text on stdout)
      --fix-dry-run         Compute fixes without writing (json shows "output")
      --quiet               Report errors only
      --max-warnings N      Exit with 1 when there are more than N warnings
      --rule ID:SEVERITY    Set a rule to off, warn or error (repeatable)
  -c, --config PATH         Use this config file; do not search for others
      --print-config FILE   Print the config that applies to FILE (JSON)
      --stdin               Lint standard input
      --stdin-filename NAME File name for standard input (config, detection)
  -o, --output-file PATH    Write the report to a file instead of stdout
      --color, --no-color   Force colour on or off (default: when a terminal;
                            NO_COLOR and FORCE_COLOR are honoured)
      --report-unused-disable-directives
                            Report disable comments that suppress nothing
      --concurrency N       Lint on N threads (the main one and N-1 workers), or auto (default: off)
      --cache               Reuse the results of unchanged files
      --cache-location PATH Where the cache is kept (default: .msglintcache; a
                            folder, or a path ending with /, holds it in a
                            file named after the working directory)
      --no-error-on-unmatched-pattern
                            A path that yields no message file is said on
                            stderr, not an error
      --ignore-pattern GLOB Skip the files GLOB matches (repeatable; as a
                            config's "ignores", from the working directory);
                            a path argument !GLOB does the same
      --no-ignore           Apply no .gitignore, "ignores" or ignore pattern
  -v, --version             Print the version
  -h, --help                Print this help

Config files: .msglintrc.json, .msglintrc.jsonc (both may hold comments),
.msglintrc.yaml, .msglintrc.yml or the "msglint" key of package.json; the
nearest one above each file applies.

Environment: MSGLINT_TIMING=1 (or all, or a number of rules) prints the time
of each phase and of the slowest rules on stderr; MSGLINT_DEBUG=1 adds stack
traces to internal errors.

Exit codes: 0 no errors (and warnings within --max-warnings),
            1 lint errors or too many warnings,
            2 usage error, bad config, unreadable path, or a path that
              yields no message file.
`;
