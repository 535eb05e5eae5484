import type { CompleteFn, FinishedTurn } from '../../kernel/augment.js';
import { renderTranscript } from '../render-transcript.js';
import type { GoalState } from './goal-state.js';

/** A hung evaluator must not hold the loop forever: it then pauses the goal. */
export const GOAL_EVALUATOR_TIMEOUT_MS = 120_000;

/**
 * The evaluator's instructions. Its opening words are distinctive on purpose: scripted models
 * recognise the goal evaluator by them (`system: "goal evaluator"`), apart from userAsk's.
 */
export const GOAL_EVALUATOR_SYSTEM_PROMPT = [
  'You are the goal evaluator of an agent that keeps working until a condition holds. You never talk to the user and you have no tools.',
  'You get the goal condition and the conversation transcript that ends with the turn just finished.',
  'Judge only from the transcript (tool results, files shown, what was said), not from what the agent promises, whether the condition holds now.',
  'A claim contradicted by tool errors does not count. When unsure, it is not met.',
  'When it is not met, the reason says what is still missing, as guidance for the next turn.',
  'Reply with one JSON object and nothing else: {"met": true | false, "reason": "one short sentence"}',
].join('\n');

const MAX_LATEST_CHARS = 1500;

/** What the evaluator reads: the condition, the transcript and the turn just finished. */
export function goalEvaluatorPrompt(state: GoalState, turn: FinishedTurn): string {
  const latest = (turn.text.trim() || turn.message?.trim() || '(no text)').slice(0, MAX_LATEST_CHARS);
  return [
    `<goal_condition>\n${state.condition}\n</goal_condition>`,
    `<transcript>\n${renderTranscript(turn.transcript)}\n</transcript>`,
    `<latest_turn number="${state.turns + 1}" status="${turn.status}">\n${latest}\n</latest_turn>`,
    'Judge whether the goal condition holds now and reply with the JSON object only.',
  ].join('\n\n');
}

export type GoalVerdictResult = ({ ok: true; met: boolean; reason: string } | { ok: false; error: string }) & {
  /** Tokens the evaluator spent: the goal's maxTokens counts them. */
  tokens?: number;
};

/** Longest reason kept: it is shown on one line and guides the next turn. */
export const MAX_REASON_CHARS = 500;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function findObject(reply: string): Record<string, unknown> | undefined {
  const candidates = [reply.trim()];
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start >= 0 && end > start) candidates.push(reply.slice(start, end + 1));
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * Reads `{"met": ..., "reason": ...}`. Unlike userAsk's reader this one forgives little: a reply
 * it cannot read is nonsense, and nonsense pauses the loop rather than spin it or end it.
 */
export function parseGoalVerdict(reply: string): GoalVerdictResult {
  const object = findObject(reply);
  const shown = oneLine(reply, 120);
  if (!object) return { ok: false, error: `its reply held no JSON object${shown ? `: "${shown}"` : ''}` };
  const met = typeof object.met === 'string' ? { true: true, false: false }[object.met.trim().toLowerCase()] : object.met;
  if (typeof met !== 'boolean') return { ok: false, error: `its reply had no true or false "met": "${shown}"` };
  const reason = typeof object.reason === 'string' ? oneLine(object.reason, MAX_REASON_CHARS) : '';
  if (reason === '') return { ok: false, error: `its reply gave no reason: "${shown}"` };
  return { ok: true, met, reason };
}

/** One tool-less completion judging the goal after a turn; never throws. */
export async function evaluateGoal(complete: CompleteFn, state: GoalState, turn: FinishedTurn, model?: string): Promise<GoalVerdictResult> {
  const timeout = AbortSignal.timeout(GOAL_EVALUATOR_TIMEOUT_MS);
  try {
    const reply = await complete({
      system: GOAL_EVALUATOR_SYSTEM_PROMPT,
      prompt: goalEvaluatorPrompt(state, turn),
      model,
      signal: turn.signal ? AbortSignal.any([turn.signal, timeout]) : timeout,
    });
    const tokens = (reply.usage?.inputTokens ?? 0) + (reply.usage?.outputTokens ?? 0);
    if (!reply.ok) return { ok: false, error: `the call failed: ${reply.error}`, tokens };
    return { ...parseGoalVerdict(reply.text), tokens };
  } catch (error) {
    // complete() reports provider trouble as data; anything thrown is a bug elsewhere, still not fatal here.
    return { ok: false, error: `the call failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
