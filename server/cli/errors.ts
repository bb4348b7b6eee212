/**
 * A mistake in how msglint was invoked. main() prints the message as one
 * line ("msglint: <message>") and exits with code 2.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Exit codes, as documented in --help. */
export const EXIT_OK = 0;
export const EXIT_LINT_ERRORS = 1;
export const EXIT_FAILURE = 2;
