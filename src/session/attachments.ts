import { createRequire } from 'node:module';
import type { AttachmentRef } from './entries.js';
import type { SessionHandle } from './session-handle.js';

export type { AttachmentRef } from './entries.js';

const PREFIX = 'attachment-';

function stateName(ref: string): string {
  return `${PREFIX}${ref}.json`;
}

/**
 * node:crypto is loaded only when a message carries an image: a static import loads twenty of
 * Node's modules at every start (docs/performance.md, round six), images or not.
 */
function sha256Hex(data: Uint8Array): string {
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(data).digest('hex');
}

/** Keeps the bytes in the session; resolves to the reference the log holds once they are saved. */
export async function saveAttachment(session: SessionHandle, data: Uint8Array, mediaType: string, name?: string): Promise<AttachmentRef> {
  const ref = sha256Hex(data).slice(0, 32);
  const saved = session.readState(stateName(ref));
  if (saved.status !== 'ok') await session.writeState(stateName(ref), { mediaType, data: Buffer.from(data).toString('base64') });
  return { ref, mediaType, size: data.length, ...(name !== undefined ? { name } : {}) };
}

/** The bytes a reference names, or undefined when the session no longer holds them (a state removed by hand). */
export function loadAttachment(session: SessionHandle, ref: string): Uint8Array | undefined {
  if (!/^[0-9a-f]{32}$/.test(ref)) return undefined;
  const read = session.readState(stateName(ref));
  if (read.status !== 'ok' || typeof read.value !== 'object' || read.value === null) return undefined;
  const data = (read.value as { data?: unknown }).data;
  return typeof data === 'string' ? new Uint8Array(Buffer.from(data, 'base64')) : undefined;
}

/** Reads an entry's `attachments` back from the log, keeping only well-formed references. */
export function attachmentRefsOf(value: unknown): AttachmentRef[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is AttachmentRef =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as AttachmentRef).ref === 'string' &&
      typeof (item as AttachmentRef).mediaType === 'string' &&
      typeof (item as AttachmentRef).size === 'number',
  );
}
