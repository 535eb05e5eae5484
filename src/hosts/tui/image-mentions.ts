import { resolve } from 'node:path';
import { readImageFile, readImages, type ImageInput } from '../../kernel/image-input.js';

/**
 * `@chart.png` in a chat message: a path (as typed, or as a terminal pastes a dropped file, quoted
 * when it has spaces) whose name ends as an image's does. Other `@words` are left as text.
 */
const MENTION = /(?:^|\s)@(?:'([^']+)'|"([^"]+)"|(\S+))/g;
const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;
/** What ends a sentence after an unquoted path ("what is in @a.png?"): not part of the file's name. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/;

/** The image paths a message mentions, in order, each once. */
export function imageMentions(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const path = match[1] ?? match[2] ?? (match[3] ?? '').replace(TRAILING_PUNCTUATION, '');
    if (IMAGE_NAME.test(path) && !found.includes(path)) found.push(path);
  }
  return found;
}

/** Reads the images a message mentions, relative to `cwd`; the first that cannot be sent stops the turn in one sentence. */
export async function mentionedImages(text: string, cwd: string): Promise<ImageInput[]> {
  const read = await readImages(imageMentions(text), (path) => readImageFile(resolve(cwd, path)));
  if (!read.ok) throw new Error(read.why);
  return read.images;
}
