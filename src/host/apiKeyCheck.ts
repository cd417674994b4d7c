/**
 * What the chat says about the API key: the message kept unsent when there is none, and the check after a
 * key is saved. "Cairn is ready" is said only after the server accepted the key (a models call), so a
 * mistyped key or a wrong `cairn.baseUrl` shows up at once, not at the first message.
 */
import { errorMessage } from '../core/errorMessage';
import type { ListedModel } from '../core/model/types';

/** Where a server is named in messages: the one in `cairn.baseUrl`, else Anthropic's. */
export function serverLabel(server: string | undefined): string {
  return server ? `the server at ${server}` : 'the Anthropic API';
}

export function unsentNoKeyMessage(server: string | undefined, images = 0): string {
  const kept = images === 0 ? 'Your message is' : `Your message and its ${images === 1 ? 'image are' : `${images} images are`}`;
  return `Not sent: no API key is set, so Cairn cannot talk to ${serverLabel(server)}. ${kept} kept here; set a key and send it again.`;
}

export type KeyCheck = { readonly ok: true; readonly message: string } | { readonly ok: false; readonly message: string };

/** Lists the server's models with the saved key: it is accepted, or the reason it is not. */
export async function checkApiKey(listModels: () => Promise<ListedModel[]>, server: string | undefined): Promise<KeyCheck> {
  try {
    const models = await listModels();
    const count = models.length === 1 ? '1 model' : `${models.length} models`;
    return { ok: true, message: `API key saved and checked: ${serverLabel(server)} answered with ${count}. Cairn is ready.` };
  } catch (error) {
    return { ok: false, message: `The API key was saved, but checking it with ${serverLabel(server)} failed: ${errorMessage(error)}` };
  }
}
