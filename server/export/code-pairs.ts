// With --code-as-tool a code cell is a call and its outputs the results:
// history settings that split such a pair make a view the providers reject,
// as history-split-pair reports for tool calls (spec section 9, point 4).

import { inView } from '../llm-view/view.js';
import type { MessageDocument } from '../syntax/document.js';
import type { ViewProblem } from './model.js';

export /** With codeAsTool: code cells and outputs that history settings split (as history-split-pair does for tool calls). */
function codePairProblems(doc: MessageDocument, lastIndex: number): ViewProblem[] {
  const problems: ViewProblem[] = [];
  for (const cell of doc.cells) {
    const index = doc.indexOf(cell);
    if (index > lastIndex) break;
    if (doc.kindOf(cell) !== 'code-output' || !cell.id) continue;
    const segs = cell.id.split('.');
    if (segs.length !== 2) continue;
    const code = doc.cellsById.get(segs[0]!)?.find((c) => doc.indexOf(c) < index && !c.isOutput && doc.typeOf(c) === 'code');
    if (!code) continue;
    const codeIn = inView(doc, code);
    const outputIn = inView(doc, cell);
    if (codeIn === outputIn) continue;
    const target = outputIn ? code : cell;
    const attr = doc.metadataOf(target);
    const a = attr?.node.attributes.find((x) => x.key === 'history');
    const [start, end] = a && attr ? doc.abs(attr.segment, a.span) : doc.abs(target, target.marker.idRef!.span);
    problems.push({
      cell: target.id!,
      offset: start,
      end,
      message: `With code as tool calls, the code cell \`${code.id}\` is ${codeIn ? 'in' : 'left out of'} the LLM view but its output \`${cell.id}\` is ${outputIn ? 'in it' : 'left out'}: a call and its results are included or left out together.`,
    });
  }
  return problems;
}
