import type { CheckContext, CheckResult } from '../assertions/types.js';
import type { Scope } from '../assertions/scope.js';
import type { ScenarioImage } from './turn-media.js';

/** PromptKit's `when`: the assertion runs only if the turn's tool calls meet these, and is skipped otherwise. */
export interface AssertionWhen {
  tool_called?: string;
  tool_called_pattern?: string;
  any_tool_called?: boolean;
  min_tool_calls?: number;
}

/** An assertion checked at load time and ready to run. */
export interface CompiledAssertion {
  /** The type as written (`content_includes`, or an alias such as `contains`). */
  type: string;
  line?: number;
  column?: number;
  /** The scenario's own words for this check, shown with a failure. */
  message?: string;
  when?: AssertionWhen;
  /** With repeated runs: this assertion's own pass rate needed, instead of counting toward the run's pass. */
  passThreshold?: number;
  run(scope: Scope, context: CheckContext): Promise<CheckResult>;
}

/** Answers as a scenario writes them: text, a number, yes/no, or a list. */
export type ScriptedAnswer = string | number | boolean | (string | number)[];

/**
 * Who is at the prompt during a turn. `away` is nobody (as under --print); `scripted` answers
 * questionnaire fields from `answers` and approves the tools listed in `approve`.
 */
export type PersonScript = { kind: 'away' } | { kind: 'scripted'; answers: Record<string, ScriptedAnswer>; approve: string[] };

/**
 * PromptKit's self-play turn (`role: gemini-user`, `persona`, `turns`, `max_turns`): a persona
 * plays the person for `turns` messages, each answered by the agent as a turn of its own, up to
 * `maxTurns` when the persona may end the conversation early (PromptKit's natural termination).
 */
export interface SelfPlay {
  /** The self-play role, as the Arena's `self_play.roles` (and auggy's self-play.yaml) name it. */
  role: string;
  persona: string;
  /** Messages at least (PromptKit's `turns`; 1 when absent). */
  turns: number;
  /** Messages at most; more than `turns` lets the persona say the conversation is complete. */
  maxTurns: number;
}

export interface ScenarioTurn {
  /** 1-based. */
  index: number;
  line?: number;
  /** The person's message; absent when the step only applies an event or board lines. */
  content?: string;
  /** Image parts sent with the message, read when the turn runs. */
  images: ScenarioImage[];
  /** A workflow event applied from outside before the message. */
  event?: string;
  /** The person's board lines, written before the message. */
  board: { line: string; text: string }[];
  person: PersonScript;
  assertions: CompiledAssertion[];
  /** A self-play turn: the persona writes the messages, each checked by `assertions`. */
  selfPlay?: SelfPlay;
  /** Why this turn is loaded but not run (media parts, a self-play persona): its checks are reported skipped. */
  skip?: string;
}

export interface Scenario {
  /** The file as reports name it (relative to the working folder). */
  file: string;
  /** The folder the file is in, absolute: personas are looked for beside it. */
  folder: string;
  /** PromptKit's duplex mode: a self-play message's mock turn is counted among self-play messages only. */
  duplex: boolean;
  name: string;
  /** spec.id, else the name: what a PromptKit mock config keys its responses by. */
  id: string;
  description?: string;
  line?: number;
  /** PromptKit's `trials`: runs when --repeat is not given. */
  trials?: number;
  turns: ScenarioTurn[];
  /** Checked once after the last turn, against the whole conversation. */
  conversationAssertions: CompiledAssertion[];
}
