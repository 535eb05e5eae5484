import { imageFromBase64, imageFromDataUrl, readImageFile, readImages, type ImageInput } from '../../../kernel/image-input.js';
import type { ScenarioImage } from '../scenario/turn-media.js';

export type TurnImages = { ok: true; images: ImageInput[] } | { ok: false; why: string };

/** Reads a turn's image parts as --attach reads its files; the first that is not an image says why in a sentence. */
export function readTurnImages(parts: readonly ScenarioImage[]): Promise<TurnImages> {
  return readImages(
    parts,
    (part) =>
      'path' in part
        ? readImageFile(part.path)
        : part.base64.startsWith('data:')
          ? imageFromDataUrl(part.base64, part.label)
          : imageFromBase64(part.base64, part.mimeType, part.label),
    (part, why) => `${part.label}: ${why}`,
  );
}
