import { Cell } from '../server/syntax/document.js';
import type { CellInput } from '../server/engine/cell-input.js';
import { defineSegmentRule } from '../server/engine/rule-kit.js';
import type { SegmentContext } from '../server/engine/types.js';
import { findSecrets } from './secret/detect.js';

// Bodies that are base64 by the format (section 6): a key found there is chance, not a credential.
const TEXTUAL = /^(?:text\/|application\/(?:json|xml|javascript|x-sh|yaml|x-yaml)$)|[+](?:json|xml)$/;

/** Reports the credentials in `text`, which starts at the absolute offset `base`. */
function reportIn(text: string, base: number, { options, report }: SegmentContext): void {
  // Redaction changes the record on purpose, so --fix applies it only when the config asks.
  const redact = (options as { redact?: boolean } | undefined)?.redact === true;
  for (const s of findSecrets(text)) {
    const at: [number, number] = [base + s.start, base + s.end];
    const edit = { range: at, text: `[REDACTED:${s.kind.tag}]` };
    report({
      at,
      message: `${s.kind.name} is written here in plain text: redact it, and revoke it if it is live.`,
      fix: redact ? edit : undefined,
      suggestions: [{ desc: `Replace it with [REDACTED:${s.kind.tag}]`, fix: edit }],
    });
  }
}

/** The part of a segment to search: all of it, or only the marker and metadata line of a binary output. */
function searched(input: CellInput): string {
  const seg = input.segment;
  if (!(seg instanceof Cell)) return seg.text;
  const mime = input.attr('mime_type');
  if (mime === undefined || TEXTUAL.test(mime)) return seg.text;
  const m = input.metadata;
  return seg.text.slice(0, m && m.segment === seg ? m.node.span.end : seg.parse!.lines[0]!.end);
}

export default defineSegmentRule(
  {
    id: 'secret',
    group: 'secrets',
    severity: 'error',
    fixable: 'suggestion',
    description: 'A credential (API key, private key, bearer token, password in a URL, JWT) anywhere in the file.',
    validateOptions(options) {
      if (typeof options !== 'object' || options === null || Array.isArray(options)) return 'expected an object such as { "redact": true }';
      for (const [key, value] of Object.entries(options)) {
        if (key !== 'redact') return `unknown option "${key}" (the only one is "redact")`;
        if (typeof value !== 'boolean') return '"redact" must be true or false';
      }
      return null;
    },
    optionsSchema: {
      type: 'object',
      properties: { redact: { type: 'boolean', markdownDescription: 'Let `--fix` replace each secret with `[REDACTED:KIND]`.' } },
      additionalProperties: false,
    },
    // The cross-cell part reads only the frontmatter, which segment checks never see.
  },
  (input, context) => reportIn(searched(input), input.abs({ start: 0, end: 0 })[0], context),
  (context) => {
    const fm = context.doc.frontmatterSegment;
    if (fm) reportIn(fm.text, context.doc.offsetOf(fm), context);
  },
);
