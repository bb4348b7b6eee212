// Every message file the repository has, for the tests that export them all
// to every target: the examples, the message files under test/fixtures (the
// export's own bug files among them), the valid files the LLM view tests
// share (spec section 10's examples, generated files), and the Wrong and
// Right examples of the rules' pages. Files with errors are exported as
// --force does: the view of any file must still be one the APIs take.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMessageFile } from '../../server/syntax/format/detect.js';
import { allExamples } from '../docs/examples.js';
import { VALID_FILES } from '../llm-view/examples.js';
import { ROOT } from './helpers.js';

export interface CorpusFile {
  /** Where it comes from (a path, or a description). */
  name: string;
  fileName: string;
  text: string;
}

function messageFilesUnder(dir: string): CorpusFile[] {
  const out: CorpusFile[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...messageFilesUnder(rel));
    else if (entry.name.endsWith('.md')) {
      const text = readFileSync(path.join(ROOT, rel), 'utf8');
      if (isMessageFile(entry.name, text)) out.push({ name: rel, fileName: entry.name, text });
    }
  }
  return out;
}

export function corpus(): CorpusFile[] {
  return [
    ...messageFilesUnder('examples'),
    ...messageFilesUnder('test/fixtures'),
    ...VALID_FILES.map(([name, text, fileName]) => ({ name, fileName, text })),
    ...allExamples().map(([id, heading, e]) => ({ name: `docs/rules/${id}.md ${heading}`, fileName: e.fileName, text: e.text })),
  ];
}
