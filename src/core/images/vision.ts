import type { ImageBlock, ModelClient } from '../model/types';

/**
 * Whether a model takes images (issue 33: "a model without vision gets a clear refusal, not a 400"). The
 * Models API's `capabilities.image_input` when the server gives it; else what Anthropic documents by id: every
 * Claude from the 3 family on takes images, Claude 2 and Instant do not. Any other id (a model on Ollama,
 * vLLM, a gateway's alias) is not known to Cairn: its images are sent and the server answers for itself, since
 * refusing would shut out the local vision models that work.
 */
export function documentedImageInput(modelId: string): boolean | undefined {
  const alias = modelId.replace(/^(?:[a-z]{2}\.)?anthropic\./, '');
  if (/^claude-(2|instant)/.test(alias)) return false;
  if (/^claude-/.test(alias)) return true;
  return undefined;
}

export async function modelTakesImages(model: Pick<ModelClient, 'modelFacts'>, modelId: string): Promise<boolean> {
  try {
    const said = (await model.modelFacts(modelId)).capabilities?.imageInput;
    if (said !== undefined) return said;
  } catch {
    // Offline: what is documented stands.
  }
  return documentedImageInput(modelId) ?? true;
}

/** The image when the model takes images; undefined when it takes none (or there is no image). */
export async function imageIfTaken(
  model: Pick<ModelClient, 'modelFacts'>,
  modelId: string,
  image: ImageBlock | undefined,
): Promise<ImageBlock | undefined> {
  if (!image) return undefined;
  return (await modelTakesImages(model, modelId)) ? image : undefined;
}

/** What the user is told when they attach an image for a model that takes none. */
export function noVisionMessage(modelId: string): string {
  return `${modelId} does not take images, so the message was not sent. Choose a model that does (any Claude from the 3 family on), or remove the images and send it again.`;
}

/** What the model is told in place of an image its model cannot take (a `read` of an image file). */
export function imageNotSentNote(modelId: string): string {
  return `The image was not sent: ${modelId} does not take images.`;
}
