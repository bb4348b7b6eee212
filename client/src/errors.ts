/** An error's message for the user, whatever was thrown (the language client rejects with ResponseErrors, plain objects and strings). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}
