/** A request cannot be composed as configured; the message says what to change. */
export class ComposeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ComposeError';
  }
}
