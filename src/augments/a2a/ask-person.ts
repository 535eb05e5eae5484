import type { Part } from '@a2a-js/sdk';
import type { ToolContext } from '../../kernel/tool.js';
import { type NoAnswerReason, runQuestionnaire, schemaForm } from '../questions/index.js';
import { dataPart, formsOf, textPart, textsOf } from './remote-parts.js';

/** Where a data part names the question it answers (auggy's own servers set it). */
const INTERRUPT_ID_KEY = 'interruptId';

export type PersonAnswer = { kind: 'answered'; parts: Part[] } | { kind: 'no-answer'; reason: NoAnswerReason; question: string };

/**
 * A remote agent's `input-required`, put to this agent's person on the questions road (the
 * terminal, the Console, ACP): a data part with a JSON Schema of fields is asked as a
 * questionnaire and answered as a data part; a plain question is asked as one text field and
 * answered as text. Nobody there is no answer, at once.
 */
export async function askThePerson(agent: string, status: readonly Part[], ctx: ToolContext): Promise<PersonAnswer> {
  const question = textsOf(status).join('\n\n') || `The agent ${agent} needs more from you, without saying what.`;
  const options = { signal: ctx.signal, emit: ctx.emit };
  const forms = formsOf(status);
  if (forms.length === 0) {
    const result = await runQuestionnaire({ prompt: `The agent ${agent} asks:`, fields: [{ name: 'answer', question, type: 'text' }] }, ctx.person, options);
    if (result.status !== 'answered') return { kind: 'no-answer', reason: result.reason, question };
    return { kind: 'answered', parts: [textPart(String(result.answers.answer))] };
  }
  const parts: Part[] = [];
  for (const form of forms) {
    const asked = schemaForm(form.schema, `The agent ${agent} asks: ${question}`);
    const result = await runQuestionnaire(asked.spec, ctx.person, { ...options, schema: asked.schema });
    if (result.status !== 'answered') return { kind: 'no-answer', reason: result.reason, question };
    const id = form.metadata[INTERRUPT_ID_KEY];
    parts.push(dataPart(result.answers, typeof id === 'string' ? { [INTERRUPT_ID_KEY]: id } : undefined));
  }
  return { kind: 'answered', parts };
}
