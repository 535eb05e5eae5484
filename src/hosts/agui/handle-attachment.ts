import type { IncomingMessage, ServerResponse } from 'node:http';
import { sniffImageType } from '../../kernel/image-input.js';
import { attachmentRefsOf, loadAttachment } from '../../session/attachments.js';
import { isValidSessionId } from '../../session/ids.js';
import { HttpError } from '../http/http-io.js';
import { besideRun, type BesideRunContext } from './beside-run.js';

type AttachmentContext = BesideRunContext & { headers: Record<string, string> };

const REF = /^[0-9a-f]{32}$/;

/**
 * GET /agent/attachment?threadId=ID&id=REF: an image a user message of the thread carried, for
 * a page to draw. Only an attachment the thread's log names is served, and only as the raster
 * type its bytes are (never a type the stored record claims), with nosniff, a sandbox and
 * same-origin resource policy: it can be drawn, never run, and another site cannot embed it.
 */
export async function handleAttachment(req: IncomingMessage, res: ServerResponse, context: AttachmentContext): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://auggy.invalid').searchParams;
  const threadId = query.get('threadId') ?? '';
  const ref = query.get('id') ?? '';
  if (!isValidSessionId(threadId) || !REF.test(ref)) {
    throw new HttpError(400, 'name the thread and the attachment: GET /agent/attachment?threadId=<thread>&id=<attachment id from GET /agent/thread>');
  }
  const { result: data } = await besideRun(context, threadId, { createIfMissing: false, missing: 'it has no attachments' }, async (conversation) => {
    const named = conversation.session
      .entries()
      .entries.some((entry) => entry.kind === 'user' && attachmentRefsOf(entry.attachments).some((attachment) => attachment.ref === ref));
    return named ? loadAttachment(conversation.session, ref) : undefined;
  });
  const type = data === undefined ? undefined : sniffImageType(data);
  if (data === undefined || type === undefined) throw new HttpError(404, `thread ${threadId} holds no attachment ${ref}`);
  res.writeHead(200, {
    ...context.headers,
    'content-type': type,
    'content-length': data.length,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    // The bytes never change under their id (it is their hash); the route may need a token.
    'cache-control': 'private, max-age=86400',
  });
  res.end(req.method === 'HEAD' ? undefined : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}
