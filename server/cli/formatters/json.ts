import type { Formatter } from './types.js';

/** ESLint's JSON format: the reports as they are. */
export const format: Formatter = (reports) => `${JSON.stringify(reports)}\n`;
