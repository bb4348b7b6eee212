// Writing message files from code (spec sections 3-8): start a file with its
// agents, then append messages, replies, tool calls and results, code cells
// and outputs. Whatever is appended, the file lints clean and its LLM view
// gives back what was written, or `changes` says what it could not hold.

export { MessageWriter, attribute, writableValue } from './writer.js';
export type { WriterOptions, WriteChange, MessageOptions, ReplyOptions, ToolCallOptions, ToolResultOptions, CodeOptions, CodeOutputOptions } from './writer.js';
export { startFile, agentName } from './frontmatter.js';
export type { AgentSpec, StartOptions } from './frontmatter.js';
export { prepareBody, prepareThinking } from './body.js';
export type { PreparedBody } from './body.js';
