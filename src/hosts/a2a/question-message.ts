import type { Part } from '@a2a-js/sdk';
import type { Interrupt } from '../../kernel/interrupt.js';
import { dataPart, INTERRUPT_ID_KEY, textPart } from '../../augments/a2a/a2a-parts.js';

/**
 * The status message of an input-required task: each open question's text (never the model's
 * `reason`), and for a questionnaire or an approval a data part holding the JSON Schema of its
 * answer, the same one an AG-UI interrupt carries, so a caller can draw one field per property.
 */
export function questionParts(interrupts: readonly Interrupt[]): Part[] {
  return interrupts.flatMap((interrupt) => {
    const text = textPart(interrupt.message);
    if (interrupt.responseSchema === undefined) return [text];
    const about = { [INTERRUPT_ID_KEY]: interrupt.id, reason: interrupt.reason, ...(interrupt.expiresAt ? { expiresAt: interrupt.expiresAt } : {}) };
    return [text, dataPart(interrupt.responseSchema, about)];
  });
}
