import type { ServerResponse } from 'node:http';
import { EventType, type Event as AguiEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { KernelEvent, TurnOutcome } from '../../kernel/events.js';
import { createQuestionNarrator, textMessageEvents } from '../question-text.js';
import { runStartedEvent, terminalEvent, toAguiEvent, type RunIds } from './event-map.js';

/**
 * One run's Server-Sent Events stream. It keeps the AG-UI sequence whatever the kernel does:
 * RUN_STARTED first, every text message and tool call closed before the end, exactly one
 * terminal event, and nothing after it.
 */
export class RunStream {
  private readonly encoder = new EventEncoder();
  private readonly openMessages = new Set<string>();
  private readonly openToolCalls = new Set<string>();
  private ended = false;
  /** Writes are held (corked) until this turn of the event loop ends, then go out together. */
  private corked = false;
  /** A question also reads as an assistant message, so a plain AG-UI chat shows what was asked. */
  private readonly narrate = createQuestionNarrator();

  constructor(
    private readonly res: ServerResponse,
    private readonly ids: RunIds,
  ) {}

  /** Sends the headers and RUN_STARTED with the client's ids. */
  open(headers: Record<string, string> = {}): void {
    this.res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // Proxies such as nginx buffer responses unless told not to; events must flow as they happen.
      'x-accel-buffering': 'no',
    });
    this.write(runStartedEvent(this.ids));
  }

  get finished(): boolean {
    return this.ended;
  }

  /** Forwards one kernel event; the run's own bounds are dropped (the host sends them). */
  forward(event: KernelEvent): void {
    const mapped = toAguiEvent(event);
    if (mapped) this.track(mapped);
    const narrated = this.narrate(event);
    if (narrated === undefined) return;
    for (const extra of textMessageEvents(narrated)) {
      const message = toAguiEvent(extra);
      if (message) this.track(message);
    }
  }

  /**
   * Closes what is open, sends the one terminal event and ends the response; resolves once the
   * bytes are handed to the socket (or the client is gone), so a shutdown never cuts them off.
   */
  finish(outcome: TurnOutcome): Promise<void> {
    if (this.ended) return Promise.resolve();
    for (const messageId of this.openMessages) this.write({ type: EventType.TEXT_MESSAGE_END, timestamp: Date.now(), messageId });
    for (const toolCallId of this.openToolCalls) this.write({ type: EventType.TOOL_CALL_END, timestamp: Date.now(), toolCallId });
    this.openMessages.clear();
    this.openToolCalls.clear();
    this.write(terminalEvent(this.ids, outcome));
    this.ended = true;
    if (this.res.destroyed || this.res.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      this.res.once('close', resolve);
      this.res.end(resolve);
    });
  }

  private track(event: AguiEvent): void {
    if (this.ended) return;
    switch (event.type) {
      case EventType.TEXT_MESSAGE_START:
        this.openMessages.add(event.messageId);
        break;
      case EventType.TEXT_MESSAGE_CONTENT:
        // A delta for a message that is not open would make clients drop the stream.
        if (!this.openMessages.has(event.messageId)) return;
        break;
      case EventType.TEXT_MESSAGE_END:
        if (!this.openMessages.delete(event.messageId)) return;
        break;
      case EventType.TOOL_CALL_START:
        this.openToolCalls.add(event.toolCallId);
        break;
      case EventType.TOOL_CALL_ARGS:
        if (!this.openToolCalls.has(event.toolCallId)) return;
        break;
      case EventType.TOOL_CALL_END:
        if (!this.openToolCalls.delete(event.toolCallId)) return;
        break;
      default:
        break;
    }
    this.write(event);
  }

  private write(event: AguiEvent): void {
    // The client may be gone; the run is being canceled and nobody reads this any more.
    if (this.res.destroyed || this.res.writableEnded) return;
    // A model's chunk becomes several events at once (a delta, a tool call's start, args and end);
    // written one by one, each was a socket write of its own (4% of the server's time under load).
    // They are held until this turn of the event loop has written them all, then sent as one:
    // nothing waits for a later chunk, so the stream is as live as before.
    if (!this.corked) {
      this.corked = true;
      this.res.cork();
      setImmediate(() => {
        this.corked = false;
        // end() already sent whatever was held.
        if (!this.res.writableEnded && !this.res.destroyed) this.res.uncork();
      });
    }
    this.res.write(this.encoder.encodeSSE(event));
  }
}
