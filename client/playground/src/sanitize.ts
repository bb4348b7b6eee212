// Hover and completion docs are Markdown from the server, rendered to HTML
// by @codemirror/lsp-client; they quote the file (an agent's system prompt,
// a tool's arguments), and a share link's file is anyone's. Only plain
// formatting survives: other elements become their text, attributes other
// than a link's http(s) href go.

const ALLOWED = new Set(['A', 'B', 'BLOCKQUOTE', 'BR', 'CODE', 'DEL', 'DIV', 'EM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'I', 'LI', 'OL', 'P', 'PRE', 'SPAN', 'STRONG', 'TABLE', 'TBODY', 'TD', 'TH', 'THEAD', 'TR', 'UL']);

function clean(node: Node): void {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === Node.ELEMENT_NODE) {
      const el = child as Element;
      if (!ALLOWED.has(el.tagName)) {
        const keepText = !['SCRIPT', 'STYLE', 'TEMPLATE', 'IFRAME', 'OBJECT', 'EMBED'].includes(el.tagName);
        el.replaceWith(...(keepText ? [document.createTextNode(el.textContent ?? '')] : []));
        continue;
      }
      for (const attr of [...el.attributes]) {
        const keep = (el.tagName === 'A' && attr.name === 'href' && /^https?:/i.test(attr.value)) || (attr.name === 'class' && el.tagName === 'CODE');
        if (!keep) el.removeAttribute(attr.name);
      }
      clean(el);
    } else if (child.nodeType !== Node.TEXT_NODE) {
      child.remove();
    }
  }
}

export function sanitizeHTML(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  clean(doc.body);
  return doc.body.innerHTML;
}
