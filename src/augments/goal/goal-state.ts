import { z } from 'zod';

/**
 * Where a goal stands. `active`: the agent keeps the floor; `waiting`: a turn asked the person
 * and their answer resumes it; `paused`: stopped with a sentence saying why, until `/goal resume`;
 * `achieved` and `budget-exhausted` are ends, kept for `/goal` but never restored.
 */
export const GOAL_STATUSES = ['active', 'waiting', 'paused', 'achieved', 'budget-exhausted'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/** A resumed session takes its goal back only in these states. */
export const RESTORED_STATUSES: readonly GoalStatus[] = ['active', 'waiting', 'paused'];

/** How many verdicts goal.json keeps: the loop's recent history, not all of it. */
export const MAX_VERDICTS = 50;

const verdictSchema = z.object({
  met: z.boolean(),
  reason: z.string(),
  /** The turn judged, counted from 1. */
  turn: z.number().int().min(1),
  at: z.string(),
});
export type Verdict = z.infer<typeof verdictSchema>;

/** The shape of `<session>/goal.json`. */
export const goalStateSchema = z.object({
  version: z.literal(1).default(1),
  condition: z.string().min(1),
  status: z.enum(GOAL_STATUSES),
  setAt: z.string(),
  /** Turns evaluated so far: the count maxTurns bounds. */
  turns: z.number().int().min(0).default(0),
  tokens: z.number().int().min(0).default(0),
  /** Working time so far, not counting time the goal was paused or waited for the person. */
  elapsedMs: z.number().min(0).default(0),
  /** Why it is paused, or how it ended, in one sentence. */
  note: z.string().nullable().default(null),
  verdicts: z.array(verdictSchema).default([]),
});
export type GoalState = z.infer<typeof goalStateSchema>;

export function newGoal(condition: string, now: Date): GoalState {
  return { version: 1, condition, status: 'active', setAt: now.toISOString(), turns: 0, tokens: 0, elapsedMs: 0, note: null, verdicts: [] };
}

export function lastVerdict(state: GoalState): Verdict | undefined {
  return state.verdicts.at(-1);
}

/** `12s`, `4m 05s`, `1h 02m`: short enough for a status line. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
