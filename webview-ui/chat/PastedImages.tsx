import type { PastedImage } from '../../src/shared/protocol';

const MEDIA_TYPES: readonly PastedImage['mediaType'][] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** The image files pasted or dropped, read as base64 (the host checks the bytes and scales them to the limits). */
export async function imagesFrom(files: readonly File[]): Promise<PastedImage[]> {
  const images: PastedImage[] = [];
  for (const [index, file] of files.entries()) {
    const mediaType = MEDIA_TYPES.find((type) => type === file.type);
    if (!mediaType) continue;
    const data = await base64Of(file);
    // A pasted screenshot has a generic name ("image.png"): number it so two in one message are told apart.
    const name = file.name && file.name !== 'image.png' ? file.name : `pasted-${index + 1}.${mediaType.slice('image/'.length)}`;
    images.push({ name, mediaType, data });
  }
  return images;
}

function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read.'));
    reader.readAsDataURL(file);
  });
}

/** The images waiting to go with the message: a thumbnail each, with a button to take it out. */
export function ImageThumbnails({ images, onRemove }: { images: readonly PastedImage[]; onRemove: (index: number) => void }) {
  if (images.length === 0) return null;
  return (
    <ul class="composer-images" aria-label="Images to send with the message">
      {images.map((image, index) => (
        <li class="composer-image" key={`${index}-${image.name}`}>
          <img class="composer-thumbnail" src={`data:${image.mediaType};base64,${image.data}`} alt={image.name} title={image.name} />
          <button
            type="button"
            class="icon-button composer-image-remove"
            aria-label={`Remove ${image.name}`}
            onClick={() => onRemove(index)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
