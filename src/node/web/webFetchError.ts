/** A `web_fetch` refusal or failure whose message says what happened and what the user can do. */
export class WebFetchError extends Error {
  override readonly name = 'WebFetchError';
}
