import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedRequest } from './chat-server.js';

/** A real 1×1 PNG, as small as an image can be. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
export const PNG_BYTES = Buffer.from(PNG_BASE64, 'base64');
export const PNG_DATA_URL = `data:image/png;base64,${PNG_BASE64}`;

/** Writes the PNG into `dir` under `name`; returns its path. */
export function writePng(dir: string, name = 'dot.png'): string {
  const path = join(dir, name);
  writeFileSync(path, PNG_BYTES);
  return path;
}

type ContentPart = { type: string; text?: string; image_url?: { url: string } };

/**
 * The image URLs the last user message of a Chat Completions request carried, as llama.cpp, vLLM
 * and Ollama read them: `{"type": "image_url", "image_url": {"url": "data:image/png;base64,..."}}`.
 */
export function imageUrlsOfLastUserMessage(request: ReceivedRequest): string[] {
  const user = request.body.messages.filter((message) => message.role === 'user').at(-1);
  if (!user || !Array.isArray(user.content)) return [];
  return (user.content as ContentPart[]).flatMap((part) => (part.type === 'image_url' && part.image_url ? [part.image_url.url] : []));
}

/** The text parts of the last user message, joined. */
export function textOfLastUserMessage(request: ReceivedRequest): string {
  const user = request.body.messages.filter((message) => message.role === 'user').at(-1);
  if (!user) return '';
  if (typeof user.content === 'string') return user.content;
  return (user.content as ContentPart[]).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}
