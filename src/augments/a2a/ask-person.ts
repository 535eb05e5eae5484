import type { Part } from '@a2a-js/sdk';
import type { ToolContext } from '../../kernel/tool.js';
import { type NoAnswerReason, runDeferrableQuestionnaire, schemaForm } from '../questions/index.js';
import { dataPart, INTERRUPT_ID_KEY, textPart } from './a2a-parts.js';
import { formsOf, textsOf } from './remote-parts.js';

export type PersonAnswer =
  | { kind: 'answered'; parts: Part[] }
  | { kind: 'no-answer'; reason: NoAnswerReason; question: string }
  /** The person answers in a later run (serve's interrupts): the call waits, and is run again then. */
  | { kind: 'pending' };

/**
 * A remote agent's `input-required`, put to this agent's person on the questions road (the
 * terminal, the Console, ACP, an AG-UI interrupt): a data part with a JSON Schema of fields is
 * asked as a questionnaire and answered as a data part; a plain question is asked as one text
 * field and answered as text. Nobody there is no answer, at once. `id` names this asking, so
 * the same questions asked again when the call runs again find the answers a later run brought.
 */
export async function askThePerson(agent: string, status: readonly Part[], ctx: ToolContext, id: string): Promise<PersonAnswer> {
  const question = textsOf(status).join('\n\n') || `The agent ${agent} needs more from you, without saying what.`;
  const options = { signal: ctx.signal, emit: ctx.emit, toolCallId: ctx.toolCallId };
  const forms = formsOf(status);
  if (forms.length === 0) {
    const spec = { prompt: `The agent ${agent} asks:`, fields: [{ name: 'answer', question, type: 'text' as const }] };
    const result = await runDeferrableQuestionnaire(spec, ctx.person, { ...options, id });
    if (result.status === 'pending') return { kind: 'pending' };
    if (result.status !== 'answered') return { kind: 'no-answer', reason: result.reason, question };
    return { kind: 'answered', parts: [textPart(String(result.answers.answer))] };
  }
  const parts: Part[] = [];
  for (const [index, form] of forms.entries()) {
    const asked = schemaForm(form.schema, `The agent ${agent} asks: ${question}`);
    const result = await runDeferrableQuestionnaire(asked.spec, ctx.person, { ...options, schema: asked.schema, id: `${id}_${index}` });
    if (result.status === 'pending') return { kind: 'pending' };
    if (result.status !== 'answered') return { kind: 'no-answer', reason: result.reason, question };
    const named = form.metadata[INTERRUPT_ID_KEY];
    parts.push(dataPart(result.answers, typeof named === 'string' ? { [INTERRUPT_ID_KEY]: named } : undefined));
  }
  return { kind: 'answered', parts };
}
