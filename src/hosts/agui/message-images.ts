import type { Message } from '@ag-ui/core';
import { imageFromBase64, imageFromDataUrl, tooManyImages, type ImageInput } from '../../kernel/image-input.js';
import { HttpError } from '../http/http-io.js';

type UserContent = Extract<Message, { role: 'user' }>['content'];

/**
 * A part as AG-UI clients send one: 1.0's `{type: "image", source: {type: "data", value,
 * mimeType}}` (or a `url` source holding a data URL), and the `{type: "binary", mimeType, data}`
 * of clients from before 1.0.
 */
interface LoosePart {
  type?: unknown;
  source?: { type?: unknown; value?: unknown; mimeType?: unknown };
  mimeType?: unknown;
  data?: unknown;
  url?: unknown;
  filename?: unknown;
}

function isImagePart(part: LoosePart): boolean {
  return part.type === 'image' || (part.type === 'binary' && typeof part.mimeType === 'string' && part.mimeType.startsWith('image/'));
}

function imageOf(part: LoosePart, label: string): ReturnType<typeof imageFromBase64> {
  const name = typeof part.filename === 'string' ? part.filename : undefined;
  if (part.type === 'binary') {
    if (typeof part.data === 'string') return imageFromBase64(part.data, String(part.mimeType), label, name);
    if (typeof part.url === 'string' && part.url.startsWith('data:')) return imageFromDataUrl(part.url, label, name);
    return { ok: false, why: `${label} has no data; send the image's bytes base64-encoded in data (auggy fetches no URL)` };
  }
  const source = part.source ?? {};
  if (source.type === 'data' && typeof source.value === 'string') {
    return imageFromBase64(source.value, typeof source.mimeType === 'string' ? source.mimeType : undefined, label, name);
  }
  if (source.type === 'url' && typeof source.value === 'string' && source.value.startsWith('data:')) return imageFromDataUrl(source.value, label, name);
  return {
    ok: false,
    why: `${label} is not given as data; send it as source {"type": "data", "value": <base64>, "mimeType": "image/png"} (auggy fetches no URL)`,
  };
}

/** The images of the run's user message, checked; an image that is not one is a 400 naming its part. */
export function imagesOfUserContent(content: UserContent, index: number): ImageInput[] {
  if (typeof content === 'string') return [];
  const images: ImageInput[] = [];
  (content as LoosePart[]).forEach((part, at) => {
    if (!isImagePart(part)) return;
    const read = imageOf(part, `messages[${index}].content[${at}]`);
    if (!read.ok) throw new HttpError(400, read.why);
    images.push(read.image);
  });
  const tooMany = tooManyImages(images.length);
  if (tooMany !== undefined) throw new HttpError(400, tooMany);
  return images;
}

/** The characters of a message's image data, which the image limit bounds, not --max-message-chars. */
export function imageDataChars(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const part of content as LoosePart[]) {
    if (!isImagePart(part)) continue;
    if (typeof part.source?.value === 'string') chars += part.source.value.length;
    if (typeof part.data === 'string') chars += part.data.length;
    if (typeof part.url === 'string') chars += part.url.length;
  }
  return chars;
}
