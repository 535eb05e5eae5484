import { z } from 'zod';

export const OUTCOMES = ['achieved', 'blocked', 'in_progress'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** How many superseded asks are kept: enough to follow a few pivots, small enough for every prompt. */
export const MAX_REVISIONS = 8;

/** Who set the ask: the person's message, the agent's set_user_ask, or `/ask <text>`. */
export const ASK_SOURCES = ['user', 'agent', 'command'] as const;
export type AskSource = (typeof ASK_SOURCES)[number];

const revisionSchema = z.object({
  text: z.string(),
  /** When it was superseded. */
  at: z.string(),
  /** Set when the ask had already been closed (achieved or blocked) before it was superseded. */
  outcome: z.enum(OUTCOMES).optional(),
});
export type Revision = z.infer<typeof revisionSchema>;

/** The shape of `<session>/user_ask.json`. */
export const askStateSchema = z.object({
  version: z.literal(1).default(1),
  text: z.string(),
  /** False once an evaluation said achieved or blocked: kept for status, no longer judged. */
  active: z.boolean(),
  source: z.enum(ASK_SOURCES).default('user'),
  setAt: z.string().default(''),
  /** Superseded asks, oldest first, at most MAX_REVISIONS. */
  revisions: z.array(revisionSchema).default([]),
  evaluatedTurns: z.number().int().min(0).default(0),
  lastOutcome: z.enum(OUTCOMES).nullable().default(null),
  lastReason: z.string().nullable().default(null),
});
export type AskState = z.infer<typeof askStateSchema>;

/** Cuts an ask to `max` characters; a cut ask ends with an ellipsis so nobody mistakes it for the whole. */
export function capAsk(text: string, max: number): { text: string; truncated: boolean } {
  const trimmed = text.trim();
  if (trimmed.length <= max) return { text: trimmed, truncated: false };
  return { text: `${trimmed.slice(0, max - 1)}…`, truncated: true };
}

/**
 * The state after a new ask arrives. The previous ask, whatever its state, moves into the
 * revision history; restating the active ask word for word changes nothing. Replacing an
 * active ask revises the same request (its evaluation count carries on); replacing a closed one,
 * or none, starts a fresh request.
 */
export function replaceAsk(previous: AskState | undefined, text: string, source: AskSource, now: Date): AskState {
  const at = now.toISOString();
  if (previous?.active && previous.text === text) return previous;
  const fresh = !previous?.active;
  // Only a closed ask has an ending worth noting; an active one was simply revised.
  const ending = !previous?.active && previous?.lastOutcome ? { outcome: previous.lastOutcome } : {};
  const superseded: Revision[] = previous ? [{ text: previous.text, at, ...ending }] : [];
  return {
    version: 1,
    text,
    active: true,
    source,
    setAt: at,
    revisions: [...(previous?.revisions ?? []), ...superseded].slice(-MAX_REVISIONS),
    evaluatedTurns: fresh ? 0 : (previous?.evaluatedTurns ?? 0),
    lastOutcome: fresh ? null : (previous?.lastOutcome ?? null),
    lastReason: fresh ? null : (previous?.lastReason ?? null),
  };
}

/** The state after an evaluation: achieved and blocked close the ask, in progress keeps it. */
export function applyEvaluation(state: AskState, outcome: Outcome, reason: string): AskState {
  return { ...state, active: outcome === 'in_progress', evaluatedTurns: state.evaluatedTurns + 1, lastOutcome: outcome, lastReason: reason };
}

/** How an outcome reads in lines for people: `in progress`, not `in_progress`. */
export function outcomeLabel(outcome: Outcome): string {
  return outcome.replace('_', ' ');
}
