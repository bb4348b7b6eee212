import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../server/cli/args.js';
import { shouldUseColor } from '../../server/cli/color.js';
import { UsageError } from '../../server/cli/errors.js';

describe('parseArgs', () => {
  it('defaults to linting the current directory with stylish', () => {
    expect(parseArgs([])).toEqual({
      command: 'lint',
      paths: ['.'],
      format: 'stylish',
      fix: false,
      fixDryRun: false,
      quiet: false,
      ruleOverrides: [],
      stdin: false,
      reportUnusedDisableDirectives: false,
      errorOnUnmatchedPattern: true,
      ignorePatterns: [],
      noIgnore: false,
      cache: false,
    });
  });

  it('reads every option, in both --opt value and --opt=value forms', () => {
    expect(
      parseArgs([
        'docs',
        '--format=json',
        '--fix',
        '--quiet',
        '--max-warnings',
        '3',
        '--rule',
        'cell-marker:off',
        '--rule=cell-id-missing:2',
        '-c',
        'ci.json',
        '-o',
        'out.json',
        '--no-color',
        '--color',
        '--report-unused-disable-directives',
        '--no-error-on-unmatched-pattern',
        '--',
        '--odd-name.msg.md',
      ]),
    ).toEqual({
      command: 'lint',
      paths: ['docs', '--odd-name.msg.md'],
      format: 'json',
      fix: true,
      fixDryRun: false,
      quiet: true,
      maxWarnings: 3,
      ruleOverrides: [
        ['cell-marker', 'off'],
        ['cell-id-missing', 'error'],
      ],
      configPath: 'ci.json',
      outputFile: 'out.json',
      color: true,
      stdin: false,
      reportUnusedDisableDirectives: true,
      cache: false,
      errorOnUnmatchedPattern: false,
      ignorePatterns: [],
      noIgnore: false,
    });
  });

  it('treats --max-warnings -1 as no limit', () => {
    expect(parseArgs(['--max-warnings', '-1'])).not.toHaveProperty('maxWarnings');
  });

  it('handles stdin', () => {
    expect(parseArgs(['--stdin', '--stdin-filename', 'x.msg.md', '--fix-dry-run'])).toMatchObject({
      stdin: true,
      stdinFilename: 'x.msg.md',
      fixDryRun: true,
      paths: [],
    });
  });

  it('recognises the rules subcommand only in first position', () => {
    expect(parseArgs(['rules'])).toEqual({ command: 'rules', format: 'text' });
    expect(parseArgs(['rules', '-f', 'json'])).toEqual({ command: 'rules', format: 'json' });
    expect(parseArgs(['docs', 'rules'])).toMatchObject({ command: 'lint', paths: ['docs', 'rules'] });
    expect(parseArgs(['--', 'rules'])).toMatchObject({ command: 'lint', paths: ['rules'] });
  });

  it('lets --help and --version win over everything else', () => {
    expect(parseArgs(['--fix', '--help'])).toEqual({ command: 'help' });
    expect(parseArgs(['-v', 'x'])).toEqual({ command: 'version' });
  });

  it.each([
    [['--nope'], "unknown option '--nope' (see msglint --help)"],
    [['--nope=1'], "unknown option '--nope' (see msglint --help)"],
    [['--rule'], "option '--rule' needs a value"],
    [['--config', '--fix'], "option '--config' needs a value"],
    [['--fix=true'], "option '--fix' does not take a value"],
  ])('rejects %j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(new UsageError(message));
  });
});

describe('shouldUseColor', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  it.each([
    [undefined, {}, tty, true],
    [undefined, {}, pipe, false],
    [undefined, { TERM: 'dumb' }, tty, false],
    [undefined, { NO_COLOR: '1' }, tty, false],
    [undefined, { NO_COLOR: '' }, tty, true],
    [undefined, { FORCE_COLOR: '1' }, pipe, true],
    [undefined, { FORCE_COLOR: '0' }, tty, false],
    [undefined, { FORCE_COLOR: 'false' }, tty, false],
    [undefined, { FORCE_COLOR: '1', NO_COLOR: '1' }, pipe, true],
    [true, { NO_COLOR: '1' }, pipe, true],
    [false, { FORCE_COLOR: '3' }, tty, false],
  ] as const)('flag %s env %j destination %j -> %s', (flag, env, destination, expected) => {
    expect(shouldUseColor(flag, env as NodeJS.ProcessEnv, destination)).toBe(expected);
  });
});
