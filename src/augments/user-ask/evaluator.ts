import type { FailureCode } from '../../kernel/events.js';
import type { CompleteFn, FinishedTurn } from '../../kernel/augment.js';
import { outcomeLabel, type AskState } from './ask-state.js';
import { parseEvaluation, type Evaluation } from './parse-evaluation.js';
import { renderTranscript } from '../render-transcript.js';

/** A hung evaluator must not hold the conversation forever; the ask then stays as it was. */
export const EVALUATOR_TIMEOUT_MS = 120_000;

/**
 * The evaluator's instructions. Its opening words are distinctive on purpose: scripted models
 * (the bundled demo) recognise the evaluator call by them.
 */
export const EVALUATOR_SYSTEM_PROMPT = [
  'You are the turn evaluator for a tracked user request. You never talk to the user and you have no tools.',
  'You get the request (the ask), any earlier versions of it, and the conversation transcript that ends with the turn just finished.',
  'Judge only from the transcript, not from what the agent promises, which outcome fits the ask now:',
  '- "achieved": the transcript shows the request done or fully answered. A claim contradicted by tool errors does not count.',
  '- "blocked": the request cannot go on as asked: missing access, an impossible or refused request, a failure the agent cannot get around.',
  '- "in_progress": part of it is done or under way, or the agent asked the user a question and the request is still wanted.',
  'When unsure whether it is achieved, it is not achieved.',
  'Reply with one JSON object and nothing else: {"outcome": "achieved" | "blocked" | "in_progress", "reason": "one short sentence"}',
].join('\n');

/** The longest latest-turn reply quoted on its own (the transcript has it too). */
const MAX_LATEST_CHARS = 1500;

function earlierAsks(state: AskState): string | undefined {
  if (state.revisions.length === 0) return undefined;
  const lines = state.revisions.map((revision) => `- ${revision.outcome ? `[${outcomeLabel(revision.outcome)}] ` : ''}${revision.text}`);
  return `<earlier_asks oldest_first="true">\n${lines.join('\n')}\n</earlier_asks>`;
}

/** What the evaluator reads: the ask, its earlier versions, the transcript, and the turn just finished. */
export function evaluatorPrompt(state: AskState, turn: FinishedTurn): string {
  const latest = (turn.text.trim() || turn.message?.trim() || '(no text)').slice(0, MAX_LATEST_CHARS);
  return [
    `<ask>\n${state.text}\n</ask>`,
    earlierAsks(state),
    `<transcript>\n${renderTranscript(turn.transcript)}\n</transcript>`,
    `<latest_turn status="${turn.status}">\n${latest}\n</latest_turn>`,
    'Judge the latest turn against the ask and reply with the JSON object only.',
  ]
    .filter((part): part is string => part !== undefined)
    .join('\n\n');
}

export type EvaluatorResult = ({ ok: true } & Evaluation) | { ok: false; error: string; code: FailureCode };

/** One tool-less completion judging the turn; never throws. */
export async function evaluateTurn(complete: CompleteFn, state: AskState, turn: FinishedTurn, model?: string): Promise<EvaluatorResult> {
  try {
    const reply = await complete({
      system: EVALUATOR_SYSTEM_PROMPT,
      prompt: evaluatorPrompt(state, turn),
      model,
      signal: turn.signal ? AbortSignal.any([turn.signal, AbortSignal.timeout(EVALUATOR_TIMEOUT_MS)]) : AbortSignal.timeout(EVALUATOR_TIMEOUT_MS),
    });
    // A failure of unknown kind is told to a remote client as the server's own trouble.
    if (!reply.ok) return { ok: false, error: reply.error, code: reply.code ?? 'internal_error' };
    return { ok: true, ...parseEvaluation(reply.text) };
  } catch (error) {
    // complete() reports provider trouble as data; anything thrown is a bug elsewhere, still not fatal here.
    return { ok: false, error: error instanceof Error ? error.message : String(error), code: 'internal_error' };
  }
}
