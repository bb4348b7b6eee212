// Helpers for driving the real language server (dist/server/lsp/main.js over
// stdio, through test/lsp/client.ts) in the reliability tests: a client-side
// mirror of each document, random incremental edits, and the diagnostics
// the server must report for a text, computed with the library's lint().

import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic as LspDiagnostic, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { lint } from '../../server/linter.js';
import { corpusLines, fragments } from './gen.js';

const workspaces: string[] = [];

/** A directory with no config file above it that the tests could pick up by accident (removed by removeWorkspaces). */
export function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'msglint-reliability-lsp-')));
  workspaces.push(dir);
  return dir;
}

export function removeWorkspaces(): void {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function uriIn(dir: string, name: string): string {
  return pathToFileURL(path.join(dir, name)).href;
}

/** What the server must answer to a pull for `text` (default settings, no config file). */
export function expectedDiagnostics(uri: string, fileName: string, text: string): Partial<LspDiagnostic>[] {
  const doc = TextDocument.create(uri, 'markdown', 0, text);
  const range = (start: number, end: number) => ({ start: doc.positionAt(start), end: doc.positionAt(end) });
  return lint(text, { fileName }).diagnostics.map((d) => ({
    range: range(d.range.start.offset, d.range.end.offset),
    severity: d.severity === 2 ? 1 : 2,
    code: d.ruleId,
    message: d.message,
    ...(d.related?.length ? { relatedInformation: d.related.map((r) => ({ location: { uri, range: range(r.range.start.offset, r.range.end.offset) }, message: r.message })) } : {}),
    ...(d.tags?.length ? { tags: d.tags } : {}),
  }));
}

/** The parts of a pulled diagnostic that expectedDiagnostics predicts. */
export function comparable(items: LspDiagnostic[]): Partial<LspDiagnostic>[] {
  return items.map((d) => ({
    range: d.range,
    severity: d.severity,
    code: d.code,
    message: d.message,
    ...(d.relatedInformation?.length ? { relatedInformation: d.relatedInformation } : {}),
    ...(d.tags?.length ? { tags: d.tags } : {}),
  }));
}

/**
 * An editing step, as fractions of the current text so it fits any text:
 * an insertion or replacement, a deletion, a paste of a whole cell (at a
 * line start), or typing a construct one character per change.
 */
export type Step =
  | { kind: 'replace'; at: number; del: number; text: string }
  | { kind: 'paste-cell'; at: number; from: number }
  | { kind: 'type'; at: number; text: string };

export const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), del: fc.integer({ min: 0, max: 60 }), text: fc.oneof(fc.constantFrom(...fragments), fc.constantFrom(...corpusLines), fc.constant('')) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('paste-cell' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), from: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('type' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.constantFrom('```', '```python\n', '~~~\n', '<![CDATA[', ']]>', '<tool>\n', '</tool>', '<!--', '-->', '# %% [^9]\n', '[^9]: [markdown]', '---\n') }) },
);

/** A client-side copy of a document that turns steps into LSP content changes (one didChange each). */
export class Mirror {
  doc: TextDocument;
  constructor(uri: string, text: string) {
    this.doc = TextDocument.create(uri, 'markdown', 1, text);
  }
  get text(): string {
    return this.doc.getText();
  }
  /**
   * The didChange batches of one step (typing sends one per character).
   * Lazy: apply each batch before taking the next, whose positions are
   * computed on the text as it is then.
   */
  *batches(s: Step): Generator<TextDocumentContentChangeEvent[]> {
    if (s.kind === 'type') {
      const at = Math.floor(s.at * this.text.length);
      let i = 0;
      for (const ch of s.text) {
        const pos = this.doc.positionAt(at + i);
        yield [{ range: { start: pos, end: pos }, text: ch }];
        i += ch.length;
      }
      return;
    }
    yield* this.changesFor(s);
  }

  private changesFor(s: Step): TextDocumentContentChangeEvent[][] {
    const text = this.text;
    const offset = (f: number) => Math.floor(f * text.length);
    const lineStart = (o: number) => text.lastIndexOf('\n', o - 1) + 1;
    const change = (start: number, end: number, insert: string): TextDocumentContentChangeEvent => ({
      range: { start: this.doc.positionAt(start), end: this.doc.positionAt(end) },
      text: insert,
    });
    switch (s.kind) {
      case 'replace': {
        const at = offset(s.at);
        return [[change(at, Math.min(text.length, at + s.del), s.text)]];
      }
      case 'paste-cell': {
        // The cell (marker line to the next marker line) around `from`.
        const markers = [...text.matchAll(/^#{1,6} ?%{2,3}.*$/gm)].map((m) => m.index!);
        const from = offset(s.from);
        const start = markers.filter((m) => m <= from).pop() ?? markers[0];
        if (start === undefined) return [[change(lineStart(offset(s.at)), lineStart(offset(s.at)), '# %% Pasted[^99]\n\n[^99]: [markdown]\n\nText.\n\n')]];
        const end = markers.find((m) => m > start) ?? text.length;
        const at = lineStart(offset(s.at));
        return [[change(at, at, text.slice(start, end))]];
      }
      case 'type':
        throw new Error('typing is handled by batches()');
    }
  }
  apply(changes: TextDocumentContentChangeEvent[]): void {
    this.doc = TextDocument.update(this.doc, changes, this.doc.version + 1);
  }
}

/** Resident memory of a process in kB (Linux: /proc/PID/status), or undefined elsewhere. */
export function rssKb(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
