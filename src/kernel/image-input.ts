import { open } from 'node:fs/promises';
import { basename } from 'node:path';

// Every host takes images in its own protocol's shape (a path, a data URL, base64 beside a media
// type); this is the one place that turns each into an image the kernel sends, and the one place
// that says, in a sentence, why something is not one.

/** The image types every provider auggy speaks to takes (OpenAI, Anthropic, llama.cpp, vLLM, Ollama). */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** The largest image a message may carry: what the strictest of those providers takes, with room for its encoding. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** How many images one message may carry. */
export const MAX_IMAGES_PER_MESSAGE = 8;

/** An image a person sent, checked: its bytes are of `mediaType` and within the limit. */
export interface ImageInput {
  mediaType: ImageMediaType;
  data: Uint8Array;
  /** What the person called it (a file name), for the lines that mention it. */
  name?: string;
}

export type ImageRead = { ok: true; image: ImageInput } | { ok: false; why: string };

const TYPE_NAMES = 'a PNG, JPEG, GIF or WebP image';

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return bytes.length >= at + prefix.length && prefix.every((byte, index) => bytes[at + index] === byte);
}

/** The image type the bytes are, read from their first bytes (what a declared type or a file name may get wrong). */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/** A size for people: 512 bytes, 12 KB, 3.4 MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** How a line names an image: "a.png (image/png, 12 KB)". */
export function imageLabel(image: { mediaType: string; size: number; name?: string }): string {
  return `${image.name ?? 'image'} (${image.mediaType}, ${sizeText(image.size)})`;
}

function tooLarge(label: string, bytes: number): string {
  return `${label} is ${sizeText(bytes)}, over the ${sizeText(MAX_IMAGE_BYTES)} an image may be; send a smaller one`;
}

/** `label` names the image in the sentence that refuses it: a file name, or "the image in part 2". */
export function imageFromBytes(data: Uint8Array, label: string, name?: string): ImageRead {
  if (data.length === 0) return { ok: false, why: `${label} is empty; it holds no image` };
  if (data.length > MAX_IMAGE_BYTES) return { ok: false, why: tooLarge(label, data.length) };
  const mediaType = sniffImageType(data);
  if (mediaType === undefined) return { ok: false, why: `${label} is not ${TYPE_NAMES}; those are the images auggy sends to a model` };
  return { ok: true, image: { mediaType, data, ...(name !== undefined ? { name } : {}) } };
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Base64 as protocols carry images (AG-UI, ACP, A2A). The declared media type must be an image
 * one; the bytes then say which (a PNG declared as JPEG is sent as what it is).
 */
export function imageFromBase64(base64: string, declaredType: string | undefined, label: string, name?: string): ImageRead {
  if (declaredType !== undefined && !declaredType.toLowerCase().startsWith('image/')) {
    return { ok: false, why: `${label} is ${declaredType}, not an image; auggy sends only ${TYPE_NAMES} to a model` };
  }
  const compact = base64.replace(/\s+/g, '');
  // Four characters carry three bytes: a string this long is over the limit whatever it decodes to.
  if (compact.length > Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 4) return { ok: false, why: tooLarge(label, Math.floor((compact.length * 3) / 4)) };
  if (!BASE64.test(compact)) return { ok: false, why: `${label} is not base64; send the image's bytes base64-encoded` };
  return imageFromBytes(new Uint8Array(Buffer.from(compact, 'base64')), label, name);
}

/** `data:image/png;base64,...`, as a browser pastes an image and AG-UI or A2A may carry one. */
export function imageFromDataUrl(url: string, label: string, name?: string): ImageRead {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match) return { ok: false, why: `${label} is not a data URL (data:image/png;base64,...)` };
  const [, mediaType, parameters, payload] = match;
  if (!parameters.split(';').includes('base64')) return { ok: false, why: `${label} is a data URL without base64; send the image base64-encoded` };
  return imageFromBase64(payload, mediaType === '' ? undefined : mediaType, label, name);
}

/** Says why a message carries too many images, when it does. */
export function tooManyImages(count: number): string | undefined {
  return count > MAX_IMAGES_PER_MESSAGE
    ? `the message carries ${count} images, over the ${MAX_IMAGES_PER_MESSAGE} one message may; send them in more than one message`
    : undefined;
}

/**
 * An image file (`--attach a.png`, `@a.png` in the chat). Its size is looked at before it is
 * read, so a large file is refused without reading it into memory.
 */
export async function readImageFile(path: string): Promise<ImageRead> {
  const name = basename(path);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return { ok: false, why: cannotRead(path, error) };
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) return { ok: false, why: `${path} is a folder, not an image file` };
    if (stats.size > MAX_IMAGE_BYTES) return { ok: false, why: tooLarge(path, stats.size) };
    const data = await handle.readFile();
    return imageFromBytes(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), path, name);
  } catch (error) {
    return { ok: false, why: cannotRead(path, error) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * A message's images, read in order after their count is checked: --attach's files, the chat's
 * @mentions, a scenario turn's parts. The first that cannot be sent says why, as `named` puts it.
 */
export async function readImages<T>(
  items: readonly T[],
  read: (item: T) => ImageRead | Promise<ImageRead>,
  named: (item: T, why: string) => string = (_item, why) => why,
): Promise<{ ok: true; images: ImageInput[] } | { ok: false; why: string }> {
  const tooMany = tooManyImages(items.length);
  if (tooMany !== undefined) return { ok: false, why: tooMany };
  const images: ImageInput[] = [];
  for (const item of items) {
    const result = await read(item);
    if (!result.ok) return { ok: false, why: named(item, result.why) };
    images.push(result.image);
  }
  return { ok: true, images };
}

function cannotRead(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${path} does not exist; check the path of the image`;
  if (code === 'EACCES' || code === 'EPERM') return `${path} cannot be read (permission denied); check the file's permissions`;
  if (code === 'EISDIR') return `${path} is a folder, not an image file`;
  return `${path} cannot be read (${code ?? String(error)})`;
}

/**
 * Why the kernel will not send these images, when it will not: too many for one message, or a
 * model the folder says takes none (`engine.vision: false`).
 */
export function imageRefusal(images: readonly ImageInput[], vision: boolean | undefined): string | undefined {
  if (images.length === 0) return undefined;
  if (vision === false) {
    return "this agent's model takes no images (engine.vision is false in agent.yaml); send the message without them, or use a model that takes images";
  }
  const tooMany = tooManyImages(images.length);
  if (tooMany !== undefined) return tooMany;
  const large = images.find((image) => image.data.length > MAX_IMAGE_BYTES);
  return large ? tooLarge(large.name ?? 'an image', large.data.length) : undefined;
}
