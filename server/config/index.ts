// Configuration loading shared by the CLI and the language server.
export { ConfigError } from './errors.js';
export { createIgnoreMatcher } from './ignores.js';
export {
  CONFIG_FILE_NAMES,
  ConfigResolver,
  clearConfigCache,
  loadConfigFile,
  loadConfigForFile,
  type LoadedConfig,
  type ResolvedConfig,
} from './load.js';
export { closestRuleId, isKnownRuleId, isSeverity, validateConfig, type KnownRules } from './validate.js';
