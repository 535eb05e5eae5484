import type { ResumeEntry } from '@ag-ui/core';
import type { Message } from '@a2a-js/sdk';
import type { HeldInterrupt } from '../interrupts/held-interrupts.js';
import { messageData, messageText } from './parts.js';
import { INTERRUPT_ID_KEY } from '../../augments/a2a/a2a-parts.js';

function schemaFields(held: HeldInterrupt): string[] {
  const properties = held.interrupt.responseSchema?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/**
 * A caller's message on an input-required task, read as answers to the thread's open questions:
 * a data part answers the question its metadata names (or, unnamed, the next questionnaire or
 * approval still unanswered); the text answers request_input's question, a questionnaire of one
 * field, or an approval in its own words (yes, no). What it does not answer stays open.
 */
export function answersFromMessage(message: Message, held: readonly HeldInterrupt[]): ResumeEntry[] {
  const text = messageText(message);
  const data = messageData(message);
  const named = new Map(data.flatMap((part) => (typeof part.metadata[INTERRUPT_ID_KEY] === 'string' ? [[part.metadata[INTERRUPT_ID_KEY], part.value]] : [])));
  const unnamed = data.filter((part) => typeof part.metadata[INTERRUPT_ID_KEY] !== 'string').map((part) => part.value);
  const entries: ResumeEntry[] = [];
  for (const item of held) {
    const { id } = item.interrupt;
    const answer = (payload: unknown) => entries.push({ interruptId: id, status: 'resolved', payload });
    if (item.kind === 'reply') {
      if (text !== '') answer(text);
      continue;
    }
    if (named.has(id)) answer(named.get(id));
    else if (unnamed.length > 0) answer(unnamed.shift());
    else if (text !== '' && item.approvalOptions) answer(text);
    else if (text !== '' && schemaFields(item).length === 1) answer({ [schemaFields(item)[0]]: text });
  }
  return entries;
}
