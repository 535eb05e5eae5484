import type { ResumeEntry } from '@ag-ui/core';
import type { Conversation, ConversationTurn, TurnOptions } from '../../kernel/conversation.js';
import type { Interrupt } from '../../kernel/interrupt.js';
import type { SessionHandle } from '../../session/session.js';
import { readHeld, writeHeld, type HeldInterrupt } from './held-interrupts.js';
import { InterruptPerson } from './interrupt-person.js';
import { planResume, type ResumePlan } from './resume-plan.js';

/**
 * A run for a remote client that answers questions later (an AG-UI 1.0 client, an A2A caller):
 * the thread's open questions, what this run's answers settle, and the person who holds new ones.
 */
export interface InterruptRun {
  /** The thread's open questions as this run found them. */
  held: HeldInterrupt[];
  plan: ResumePlan;
  person: InterruptPerson;
}

/** Reads the thread's open questions and squares them with the answers this run brings. */
export function interruptRun(session: SessionHandle, resume: readonly ResumeEntry[], waitMs: number | undefined, warn: (line: string) => void): InterruptRun {
  const held = readHeld(session, warn);
  const plan = planResume(held, resume, new Date());
  const expiresAt = () => (waitMs === undefined ? undefined : new Date(Date.now() + waitMs).toISOString());
  return { held, plan, person: new InterruptPerson(plan.answers, expiresAt) };
}

/**
 * The turn that carries on from the answers: the calls that waited run again with them, or, for
 * request_input's answer alone, a new turn whose message is the answer. Undefined when the
 * answers settle nothing (the plan's warnings say why).
 */
export function answersTurn(conversation: Conversation, asking: InterruptRun, options: Omit<TurnOptions, 'person'>): (() => Promise<ConversationTurn>) | undefined {
  const { person, plan } = asking;
  const { answers, toolCallIds, replyText } = plan;
  if (answers.size > 0) return () => conversation.resumeAnswered({ ...options, person, toolCallIds, ...(replyText !== undefined ? { reply: replyText } : {}) });
  if (replyText !== undefined) return () => conversation.runTurn(replyText, { ...options, person });
  return undefined;
}

/**
 * The questions this run leaves open (the person channel holds request_input's too), saved in
 * the session in place of those it answered, so a restarted server or another replica finds them.
 */
export async function holdOpen(conversation: Conversation, asking: InterruptRun): Promise<Interrupt[]> {
  const held = asking.person.heldRecords();
  await writeHeld(conversation.session, held);
  return held.map((item) => item.interrupt);
}
