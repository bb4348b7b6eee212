import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'cell-outside-section',
    group: 'sections',
    severity: 'error',
    fixable: null,
    description: 'A cell marker before the message section (or after a heading that ends it).',
  },
  ({ doc, report }) => {
    const section = doc.section;
    // Without the section's heading every marker is "outside": message-section-missing says why.
    if (!section?.heading) return;
    const name = section.name;
    for (const m of doc.outsideMarkers) {
      const at: [number, number] = [m.start, m.end];
      if (m.before) {
        report({
          at,
          message: `A cell before the message section \`${name}\`: cells belong under that heading, and this one is not read as a cell.`,
          related: [{ at: [section.heading.line.start, section.heading.line.contentEnd], message: 'The message section' }],
        });
      } else {
        const end = section.notLastHeading;
        report({
          at,
          message: `A cell after the end of the message section \`${name}\`${end ? ` (a heading on line {{line}} ends it)` : ''}: it is not read as a cell.`,
          related: end ? [{ at: [end.line.start, end.line.contentEnd], message: 'The heading that ends the message section' }] : undefined,
        });
      }
    }
  },
);
