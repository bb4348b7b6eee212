// What a config problem says: one line, naming the file at fault, and never
// quoting what a file holds (a link may lead a config to any file, and
// what a message quotes is shown to whoever reads the output). Imports
// nothing: the language server's browser bundle uses it.

/**
 * A configuration problem the user has to fix. The message is complete and
 * fits on one line ("<config path>: <what is wrong>"), so callers print it as
 * is: the CLI prefixes "msglint: ", the language server shows it in a
 * notification.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    /** The config file at fault, when there is one. */
    readonly configPath?: string,
  ) {
    super(message);
  }
}
