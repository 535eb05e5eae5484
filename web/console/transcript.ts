/** What the chat draws, folded from AG-UI events: the same fold for a live run and a thread's history. */
export type TranscriptItem =
  /** `attachments`: the images the message carried, each fetched by id from GET /agent/attachment. */
  | { kind: 'user'; id: string; text: string; attachments?: Attachment[] }
  /** `narration`: a questionnaire's questions as text, for clients that draw no form; the Console's form says them. */
  | { kind: 'assistant'; id: string; text: string; streaming: boolean; question: boolean; narration?: boolean }
  | { kind: 'tool'; id: string; name: string; args: string; result?: string }
  | { kind: 'system'; id: string; text: string }
  | { kind: 'verdict'; id: string; outcome: string; reason: string }
  | { kind: 'end'; id: string; status: string; message?: string };

/** An image a user message carried, as a thread's history names it (the `auggy.attachments` event). */
export interface Attachment {
  id: string;
  mediaType: string;
  size: number;
  name?: string;
}

function attachmentsOf(value: unknown): Attachment[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is Attachment =>
      typeof item === 'object' && item !== null && typeof item.id === 'string' && typeof item.mediaType === 'string' && typeof item.size === 'number',
  );
}

export interface Transcript {
  items: TranscriptItem[];
  /** request_input's calls: the question is its prompt, said as the reply; its arguments (the reason) are never drawn. */
  hidden: string[];
  /** A question event came: the text message after it narrates it. */
  narrating: boolean;
  next: number;
}

export const EMPTY_TRANSCRIPT: Transcript = { items: [], hidden: [], narrating: false, next: 1 };

/** The tool whose call is the agent's question to the person, not activity to show. */
const QUESTION_TOOL = 'request_input';

export interface AguiEventLike {
  type: string;
  [key: string]: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function update(transcript: Transcript, id: string, change: (item: TranscriptItem) => TranscriptItem): Transcript {
  return { ...transcript, items: transcript.items.map((item) => (item.id === id ? change(item) : item)) };
}

/** An item before it has its id: the union kept per kind, so each literal is checked against its own. */
type NewItem = TranscriptItem extends infer Item ? (Item extends TranscriptItem ? Omit<Item, 'id'> & { id?: string } : never) : never;

function push(transcript: Transcript, item: NewItem): Transcript {
  const id = item.id ?? `item-${transcript.next}`;
  return { ...transcript, items: [...transcript.items, { ...item, id } as TranscriptItem], next: transcript.next + 1 };
}

/** The last reply of the turn that just asked: drawn as a question. */
function markQuestion(transcript: Transcript): Transcript {
  const last = transcript.items.findLast((item) => item.kind === 'assistant' || item.kind === 'user');
  if (last?.kind !== 'assistant') return transcript;
  return update(transcript, last.id, (item) => ({ ...item, question: true }) as TranscriptItem);
}

function custom(transcript: Transcript, name: string, value: unknown): Transcript {
  const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (name === 'auggy.system' && text(fields.text) !== '') {
    // userAsk says its verdict twice (the evaluation, then a line for plain clients): the badge says it once.
    const previous = transcript.items.at(-1);
    if (previous?.kind === 'verdict' && previous.reason !== '' && text(fields.text).endsWith(previous.reason)) return transcript;
    return push(transcript, { kind: 'system', text: text(fields.text) });
  }
  if (name === 'question') return { ...transcript, narrating: true };
  if (name === 'auggy.attachments')
    return update(transcript, text(fields.messageId), (item) => (item.kind === 'user' ? { ...item, attachments: attachmentsOf(fields.attachments) } : item));
  if (name === 'userAsk.evaluation' && text(fields.outcome) !== '')
    return push(transcript, { kind: 'verdict', outcome: text(fields.outcome), reason: text(fields.reason) });
  return transcript;
}

export function applyEvent(transcript: Transcript, event: AguiEventLike): Transcript {
  switch (event.type) {
    case 'TEXT_MESSAGE_START': {
      const id = text(event.messageId);
      if (transcript.items.some((item) => item.id === id)) return transcript;
      if (event.role === 'user') return push(transcript, { id, kind: 'user', text: '' });
      if (transcript.narrating)
        return { ...push(transcript, { id, kind: 'assistant', text: '', streaming: true, question: true, narration: true }), narrating: false };
      return push(transcript, { id, kind: 'assistant', text: '', streaming: true, question: false });
    }
    case 'TEXT_MESSAGE_CONTENT':
      return update(transcript, text(event.messageId), (item) =>
        item.kind === 'assistant' || item.kind === 'user' ? { ...item, text: item.text + text(event.delta) } : item,
      );
    case 'TEXT_MESSAGE_END':
      return update(transcript, text(event.messageId), (item) => (item.kind === 'assistant' ? { ...item, streaming: false } : item));
    case 'TOOL_CALL_START': {
      const id = text(event.toolCallId);
      if (event.toolCallName === QUESTION_TOOL) return { ...transcript, hidden: [...transcript.hidden, id] };
      return push(transcript, { id, kind: 'tool', name: text(event.toolCallName), args: '' });
    }
    case 'TOOL_CALL_ARGS':
      return update(transcript, text(event.toolCallId), (item) => (item.kind === 'tool' ? { ...item, args: item.args + text(event.delta) } : item));
    case 'TOOL_CALL_RESULT':
      return update(transcript, text(event.toolCallId), (item) => (item.kind === 'tool' ? { ...item, result: text(event.content) } : item));
    case 'CUSTOM':
      return custom(transcript, text(event.name), event.value);
    case 'RUN_FINISHED': {
      const result = (event.result ?? {}) as { status?: string; message?: string };
      const outcome = (event.outcome ?? {}) as { type?: string };
      if (result.status === 'input-required' || outcome.type === 'interrupt') return markQuestion(transcript);
      if (result.status === 'canceled' || outcome.type === 'cancelled') return push(transcript, { kind: 'end', status: 'canceled', message: 'Stopped.' });
      return transcript;
    }
    case 'RUN_ERROR':
      return push(transcript, { kind: 'end', status: 'failed', message: text(event.message) });
    default:
      return transcript;
  }
}

export function foldEvents(events: readonly AguiEventLike[]): Transcript {
  return events.reduce(applyEvent, EMPTY_TRANSCRIPT);
}

/** The transcript as markdown, to copy: the person's lines quoted, replies as written, tools one line each. */
export function transcriptMarkdown(items: readonly TranscriptItem[]): string {
  const parts = items.map((item) => {
    switch (item.kind) {
      case 'user':
        return `**You:** ${item.text}${(item.attachments ?? []).map((image) => ` [image: ${image.name ?? image.id}]`).join('')}`;
      case 'assistant':
        return `**Agent${item.question ? ' (asks)' : ''}:** ${item.text}`;
      case 'tool':
        return `- tool \`${item.name}\`${item.result !== undefined ? ` → ${item.result.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`;
      case 'system':
        return `> ${item.text}`;
      case 'verdict':
        return `> ask: ${item.outcome}: ${item.reason}`;
      case 'end':
        return `> ${item.status}${item.message ? `: ${item.message}` : ''}`;
    }
  });
  return `${parts.join('\n\n')}\n`;
}
