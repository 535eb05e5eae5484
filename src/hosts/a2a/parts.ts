import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role } from '@a2a-js/sdk';
import { imageFromBytes, imageFromDataUrl, tooManyImages, type ImageInput } from '../../kernel/image-input.js';

/** A message from this agent on a task. */
export function agentMessage(taskId: string, contextId: string, parts: Part[]): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** The text of a message: its text parts, joined by blank lines. */
export function messageText(message: Message): string {
  return message.parts
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n\n')
    .trim();
}

/** A message's data parts, each with its metadata. */
export function messageData(message: Message): { value: unknown; metadata: Record<string, unknown> }[] {
  return message.parts.flatMap((part) => (part.content?.$case === 'data' ? [{ value: part.content.value as unknown, metadata: part.metadata ?? {} }] : []));
}

/**
 * The images a message's file parts carry: raw bytes, or a data URL (auggy fetches no other URL).
 * A file part that is not an image is refused in one sentence naming the part.
 */
export function messageImages(message: Message): { ok: true; images: ImageInput[] } | { ok: false; why: string } {
  const images: ImageInput[] = [];
  for (const [index, part] of message.parts.entries()) {
    const content = part.content;
    if (content?.$case !== 'raw' && content?.$case !== 'url') continue;
    const label = `part ${index + 1} of the message${part.filename ? ` (${part.filename})` : ''}`;
    const name = part.filename || undefined;
    if (part.mediaType !== '' && !part.mediaType.toLowerCase().startsWith('image/')) {
      return { ok: false, why: `${label} is ${part.mediaType}, not an image; auggy takes text and images only` };
    }
    const read =
      content.$case === 'raw'
        ? imageFromBytes(new Uint8Array(content.value), label, name)
        : content.value.startsWith('data:')
          ? imageFromDataUrl(content.value, label, name)
          : { ok: false as const, why: `${label} is a link (${content.value.slice(0, 80)}); auggy fetches no URL, so send the image's bytes` };
    if (!read.ok) return read;
    images.push(read.image);
  }
  const tooMany = tooManyImages(images.length);
  return tooMany !== undefined ? { ok: false, why: tooMany } : { ok: true, images };
}
