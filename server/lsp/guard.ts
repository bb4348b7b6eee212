// Keeps the server alive: every handler runs inside `guard`, which logs an
// unexpected error to the client (window/logMessage) and answers with a
// neutral result instead of failing the request or crashing the process.
// Deliberate errors (ResponseError: "that name is taken") pass through.

import { ResponseError, type Connection } from 'vscode-languageserver/node';

export interface Log {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
}

export function createLog(connection: Connection): Log {
  const send = (fn: (m: string) => void, message: string) => {
    try {
      fn(message);
    } catch {
      // The connection is gone; nothing left to tell.
    }
  };
  return {
    error: (m) => send((x) => connection.console.error(x), m),
    warn: (m) => send((x) => connection.console.warn(x), m),
    info: (m) => send((x) => connection.console.info(x), m),
  };
}

export function describeError(e: unknown): string {
  if (e instanceof Error) return e.stack ?? `${e.name}: ${e.message}`;
  return String(e);
}

/** Wraps a handler: errors are logged and `fallback` is returned. */
export function guard<A extends unknown[], R>(log: Log, name: string, fallback: R, handler: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      log.error(`msglint: ${name} failed: ${describeError(e)}`);
      return fallback;
    }
  };
}
