import type { ContentBlock } from '@agentclientprotocol/sdk';
import { imageFromBase64, tooManyImages, type ImageInput } from '../../kernel/image-input.js';

/** The person's message from an ACP prompt: its text, and the images it carries (promptCapabilities.image). */
export interface PromptInput {
  text: string;
  images: ImageInput[];
}

/** A prompt whose image is not one: said in one sentence, as the request's error. */
export class PromptImageError extends Error {}

/**
 * Text as it is, an embedded text resource as its text under its uri, a resource link as its uri
 * (the agent reads no files itself), an image block (or an embedded binary resource of an image
 * type) as an image. Audio is not advertised, so a client that sends it anyway gets it named.
 */
export function promptInput(blocks: readonly ContentBlock[]): PromptInput {
  const images: ImageInput[] = [];
  const image = (data: string, mimeType: string, index: number, name?: string) => {
    const read = imageFromBase64(data, mimeType, `the image in prompt block ${index + 1}`, name);
    if (!read.ok) throw new PromptImageError(read.why);
    images.push(read.image);
    return '';
  };
  const parts = blocks.map((block, index) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'resource':
        if ('text' in block.resource) return `<resource uri="${block.resource.uri}">\n${block.resource.text}\n</resource>`;
        if (block.resource.mimeType?.startsWith('image/')) return image(block.resource.blob, block.resource.mimeType, index, block.resource.uri);
        return `[binary resource ${block.resource.uri}, not read]`;
      case 'resource_link':
        return `[${block.title ?? block.name}](${block.uri})`;
      case 'image':
        return image(block.data, block.mimeType, index);
      case 'audio':
        return '[audio, not read: this agent reads text and images only]';
      default:
        return '';
    }
  });
  const tooMany = tooManyImages(images.length);
  if (tooMany !== undefined) throw new PromptImageError(tooMany);
  return { text: parts.filter((part) => part !== '').join('\n\n'), images };
}
