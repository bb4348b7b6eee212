import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'message-section-not-last',
    group: 'sections',
    severity: 'error',
    fixable: null,
    description: 'A heading of the same or a higher level after the message section.',
  },
  ({ doc, report }) => {
    const section = doc.section;
    const after = section?.notLastHeading;
    if (!section?.heading || !after) return;
    const h = section.heading;
    const hashes = '#'.repeat(h.level);
    report({
      at: [after.line.start, after.line.contentEnd],
      message: `The message section \`${section.name}\` must be the last section, but this level-${after.level} heading ends it; move \`${hashes} ${section.name}\` and its cells to the end of the file.`,
      related: [{ at: [h.line.start, h.line.contentEnd], message: 'The message section' }],
    });
  },
);
