// What the writer takes from the layers below it, in one place: the body
// escapes of spec section 6 (helper h2's `escapeBody`) and the `<tool>`
// element writer with typed values of section 8 (helper h1's
// `toolElementXml`). Until h2's branch is merged, escapeBody here is a
// stand-in with the same signature.


const MARKER_LIKE = /^[ ]{0,3}#+[ \t]*%%/;
const METADATA_LIKE = /^[ ]{0,3}\[\^[^\]\n]*\]:/;

/** Stand-in for h2's escapeBody: a backslash before lines read as markers or metadata (and a leading `[` paragraph). */
export function escapeBody(text: string, options: { replyStart?: boolean } = {}): string {
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      const bare = line.replace(/^\\+/, '');
      if (MARKER_LIKE.test(bare) || METADATA_LIKE.test(bare)) return `\\${line}`;
      if (i === 0 && options.replyStart && /^[ ]{0,3}\\*\[/.test(line)) return `\\${line}`;
      return line;
    })
    .join('\n');
}

export { toolElementXml } from '../tool-calls/rewrite.js';
export type { ToolElementCall } from '../tool-calls/rewrite.js';
