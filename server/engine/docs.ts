/** Where each rule's documentation lives (docs/rules/<id>.md in the repository). */
export const DOCS_BASE = 'https://github.com/msglint/msglint/blob/main/docs/rules/';

export function docsUrl(id: string): string {
  return `${DOCS_BASE}${id}.md`;
}
