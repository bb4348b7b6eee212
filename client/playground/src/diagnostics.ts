// The server's diagnostics in the page: in the editor (underline, gutter,
// message with the rule id linking to its docs, quick fixes as the
// diagnostic's actions) and in the Problems list, whose entries carry
// `data-rule` (the rule id) and `data-line` (1-based).

import { setDiagnostics, type Action, type Diagnostic } from '@codemirror/lint';
import { LSPPlugin, type LSPClient } from '@codemirror/lsp-client';
import { EditorSelection } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type * as lsp from 'vscode-languageserver-protocol';
import { applyWorkspaceEdit } from './edits.js';

/** Where a rule's documentation is: docs/rules/ copied next to the page. */
export const ruleDocs = (rule: string): string => `docs/rules/${encodeURIComponent(rule)}.md`;

const SEVERITY = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' } as const;

/** A diagnostic's message as text (LSP 3.18 allows Markdown). */
export const messageText = (d: lsp.Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);

export interface Problem {
  diagnostic: lsp.Diagnostic;
  rule: string;
  actions: lsp.CodeAction[];
}

function sameDiagnostic(a: lsp.Diagnostic, b: lsp.Diagnostic): boolean {
  return (
    a.code === b.code &&
    a.message === b.message &&
    a.range.start.line === b.range.start.line &&
    a.range.start.character === b.range.start.character &&
    a.range.end.line === b.range.end.line &&
    a.range.end.character === b.range.end.character
  );
}

/** The quick fixes of all of a version's diagnostics, in one request. */
async function quickFixes(client: LSPClient, plugin: LSPPlugin, diagnostics: lsp.Diagnostic[]): Promise<lsp.CodeAction[]> {
  if (diagnostics.length === 0) return [];
  const doc = plugin.syncedDoc;
  const result = await client.request<lsp.CodeActionParams, (lsp.CodeAction | lsp.Command)[] | null>('textDocument/codeAction', {
    textDocument: { uri: plugin.uri },
    range: { start: { line: 0, character: 0 }, end: plugin.toPosition(doc.length, doc) },
    context: { diagnostics, only: ['quickfix'] },
  });
  return (result ?? []).filter((a): a is lsp.CodeAction => 'edit' in a && !!a.edit);
}

function messageElement(problem: Problem): HTMLElement {
  const span = document.createElement('span');
  span.className = 'diagnostic-message';
  span.append(messageText(problem.diagnostic), ' ');
  const link = document.createElement('a');
  link.href = ruleDocs(problem.rule);
  link.target = '_blank';
  link.rel = 'noopener';
  link.textContent = problem.rule;
  link.className = 'rule-link';
  span.append(link);
  return span;
}

export interface DiagnosticsView {
  /** The handler of textDocument/publishDiagnostics (for LSPClient's notificationHandlers). */
  handler(client: LSPClient, params: lsp.PublishDiagnosticsParams): boolean;
}

/**
 * `list`: the Problems list element; `onPublished` runs after each version's
 * diagnostics are shown (the export and agents panels refresh then).
 */
export function diagnosticsView(list: HTMLElement, counter: HTMLElement, onPublished: () => void): DiagnosticsView {
  let latest = 0;

  function show(view: EditorView, plugin: LSPPlugin, version: number | undefined, problems: Problem[]): void {
    const at = (p: lsp.Position) => plugin.unsyncedChanges.mapPos(plugin.fromPosition(p, plugin.syncedDoc));
    const diagnostics: Diagnostic[] = problems.map((problem) => {
      const d = problem.diagnostic;
      const actions: Action[] = problem.actions.map((action) => ({
        name: action.title,
        apply: (v) => {
          if (action.edit) applyWorkspaceEdit(v, action.edit);
        },
      }));
      return {
        from: at(d.range.start),
        to: at(d.range.end),
        severity: SEVERITY[d.severity ?? 1],
        source: problem.rule,
        message: `${messageText(d)} (${problem.rule})`,
        renderMessage: () => messageElement(problem),
        actions,
      };
    });
    view.dispatch(setDiagnostics(view.state, diagnostics));
    renderList(view, problems);
    list.dataset.version = String(version ?? '');
    counter.textContent = String(problems.length);
    counter.classList.toggle('some', problems.length > 0);
    onPublished();
  }

  function renderList(view: EditorView, problems: Problem[]): void {
    const items = problems.map((problem) => {
      const d = problem.diagnostic;
      const li = document.createElement('li');
      li.dataset.rule = problem.rule;
      li.dataset.line = String(d.range.start.line + 1);
      li.className = `problem ${SEVERITY[d.severity ?? 1]}`;
      const where = document.createElement('span');
      where.className = 'where';
      where.textContent = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
      li.append(where, messageElement(problem));
      const fix = problem.actions.find((a) => a.isPreferred);
      if (fix?.edit) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'fix';
        button.dataset.fix = '';
        button.textContent = 'Fix';
        button.title = fix.title;
        button.addEventListener('click', (event) => {
          event.stopPropagation();
          applyWorkspaceEdit(view, fix.edit!);
          view.focus();
        });
        li.append(button);
      }
      li.addEventListener('click', (event) => {
        if ((event.target as HTMLElement).closest('a, button')) return;
        const plugin = LSPPlugin.get(view);
        if (!plugin) return;
        const pos = plugin.unsyncedChanges.mapPos(plugin.fromPosition(d.range.start, plugin.syncedDoc));
        view.dispatch({ selection: EditorSelection.cursor(pos), scrollIntoView: true });
        view.focus();
      });
      return li;
    });
    list.replaceChildren(...items);
  }

  return {
    handler(client, params) {
      const file = client.workspace.getFile(params.uri);
      if (!file || (params.version != null && params.version !== file.version)) return false;
      const view = file.getView();
      const plugin = view && LSPPlugin.get(view);
      if (!view || !plugin) return false;
      const seq = ++latest;
      const fixes = quickFixes(client, plugin, params.diagnostics).catch((e: unknown) => {
        console.warn('msglint playground: textDocument/codeAction failed', e);
        return [] as lsp.CodeAction[];
      });
      void fixes.then((actions) => {
        // A newer publication, or an edit the server has not seen, makes these stale.
        if (seq !== latest || LSPPlugin.get(view) !== plugin || file.version !== (params.version ?? file.version)) return;
        const problems = params.diagnostics.map((diagnostic) => ({
          diagnostic,
          rule: String(diagnostic.code ?? diagnostic.source ?? 'msglint'),
          actions: actions.filter((a) => a.diagnostics?.some((d) => sameDiagnostic(d, diagnostic))),
        }));
        show(view, plugin, params.version, problems);
      });
      return true;
    },
  };
}
