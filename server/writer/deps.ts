// What the writer takes from the layers below it, in one place: the body
// escapes of spec section 6 (helper h2's `escapeBody`) and the `<tool>`
// element writer with typed values of section 8 (helper h1's
// `toolElementXml`).

export { escapeBody } from '../syntax/document.js';
export { toolElementXml } from '../tool-calls/rewrite.js';
export type { ToolElementCall } from '../tool-calls/rewrite.js';
