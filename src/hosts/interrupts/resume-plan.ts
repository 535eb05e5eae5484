import type { ResumeEntry } from '@ag-ui/core';
import { isExpired, type HeldInterrupt } from './held-interrupts.js';
import type { Answer } from './interrupt-person.js';

/** The new turn's message when the person dismisses request_input's question. */
export const DISMISSED = 'The person dismissed the question without answering it.';

/** What one run's `resume` does to the thread's open questions. */
export interface ResumePlan {
  /** Resume entries that answer nothing open, each said to the client and ignored. */
  warnings: string[];
  /** Open questions the run neither answers nor cancels: the run is refused. */
  uncovered: string[];
  /**
   * The answers of questionnaires and approvals, by questionnaire id: the calls that asked run
   * again (`toolCallIds`); a question no call asked (a workflow ask state) is asked again with
   * no call, in the empty batch the answering run begins with.
   */
  answers: Map<string, Answer>;
  toolCallIds: string[];
  /** request_input's answer: the message of the new turn. */
  replyText?: string;
}

function replyOf(entry: Answer['entry']): string {
  if (entry.status === 'cancelled') return DISMISSED;
  const { payload } = entry;
  const text = typeof payload === 'string' ? payload : payload === undefined || payload === null ? '' : JSON.stringify(payload);
  return text.trim() === '' ? DISMISSED : text;
}

/**
 * Squares a run's resume entries with the open questions. An expired question is answered as
 * cancelled whatever the entry says (and blocks nothing); an entry naming no open question (never
 * asked, or answered already) is ignored with a warning.
 */
export function planResume(held: readonly HeldInterrupt[], resume: readonly ResumeEntry[], now: Date): ResumePlan {
  const plan: ResumePlan = { warnings: [], uncovered: [], answers: new Map(), toolCallIds: [] };
  const open = new Map(held.map((item) => [item.interrupt.id, item]));
  const given = new Map<string, ResumeEntry>();
  for (const entry of resume) {
    if (!open.has(entry.interruptId))
      plan.warnings.push(`resume names ${entry.interruptId}, which is no open question on this thread (never asked, or answered already); it was ignored`);
    else if (given.has(entry.interruptId)) plan.warnings.push(`resume answers ${entry.interruptId} twice; the first answer counts`);
    else given.set(entry.interruptId, entry);
  }
  for (const item of held) {
    const { id } = item.interrupt;
    const expired = isExpired(item.interrupt, now);
    const entry = given.get(id);
    if (!entry && !expired) {
      plan.uncovered.push(id);
      continue;
    }
    if (expired && entry?.status === 'resolved') plan.warnings.push(`${id} expired at ${item.interrupt.expiresAt}; it was answered as cancelled`);
    const effective: Answer['entry'] = expired ? { status: 'cancelled' } : { status: entry?.status ?? 'cancelled', payload: entry?.payload };
    if (item.kind === 'reply') plan.replyText = replyOf(effective);
    else if (item.questionnaireId !== undefined) {
      plan.answers.set(item.questionnaireId, { held: item, entry: effective });
      const { toolCallId } = item.interrupt;
      if (toolCallId !== undefined && !plan.toolCallIds.includes(toolCallId)) plan.toolCallIds.push(toolCallId);
    }
  }
  return plan;
}
