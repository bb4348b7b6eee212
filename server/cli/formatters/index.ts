import type { FormatName } from '../args.js';
import type { Formatter } from './types.js';

export type { FileReport, FormatContext, Formatter, LintMessage } from './types.js';

/**
 * Formatters are imported on demand: a run uses one, and the CLI's start-up
 * time matters for editor and pre-commit integrations.
 */
export async function loadFormatter(name: FormatName): Promise<Formatter> {
  switch (name) {
    case 'stylish':
      return (await import('./stylish.js')).format;
    case 'json':
      return (await import('./json.js')).format;
    case 'sarif':
      return (await import('./sarif.js')).format;
    case 'github':
      return (await import('./github.js')).format;
    case 'junit':
      return (await import('./junit.js')).format;
    case 'gitlab':
      return (await import('./gitlab.js')).format;
    case 'rdjson':
      return (await import('./rdjson.js')).format;
  }
}
