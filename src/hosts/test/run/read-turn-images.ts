import { imageFromBase64, imageFromDataUrl, readImageFile, tooManyImages, type ImageInput } from '../../../kernel/image-input.js';
import type { ScenarioImage } from '../scenario/turn-media.js';

export type TurnImages = { ok: true; images: ImageInput[] } | { ok: false; why: string };

/** Reads a turn's image parts as --attach reads its files; the first that is not an image says why in a sentence. */
export async function readTurnImages(parts: readonly ScenarioImage[]): Promise<TurnImages> {
  const tooMany = tooManyImages(parts.length);
  if (tooMany !== undefined) return { ok: false, why: tooMany };
  const images: ImageInput[] = [];
  for (const part of parts) {
    const read =
      'path' in part
        ? await readImageFile(part.path)
        : part.base64.startsWith('data:')
          ? imageFromDataUrl(part.base64, part.label)
          : imageFromBase64(part.base64, part.mimeType, part.label);
    if (!read.ok) return { ok: false, why: `${part.label}: ${read.why}` };
    images.push(read.image);
  }
  return { ok: true, images };
}
