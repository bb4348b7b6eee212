// Configuration loading shared by the CLI and the language server.
export { ConfigError } from './errors.js';
export { createIgnoreMatcher } from './ignores.js';
export {
  CONFIG_FILE_NAMES,
  ConfigResolver,
  clearConfigCache,
  loadConfigForFile,
  type LoadedConfig,
  type ResolvedConfig,
} from './load.js';
export { commandLineReach, workspaceReach, type ReachOf } from './reach.js';
export { closestRuleId, isKnownRuleId, isSeverity, validateConfig, type KnownRules } from './validate.js';
