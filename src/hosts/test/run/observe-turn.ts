import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { KernelEvent } from '../../../kernel/events.js';
import type { TurnResult } from '../../../kernel/turn-loop.js';
import { questionOf } from '../../../augments/questions/index.js';
import { EVALUATION_EVENT, type EvaluationEventValue } from '../../../augments/user-ask/judge-turn.js';
import { renderTranscript } from '../../../augments/render-transcript.js';
import { approvalFor } from './scenario-person.js';
import { CONTEXT_COMPACTED_EVENT } from '../../../kernel/context/context-events.js';
import { GUARDRAIL_EVENT } from '../../../augments/workflow/guardrail-event.js';
import type {
  ObservedAsk,
  ObservedBoardLine,
  ObservedCompaction,
  ObservedGoal,
  ObservedGuardrail,
  ObservedQuestion,
  ObservedWorkflow,
  Scope,
} from '../assertions/scope.js';

const REQUEST_INPUT = 'request_input';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The workflow as the `workflow` key of `--output json` has it; undefined without the augment. */
function workflowOf(snapshot: Record<string, unknown>): ObservedWorkflow | undefined {
  const value = snapshot.workflow;
  if (!isRecord(value)) return undefined;
  const transitions = Array.isArray(value.transitions) ? value.transitions.filter(isRecord) : [];
  return {
    state: String(value.state ?? ''),
    complete: value.complete === true,
    ...(typeof value.stopped === 'string' ? { stopped: value.stopped } : {}),
    transitions: transitions.map((move) => ({ from: String(move.from ?? ''), to: String(move.to ?? ''), event: String(move.event ?? '') })),
    ...(Array.isArray(value.validatorsNotRun) ? { validatorsNotRun: value.validatorsNotRun.map(String) } : {}),
  };
}

function boardOf(snapshot: Record<string, unknown>): Record<string, ObservedBoardLine> | undefined {
  const value = snapshot.board;
  if (!isRecord(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).flatMap(([name, line]) =>
      isRecord(line)
        ? [[name, { text: String(line.text ?? ''), owner: String(line.owner ?? ''), ...(typeof line.by === 'string' ? { by: line.by } : {}) }]]
        : [],
    ),
  );
}

/** The goal after the step, as the `goal` key of `--output json` has it; undefined without the augment. */
function goalOf(snapshot: Record<string, unknown>): ObservedGoal | undefined {
  if (!('goal' in snapshot)) return undefined;
  const value = snapshot.goal;
  if (!isRecord(value)) return { status: 'none', met: false, turns: 0 };
  return {
    status: String(value.status ?? ''),
    met: value.met === true,
    turns: typeof value.turns === 'number' ? value.turns : 0,
    ...(typeof value.reason === 'string' ? { reason: value.reason } : {}),
  };
}

/** This turn's userAsk verdict from its evaluation event; undefined when the agent has no userAsk. */
function askOf(snapshot: Record<string, unknown>, events: readonly KernelEvent[]): ObservedAsk | undefined {
  if (!('ask' in snapshot)) return undefined;
  const evaluation = events.findLast((event) => event.type === 'CUSTOM' && event.name === EVALUATION_EVENT);
  if (evaluation?.type !== 'CUSTOM') return { judged: false };
  const value = evaluation.value as EvaluationEventValue;
  if (!value.ok) return { judged: false, error: value.error };
  return { judged: true, outcome: value.outcome ?? undefined, reason: value.reason };
}

/** request_input's prompts and every questionnaire field put to the person during the turn. */
function questionsOf(events: readonly KernelEvent[], result: TurnResult | undefined): ObservedQuestion[] {
  const questions: ObservedQuestion[] = [];
  for (const call of result?.toolCalls ?? []) {
    const prompt = isRecord(call.input) ? call.input.prompt : undefined;
    if (call.name === REQUEST_INPUT && !call.isError && typeof prompt === 'string') questions.push({ text: prompt, source: 'request_input' });
  }
  if (result?.status === 'input-required' && result.message && !questions.some((question) => question.text === result.message)) {
    questions.push({ text: result.message, source: 'request_input' });
  }
  for (const event of events) {
    const question = questionOf(event);
    // A field re-asked after a refused answer is the same question; it is counted once. An
    // approval is the person's yes to a tool, not a question the agent asked.
    if (question && !question.error && approvalFor(question) === undefined)
      questions.push({ text: question.question, field: question.field, source: 'questionnaire' });
  }
  return questions;
}

function compactionsOf(events: readonly KernelEvent[]): ObservedCompaction[] {
  return events.flatMap((event) => {
    if (event.type !== 'CUSTOM' || event.name !== CONTEXT_COMPACTED_EVENT || !isRecord(event.value)) return [];
    const { reason, tokensBefore, tokensAfter } = event.value;
    return [{ reason: String(reason), tokensBefore: Number(tokensBefore) || 0, tokensAfter: Number(tokensAfter) || 0 }];
  });
}

/**
 * The guardrails that held back the turn's last reply, from their events (the session log keeps
 * the same): PromptKit's guardrail_triggered reads the last assistant message's validations, and
 * a verdict's event follows the text of the reply it judged.
 */
function guardrailsOf(events: readonly KernelEvent[]): ObservedGuardrail[] {
  const lastReply = events.findLastIndex((event) => event.type === 'TEXT_MESSAGE_START');
  return events.slice(Math.max(0, lastReply)).flatMap((event) => {
    if (event.type !== 'CUSTOM' || event.name !== GUARDRAIL_EVENT || !isRecord(event.value)) return [];
    const { validator, action, explanation } = event.value;
    return [
      { validator: String(validator), action: action === 'truncated' ? ('truncated' as const) : ('replaced' as const), explanation: String(explanation ?? '') },
    ];
  });
}

export interface TurnObservation {
  events: readonly KernelEvent[];
  /** Undefined for a step that ran no model turn (only an event or board lines). */
  result?: TurnResult;
  /** `conversation.snapshot()` after the turn. */
  snapshot: Record<string, unknown>;
  transcript: readonly ModelMessage[];
}

/** What a turn's assertions look at, from the events the host saw and the state after it. */
export function turnScope(observation: TurnObservation): Scope {
  const { result, snapshot, events } = observation;
  const text = result?.text ?? '';
  return {
    kind: 'turn',
    text,
    replies: text === '' ? [] : [text],
    status: result?.status,
    message: result?.message,
    toolCalls: (result?.toolCalls ?? []).map((call) => ({ name: call.name, input: call.input, result: call.content, isError: call.isError })),
    questions: questionsOf(events, result),
    workflow: workflowOf(snapshot),
    ask: askOf(snapshot, events),
    goal: goalOf(snapshot),
    board: boardOf(snapshot),
    conversation: renderTranscript(observation.transcript),
    compactions: compactionsOf(events),
    guardrails: guardrailsOf(events),
  };
}

/** The whole conversation as one scope for `conversation_assertions`: every turn's part, the state at the end. */
export function conversationScope(turns: readonly Scope[]): Scope {
  const ran = turns.filter((turn) => turn.status !== undefined);
  const last = turns.at(-1);
  const replies = turns.flatMap((turn) => turn.replies);
  return {
    kind: 'conversation',
    text: replies.join('\n\n'),
    replies,
    status: ran.at(-1)?.status,
    message: ran.at(-1)?.message,
    toolCalls: turns.flatMap((turn) => turn.toolCalls),
    questions: turns.flatMap((turn) => turn.questions),
    workflow: last?.workflow,
    goal: last?.goal,
    ask: [...turns].reverse().find((turn) => turn.ask?.judged)?.ask ?? last?.ask,
    board: last?.board,
    conversation: last?.conversation ?? '',
    compactions: turns.flatMap((turn) => turn.compactions),
    guardrails: ran.at(-1)?.guardrails ?? [],
  };
}
