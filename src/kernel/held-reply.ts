import type { ReplyVerdict } from './augment.js';
import { systemLineEvent, type EmitEvent, type KernelEvent } from './events.js';

/**
 * A model round's events held until its reply is checked (a workflow state's guardrails): they go
 * out as they came when the reply stands, or with the text replaced when it was held back, so the
 * person never sees what was held back. The verdict's line and event follow the reply.
 */
export function holdRound(emit: EmitEvent): { emit: EmitEvent; release(verdict?: ReplyVerdict): void } {
  const held: KernelEvent[] = [];
  return {
    emit: (event) => held.push(event),
    release(verdict) {
      if (!verdict) {
        for (const event of held) emit(event);
        return;
      }
      // The round's first text message carries the reply as it now stands; the others go, and a
      // tool call that followed one of them follows the first instead.
      const first = held.find((event) => event.type === 'TEXT_MESSAGE_START');
      for (const event of held) {
        if (event.type === 'TEXT_MESSAGE_START' && event === first) {
          emit(event);
          emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: event.messageId, delta: verdict.text });
          emit({ type: 'TEXT_MESSAGE_END', messageId: event.messageId });
        } else if (event.type === 'TOOL_CALL_START' && first?.type === 'TEXT_MESSAGE_START' && event.parentMessageId !== undefined) {
          emit({ ...event, parentMessageId: first.messageId });
        } else if (event.type !== 'TEXT_MESSAGE_START' && event.type !== 'TEXT_MESSAGE_CONTENT' && event.type !== 'TEXT_MESSAGE_END') {
          emit(event);
        }
      }
      emit(systemLineEvent(verdict.line));
      if (verdict.event) emit({ type: 'CUSTOM', name: verdict.event.name, value: verdict.event.value });
    },
  };
}
