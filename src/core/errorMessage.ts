/** The text of anything thrown: an `Error`'s message, anything else as `String()` writes it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
