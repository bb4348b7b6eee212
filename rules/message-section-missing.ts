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
    const near = headingTexts(doc.text).find((h) => h.toLowerCase().replace(/\s+/g, ' ') === section.name.toLowerCase().replace(/\s+/g, ' '));
    report({
      at,
      message:
        `No heading has the text \`${section.name}\`, so this file has no message section and its cells are not read.` +
        (near !== undefined ? ` The heading \`${near}\` differs only in case or spacing: the text must match exactly.` : ` Add a heading \`# ${section.name}\` (any level) before the cells.`),
    });
  },
);

/** ATX heading texts outside fenced code (enough for a hint; the parser did the real work). */
function headingTexts(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (h && !/^%%/.test(h[1]!)) out.push(h[1]!.trim());
  }
  return out;
}
