import { randomUUID } from 'node:crypto';
import { EventSchemas } from '@ag-ui/core/schemas';
import type { Event as AguiEvent, RunAgentInput } from '@ag-ui/core';

/** A minimal valid RunAgentInput: one user message on the given thread. */
export function runInput(threadId: string, text: string, extra: Partial<RunAgentInput> = {}): RunAgentInput {
  return {
    threadId,
    runId: `run-${randomUUID()}`,
    messages: [{ id: randomUUID(), role: 'user', content: text }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
    ...extra,
  };
}

export function postRun(url: string, body: unknown, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${url}/agent/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

/**
 * Reads a Server-Sent Events body event by event; every event is checked against @ag-ui/core's
 * schema as it arrives. `until` stops early with the stream still open; `rest` reads to the end.
 */
export class EventReader {
  readonly events: AguiEvent[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private pending: AguiEvent[] = [];

  constructor(response: Response) {
    const reader = response.body?.getReader();
    if (!reader) throw new Error('the response has no body');
    this.reader = reader;
  }

  /** The next event, or undefined at the end of the stream. */
  async next(): Promise<AguiEvent | undefined> {
    while (this.pending.length === 0) {
      const { done, value } = await this.reader.read();
      if (done) {
        if (this.buffer.trim() !== '') throw new Error(`the stream ended inside an event: ${this.buffer}`);
        return undefined;
      }
      this.buffer += this.decoder.decode(value, { stream: true });
      const frames = this.buffer.split('\n\n');
      this.buffer = frames.pop() ?? '';
      for (const frame of frames) {
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data !== '') this.pending.push(EventSchemas.parse(JSON.parse(data)) as AguiEvent);
      }
    }
    const event = this.pending.shift() as AguiEvent;
    this.events.push(event);
    return event;
  }

  async until(predicate: (event: AguiEvent) => boolean): Promise<AguiEvent> {
    for (;;) {
      const event = await this.next();
      if (!event) throw new Error(`the stream ended before the awaited event; saw ${this.events.map((e) => e.type).join(' ')}`);
      if (predicate(event)) return event;
    }
  }

  /** Reads to the end; resolves with every event of the stream, from the first. */
  async rest(): Promise<AguiEvent[]> {
    while (await this.next());
    return this.events;
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

/** Every event of a whole response. */
export function readEvents(response: Response): Promise<AguiEvent[]> {
  return new EventReader(response).rest();
}

/** Every event passes @ag-ui/core's schema (throws with zod's report otherwise). */
export function validateEach(events: readonly unknown[]): AguiEvent[] {
  return events.map((event) => EventSchemas.parse(event) as AguiEvent);
}

/**
 * The run's shape: RUN_STARTED first with the client's ids, exactly one terminal event and it
 * is last, every text message and tool call closed before it.
 */
export function checkRunSequence(events: readonly AguiEvent[], ids: { threadId: string; runId: string }): void {
  const fail = (why: string) => {
    throw new Error(`${why}\n${events.map((e) => e.type).join(' ')}`);
  };
  const first = events[0];
  if (first?.type !== 'RUN_STARTED') return fail('the first event is not RUN_STARTED');
  if (first.threadId !== ids.threadId || first.runId !== ids.runId) fail('RUN_STARTED does not carry the client ids');
  const terminals = events.filter((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR');
  if (terminals.length !== 1) fail(`${terminals.length} terminal events`);
  if (events.at(-1) !== terminals[0]) fail('the terminal event is not the last');
  const last = terminals[0];
  if (last.type === 'RUN_FINISHED' && (last.threadId !== ids.threadId || last.runId !== ids.runId)) fail('RUN_FINISHED does not carry the client ids');
  const openMessages = new Set<string>();
  const openCalls = new Set<string>();
  for (const event of events) {
    if (event.type === 'TEXT_MESSAGE_START') openMessages.add(event.messageId);
    if (event.type === 'TEXT_MESSAGE_CONTENT' && !openMessages.has(event.messageId)) fail(`content for message ${event.messageId} that is not open`);
    if (event.type === 'TEXT_MESSAGE_END' && !openMessages.delete(event.messageId)) fail(`end of message ${event.messageId} that is not open`);
    if (event.type === 'TOOL_CALL_START') openCalls.add(event.toolCallId);
    if (event.type === 'TOOL_CALL_END' && !openCalls.delete(event.toolCallId)) fail(`end of tool call ${event.toolCallId} that is not open`);
  }
  if (openMessages.size > 0 || openCalls.size > 0) fail('a text message or tool call is still open at the end');
}

export function textOf(events: readonly AguiEvent[]): string {
  return events.map((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? e.delta : '')).join('');
}
