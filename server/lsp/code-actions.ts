// Code actions: a quick fix for every rule fix and suggestion under the
// cursor, "Disable <rule> for this line / for this file", and
// source.fixAll.msglint (all safe fixes). Problems are looked up in the
// current version's diagnostics, not in context.diagnostics, so fix-all
// works when a client sends none (as clients do on save).

import {
  CodeActionKind,
  type CodeAction,
  type Diagnostic as LspDiagnostic,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver/node';
import type { Diagnostic } from '../engine/types.js';
import type { MessageDocument } from '../syntax/document.js';
import { opaqueAt } from './analysis.js';
import { messageDocument, type OpenMessageDocument, type ServerContext } from './context.js';
import { intersects, toLspDiagnostic, toOffsets, toRange, toTextEdit } from './convert.js';
import { documentEdit, FIX_ALL_COMMAND, fixAllEdits } from './formatting.js';
import { guard } from './guard.js';

export const FIX_ALL_KIND = 'source.fixAll.msglint';
const FIX_ALL_TITLE = 'Fix all auto-fixable msglint problems';

const DIRECTIVE_RULES = new Set(['unknown-rule', 'unused-disable']);

export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll, FIX_ALL_KIND];

function kindWanted(only: string[] | undefined, kind: string): boolean {
  return !only || only.some((k) => kind === k || kind.startsWith(k + '.'));
}

export function registerCodeActions(ctx: ServerContext): void {
  ctx.connection.onCodeAction(
    guard(ctx.log, 'textDocument/codeAction', [] as CodeAction[], async (params) => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return [];
      const only = params.context?.only;
      const actions: CodeAction[] = [];
      const diagnostics = open.state.lint(open.ls);
      if (kindWanted(only, CodeActionKind.QuickFix)) {
        const [start, end] = toOffsets(open.state.text, params.range);
        const here = diagnostics.filter((d) => intersects(d.range.start.offset, d.range.end.offset, start, end));
        actions.push(...quickFixes(ctx, open, here, params.context?.diagnostics ?? []));
      }
      if (only && kindWanted(only, FIX_ALL_KIND)) {
        // Asked for (source.fixAll on save): the edits themselves.
        const edits = fixAllEdits(open);
        if (edits.length) actions.push({ title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, edit: documentEdit(ctx, open, edits) });
      } else if (!only && diagnostics.some((d) => d.fix)) {
        // In the light bulb (asked for on every cursor move): a command, computed only when chosen.
        actions.push({ title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, command: { title: FIX_ALL_TITLE, command: FIX_ALL_COMMAND, arguments: [open.state.uri] } });
      }
      return actions;
    }),
  );
}

function quickFixes(ctx: ServerContext, open: OpenMessageDocument, here: Diagnostic[], sent: LspDiagnostic[]): CodeAction[] {
  const { state, doc } = open;
  const text = state.text;
  const fixes: CodeAction[] = [];
  const disables: CodeAction[] = [];
  const seen = new Set<string>();
  const edit = (edits: LspTextEdit[]) => documentEdit(ctx, open, edits);
  for (const d of here) {
    const ours = toLspDiagnostic(text, state.uri, d);
    // Refer to the client's own diagnostic object when it sent it.
    const theirs = sent.find((s) => s.code === ours.code && sameRange(s, ours)) ?? ours;
    if (d.fix) {
      fixes.push({ title: `Fix this ${d.ruleId} problem`, kind: CodeActionKind.QuickFix, diagnostics: [theirs], isPreferred: true, edit: edit([toTextEdit(text, d.fix)]) });
    }
    for (const s of d.suggestions ?? []) {
      fixes.push({ title: s.desc, kind: CodeActionKind.QuickFix, diagnostics: [theirs], edit: edit([toTextEdit(text, s.fix)]) });
    }
    // Problems about directives themselves are reported after directives apply: a comment cannot silence them.
    if (DIRECTIVE_RULES.has(d.ruleId)) continue;
    const line = disableForLine(doc, d);
    const lineKey = `line:${d.ruleId}:${line?.key}`;
    if (line && !seen.has(lineKey)) {
      seen.add(lineKey);
      disables.push({
        title: `Disable ${d.ruleId} for this ${line.block ? 'block' : 'line'}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [theirs],
        edit: edit(line.inserts.map(([at, t]) => ({ range: toRange(text, at, at), newText: t }))),
      });
    }
    const fileKey = `file:${d.ruleId}`;
    if (!seen.has(fileKey)) {
      seen.add(fileKey);
      const [at, t] = disableForFile(doc, d.ruleId);
      disables.push({ title: `Disable ${d.ruleId} for this file`, kind: CodeActionKind.QuickFix, diagnostics: [theirs], edit: edit([{ range: toRange(text, at, at), newText: t }]) });
    }
  }
  return [...fixes, ...disables];
}

function sameRange(a: LspDiagnostic, b: LspDiagnostic): boolean {
  const x = a.range;
  const y = b.range;
  return x.start.line === y.start.line && x.start.character === y.start.character && x.end.line === y.end.line && x.end.character === y.end.character;
}

function eolAt(text: string, lineEnd: number): string {
  return text[lineEnd] === '\r' ? '\r\n' : '\n';
}

/** Where a comment may go: the start of the line after `offset`'s line (with a line break first at the end of the file). */
function afterLine(doc: MessageDocument, offset: number, comment: string): [number, string] {
  const line = doc.lines.lineOf(offset);
  const end = doc.lines.lineContentEnd(line);
  const eol = eolAt(doc.text, end);
  if (line + 1 < doc.lines.lineCount) return [doc.lines.starts[line + 1]!, comment + eol];
  return [doc.text.length, eol + comment];
}

/**
 * The insertions that disable a rule on a diagnostic's line: a
 * `disable-next-line` comment above it, or, inside a fenced block, a tool
 * element or a comment (where a comment would be content), a
 * `disable`/`enable` pair around that block. None in the frontmatter.
 */
function disableForLine(doc: MessageDocument, d: Diagnostic): { key: string; block: boolean; inserts: [number, string][] } | undefined {
  const offset = d.range.start.offset;
  const seg = doc.segmentAt(offset);
  const p = seg?.parse;
  if (!seg || !p) return undefined;
  const block = opaqueAt(doc, seg, offset);
  const lines = doc.lines;
  if (block && lines.lineOf(block[0]) !== lines.lineOf(block[1])) {
    const start = block[0];
    const first = lines.starts[lines.lineOf(start)]!;
    const eol = eolAt(doc.text, lines.lineContentEnd(lines.lineOf(start)));
    return {
      key: `${first}`,
      block: true,
      inserts: [[first, `<!-- msglint-disable ${d.ruleId} -->${eol}`], afterLine(doc, block[1], `<!-- msglint-enable ${d.ruleId} -->`)],
    };
  }
  const line = lines.lineOf(offset);
  const start = lines.starts[line]!;
  return { key: `${start}`, block: false, inserts: [[start, `<!-- msglint-disable-next-line ${d.ruleId} -->${eolAt(doc.text, lines.lineContentEnd(line))}`]] };
}

/** A `disable-file` comment right after the frontmatter (or at the top). */
function disableForFile(doc: MessageDocument, ruleId: string): [number, string] {
  const comment = `<!-- msglint-disable-file ${ruleId} -->`;
  const fm = doc.frontmatter;
  const at = fm ? fm.end : doc.text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const eol = eolAt(doc.text, doc.lines.lineContentEnd(0));
  // A frontmatter that ends the file without a line break needs one first.
  if (fm && at === doc.text.length && !doc.text.endsWith('\n')) return [at, eol + comment + eol];
  return [at, comment + eol];
}
