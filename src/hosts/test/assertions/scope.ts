import type { TurnStatus } from '../../../kernel/events.js';

/** One tool call as assertions read it. */
export interface ObservedToolCall {
  name: string;
  input: unknown;
  result: string;
  isError: boolean;
}

/** A question the person was asked: request_input's prompt, or one questionnaire field. */
export interface ObservedQuestion {
  text: string;
  /** The questionnaire field; absent for request_input. */
  field?: string;
  source: 'request_input' | 'questionnaire';
}

export interface ObservedTransition {
  from: string;
  to: string;
  event: string;
}

/** The workflow as `--output json` shows it after the turn. */
export interface ObservedWorkflow {
  state: string;
  complete: boolean;
  stopped?: string;
  transitions: ObservedTransition[];
  /** The pack's validators that auggy does not run (a judge model's, `direction: input`), by declared type. */
  validatorsNotRun?: string[];
}

/** A guardrail that held a reply back, as its `workflow.guardrail` event in the session log tells it. */
export interface ObservedGuardrail {
  /** The validator's type as the pack declares it (`banned_words`). */
  validator: string;
  action: 'truncated' | 'replaced';
  explanation: string;
}

/** The userAsk verdict after the turn; `judged` is false when no evaluation ran for this turn. */
export interface ObservedAsk {
  outcome?: string;
  reason?: string;
  judged: boolean;
  error?: string;
}

/** The goal as `--output json` shows it after the step; `status` is `none` when no goal is set. */
export interface ObservedGoal {
  status: string;
  met: boolean;
  turns: number;
  reason?: string;
}

export interface ObservedBoardLine {
  text: string;
  owner: string;
  by?: string;
}

/**
 * What one assertion looks at: a turn (its reply, calls, questions and the state after it) or,
 * for `conversation_assertions`, the whole conversation. Augment state is `undefined` when the
 * agent does not have that augment, so an assertion can say so instead of passing.
 */
export interface Scope {
  kind: 'turn' | 'conversation';
  /** The reply text; in a conversation scope, every reply joined by blank lines. */
  text: string;
  /** Each assistant reply on its own (one for a turn), for checks that go reply by reply. */
  replies: string[];
  /** Undefined when this step ran no model turn (only an event or a board line). */
  status?: TurnStatus;
  /** The failure, budget or question message of the turn. */
  message?: string;
  toolCalls: ObservedToolCall[];
  questions: ObservedQuestion[];
  workflow?: ObservedWorkflow;
  ask?: ObservedAsk;
  goal?: ObservedGoal;
  board?: Record<string, ObservedBoardLine>;
  /** The conversation so far as `user:` / `assistant:` / `tool:` lines, for judges of the whole session. */
  conversation: string;
  /** The compactions of the context during the turn (in a conversation scope, during any turn). */
  compactions: ObservedCompaction[];
  /** The guardrails that triggered on the turn's replies (in a conversation scope, the last turn's); none when absent. */
  guardrails?: ObservedGuardrail[];
}

/** A compaction as its `context.compacted` event told it. */
export interface ObservedCompaction {
  reason: string;
  tokensBefore: number;
  tokensAfter: number;
}
