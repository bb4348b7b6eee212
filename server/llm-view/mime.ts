// Which `mime_type`s of a code output are text (spec sections 5 and 6).
// A textual output is written as `stdout> ` / `stderr> ` lines; any other
// output's body is base64.
//
// Textual: every `text/*` type; every structured-syntax suffix that is text
// (`+json`, `+xml`, `+yaml`, so `image/svg+xml` and Jupyter's
// `application/vnd.*+json` are text); and the `application/*` types below,
// which are text by nature (JSON, XML, scripts, data formats). Everything else
// (`image/png`, `application/pdf`, `application/octet-stream`, `audio/*`, ...)
// is binary. Parameters (`; charset=utf-8`) and case are ignored.

const TEXTUAL_APPLICATION: ReadonlySet<string> = new Set([
  'json',
  'ld+json',
  'x-ndjson',
  'ndjson',
  'jsonl',
  'x-jsonlines',
  'xml',
  'javascript',
  'x-javascript',
  'ecmascript',
  'typescript',
  'x-typescript',
  'x-sh',
  'x-shellscript',
  'x-python',
  'x-python-code',
  'yaml',
  'x-yaml',
  'toml',
  'x-toml',
  'sql',
  'graphql',
  'csv',
  'x-latex',
  'x-tex',
  'markdown',
  'x-markdown',
  'x-www-form-urlencoded',
  'x-ipynb+json',
]);

/** The `type/subtype` part of a MIME type, in lower case. */
export function essence(mime: string): string {
  return mime.split(';')[0]!.trim().toLowerCase();
}

/** True when an output of this MIME type is text (written as stdout>/stderr> lines). */
export function isTextualMimeType(mime: string): boolean {
  const [type, subtype = ''] = essence(mime).split('/') as [string, string?];
  if (type === 'text') return true;
  if (/\+(json|xml|yaml)$/.test(subtype)) return true;
  return type === 'application' && TEXTUAL_APPLICATION.has(subtype);
}

/** A syntactically valid `type/subtype` (as the `attribute-value` rule requires). */
export const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:\s*;.*)?$/;
