import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'message-section-missing',
    group: 'sections',
    severity: 'error',
    fixable: null,
    description: '`message_section` is declared but no heading has that text.',
  },
  ({ doc, report }) => {
    const section = doc.section;
    const entry = doc.frontmatter?.messageSection;
    if (!section || section.heading || !entry) return;
    const at: [number, number] = entry.valueSpan.end > entry.valueSpan.start ? [entry.valueSpan.start, entry.valueSpan.end] : [entry.keySpan.start, entry.keySpan.end];
    // A heading that differs only in case or spacing is most likely the one meant.
    const wanted = section.name.toLowerCase().replace(/\s+/g, ' ');
    const near = section.headings.find((h) => h.text.toLowerCase().replace(/\s+/g, ' ') === wanted)?.text;
    report({
      at,
      message:
        `No heading has the text \`${section.name}\`, so this file has no message section and its cells are not read.` +
        (near !== undefined ? ` The heading \`${near}\` differs only in case or spacing: the text must match exactly.` : ` Add a heading \`# ${section.name}\` (any level) before the cells.`),
    });
  },
);
