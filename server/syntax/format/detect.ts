import { messageSectionName, parseFrontmatter } from './frontmatter.js';

/**
 * Whether a file is a message file (spec section 1): `*.msg.md`, or a `*.md`
 * whose frontmatter declares `message_section`.
 */
export function isMessageFile(fileName: string, text: string): boolean {
  const f = fileName.toLowerCase();
  if (f.endsWith('.msg.md')) return true;
  if (!f.endsWith('.md')) return false;
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith('---', start)) return false;
  return messageSectionName(parseFrontmatter(text, start), text) !== null;
}
