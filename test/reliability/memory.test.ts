// Memory across versions of a document, as an editor produces them: parsing
// each version with the previous one (parse(text, { previous })) must not
// keep earlier versions alive. Measured as heap in use after a full garbage
// collection, which is exact enough to tell one retained 2 MB text per
// version from none.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { lintDocument, parseForLint } from '../../server/linter.js';
import type { MessageDocument } from '../../server/syntax/document.js';
import { bigConversation } from './gen.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('memory across versions', () => {
  // A cell's text would be a slice of the whole document, which V8 keeps
  // alive with it; cell parses outlive their version, so each version would
  // stay in memory (40 versions of a 512 KB file: about 23 MB). After the
  // first version, cells parse a copy of their own text instead (the first
  // version's cells slice its text: one text, kept once).
  it('parsing and linting 40 edited versions does not keep the earlier texts', () => {
    let text = bigConversation(1 << 19) + 'é\n';
    let doc: MessageDocument = parseForLint(text, { fileName: 'mem.msg.md' });
    lintDocument(doc);
    const before = heapAfterGc();
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let version = 0; version < 40; version++) {
      // Twenty small edits scattered over the file, then a parse with the previous version.
      for (let i = 0; i < 20; i++) {
        const at = Math.floor(random() * text.length);
        text = text.slice(0, at) + 'x' + text.slice(at + 1);
      }
      doc = parseForLint(text, { fileName: 'mem.msg.md', previous: doc });
      lintDocument(doc);
    }
    const grown = heapAfterGc() - before;
    // One retained version is 1 MB; 40 of them would be 40 MB.
    expect(grown, `heap in use grew by ${(grown / 1e6).toFixed(1)} MB over 40 versions`).toBeLessThan(10e6);
  });
});
