// `msglint --print-config FILE`: the config that applies to FILE, after the
// search, `extends`, the matching `overrides` and `--rule`, as JSON (a valid
// config file in itself), so that a surprising result can be traced.

import path from 'node:path';
import { ConfigResolver } from '../config/load.js';
import { allRules } from '../linter.js';
import type { PrintConfigCommand } from './args.js';
import { EXIT_OK } from './errors.js';
import type { CliIo } from './lint-command.js';
import { checkRuleOverrides, withOverrides } from './lint-file.js';

export function runPrintConfig(command: PrintConfigCommand, io: CliIo): number {
  checkRuleOverrides(command.ruleOverrides);
  const configs = new ConfigResolver(allRules, command.configPath === undefined ? undefined : path.resolve(io.cwd, command.configPath));
  const config = withOverrides(command.ruleOverrides)(configs.forFile(path.resolve(io.cwd, command.file)).config);
  io.stdout.write(`${JSON.stringify(config, null, 2)}\n`);
  return EXIT_OK;
}
