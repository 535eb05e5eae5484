import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { LoadedAgent, Diagnostic, AugmentType } from '../agent/types.js';
import type { EmitEvent, FailureCode, TurnOutcome } from './events.js';
import type { KernelTool } from './tool.js';
import type { PersonChannel } from './person.js';
import type { SessionHandle } from '../session/session.js';
import type { HostScope } from './host-scope.js';

/** Output of a slash command, shown to the person as system lines. */
export interface CommandOutput {
  lines: string[];
  isError?: boolean;
  /**
   * A turn to start once the lines are shown (`/goal <condition>` starts working on it at once).
   * Without `by`, `message` is the person's (Conversation.runTurn); with it, it is that
   * augment's directive (Conversation.continueTurn). Every host that runs commands in a turn's
   * place honours it; serve's POST /agent/command, which runs none, says so in its answer.
   */
  startTurn?: { message: string; by?: string };
}

export interface SlashCommand {
  /** Without the slash: `ask`. */
  name: string;
  /** One line for `/help`. */
  summary: string;
  usage?: string;
  /** True when the command may run while a turn is in progress (board edits). */
  duringTurn?: boolean;
  run(args: string): Promise<CommandOutput> | CommandOutput;
}

export interface HostInputResult {
  ok: boolean;
  /** The sentence for the command line, naming the flag (`--board progress: ...`). */
  message: string;
  /**
   * A refusal's reason without the flag's name, for hosts that take the same input another way
   * (serve's board writes, a scenario's turns) and word its subject themselves.
   */
  reason?: string;
  /** No enabled augment takes this input at all. */
  unclaimed?: true;
}

/** A settled tool batch, as augments see it after every tool of one response finished. */
export interface SettledToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  content: string;
  isError: boolean;
}

/** What an augment may decide once a batch has settled: end the turn now, or after a closing round. */
export interface BatchDecision {
  terminate?: TurnOutcome;
  /**
   * End the turn with `outcome`, but not with nothing said: when the turn has no text yet, one
   * more round runs without tools (a terminal workflow state speaks), and if that says nothing
   * too, `fallback` is the reply.
   */
  close?: ClosingRound;
}

export interface ClosingRound {
  outcome: TurnOutcome;
  fallback: string;
}

/** How many model rounds one turn may take, and who said so, for the budget-exhausted message. */
export interface RoundLimit {
  rounds: number;
  source: string;
}

/** What a hook running inside a turn can reach: the person, the turn's signal, the event stream. */
export interface TurnHookContext {
  person: PersonChannel;
  signal: AbortSignal;
  emit: EmitEvent;
}

export interface FinishedTurn {
  /** The turn's signal: Esc during an after-turn evaluation stops it too. */
  signal?: AbortSignal;
  status: TurnOutcome['status'];
  message?: string;
  text: string;
  /** The conversation so far, including this turn. */
  transcript: ModelMessage[];
  /** The tokens the turn's model rounds spent (its augments' own calls not counted). */
  usage?: CompletionUsage;
  /** The names of the tools the turn called, in order. */
  toolCalls?: readonly string[];
  /** How long the turn waited on the person's answers (a questionnaire, an approval), in ms. */
  personWaitMs?: number;
}

/**
 * What an after-turn hook may decide about the floor. `continueWith` starts the next turn at
 * once with that directive as its message (the agent keeps the floor: a goal not met yet);
 * `release` gives the floor back and says how the whole run ended when that differs from the
 * last turn's own status (a goal out of budget after a completed turn). The kernel drops a
 * continuation after a turn that asked the person or was canceled: the person's turn wins.
 */
export interface AfterTurnDecision {
  continueWith?: string;
  release?: { status: TurnOutcome['status']; message: string };
}

/** A one-off completion with no tools, for augments that need to ask a model something (evaluators). */
export type CompleteFn = (request: {
  system: string;
  prompt: string;
  /** `provider:model`; the agent's own model when absent. */
  model?: string;
  signal?: AbortSignal;
  /** The reply's output limit; an evaluator's line of JSON (COMPLETION_MAX_TOKENS) when absent. */
  maxOutputTokens?: number;
  /** Tries after a retryable refusal; 2 when absent (`auggy doctor` asks once, to say at once). */
  maxRetries?: number;
}) => Promise<({ ok: true; text: string } | { ok: false; error: string; code?: FailureCode }) & { usage?: CompletionUsage }>;

/** Sampling settings an augment asks for on the next model call (a PromptPack prompt's `parameters`). */
export interface CallSettings {
  temperature?: number;
  /** Lowers the output limit for the call; the engine's own limit still caps it. */
  maxOutputTokens?: number;
}

/** A reply an augment holds back before the person sees it (a PromptPack guardrail), and what stands instead. */
export interface ReplyVerdict {
  /** The reply as it now stands: what the person is shown, the transcript keeps and the model reads next. */
  text: string;
  /** One line for the person: what was held back and why. */
  line: string;
  /** Kept in the session log beside the line, for hosts and `auggy test` to read. */
  event?: { name: string; value: unknown };
}

/** Checks a model round's text, given the transcript before it; undefined lets it stand. */
export type ReplyReviewer = (reply: string, transcript: readonly ModelMessage[]) => ReplyVerdict | undefined;

/** Tokens a completion spent; the host counts them in the turn's usage. */
export interface CompletionUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Per-session instance of an augment. Every hook is optional: an augment adds only what it needs. */
export interface Augment {
  readonly id: string;
  /** Tools offered at the next inference round. */
  tools?(): KernelTool[];
  /**
   * Narrows the tools every augment offered for the next round (a workflow state offers only its
   * own tools). Called after all `tools()` have been collected.
   */
  filterTools?(tools: KernelTool[]): KernelTool[];
  /** Text of this augment's `<augment id="...">` block at the next round; undefined leaves it out. */
  promptBlock?(): string | undefined;
  commands?(): SlashCommand[];
  /** Short status-line text such as `? ask (2)`. */
  indicator?(): string | undefined;
  /** Called with the person's message before the turn starts. */
  onUserMessage?(text: string): Promise<void> | void;
  afterBatch?(batch: SettledToolCall[], context: TurnHookContext): Promise<BatchDecision | undefined> | BatchDecision | undefined;
  // biome-ignore lint/suspicious/noConfusingVoidType: an augment that only watches the turn (userAsk, mcp) returns nothing.
  afterTurn?(turn: FinishedTurn): Promise<AfterTurnDecision | void> | AfterTurnDecision | void;
  /**
   * Set while this augment keeps the floor across turns (an active goal): a short name for what
   * holds it, so a chat asks for Esc twice before it cancels a turn the person did not start.
   */
  holdsFloor?(): string | undefined;
  /**
   * A directive to start a turn with as soon as a resumed session opens (a goal left running
   * when the last process stopped); hosts with someone at the prompt honour it.
   */
  pendingContinuation?(): string | undefined;
  /**
   * A host flag meant for an augment, applied before the turn: `--event Name` arrives as
   * ('event', 'Name'), `--board line=text` as ('board', 'line=text'). Return `undefined` when the
   * input is not this augment's, `{ ok: false }` to refuse it (the host exits 2 with the message).
   */
  hostInput?(name: string, value: string): Promise<HostInputResult | undefined> | HostInputResult | undefined;
  /**
   * State shared with clients (the board): sent whole as AG-UI STATE_SNAPSHOT when a run starts;
   * the augment emits STATE_DELTA itself on each change.
   */
  sharedState?(): Record<string, unknown> | undefined;
  /**
   * Checks a host flag without applying it, so a refused flag stops the run before any other flag
   * has changed anything. Undefined when the input is not this augment's or it cannot tell.
   */
  checkHostInput?(name: string, value: string): HostInputResult | undefined;
  /** A client's shared state (AG-UI `state` in the run input), applied before the turn. */
  applyClientState?(state: Record<string, unknown>): Promise<void> | void;
  /** The conversation was cleared (`/clear`): drop what belongs to it. */
  onCleared?(): Promise<void> | void;
  /**
   * Raises the bound on model rounds per turn (settings.maxInferenceLoops); the highest asked for
   * applies to the whole turn, across every state a workflow passes through.
   */
  roundLimit?(): RoundLimit | undefined;
  /** Settings for the next model call; asked every round, so a workflow state's prompt brings its own. The first augment that sets one wins. */
  callSettings?(): CallSettings | undefined;
  /**
   * Checks the next round's reply before anyone sees it (a workflow state's guardrails); asked
   * every round. While one is set the kernel shows a round's text once it is whole, not as it
   * streams, so a reply held back is never shown. The first augment that sets one wins.
   */
  replyReviewer?(): ReplyReviewer | undefined;
  /** Fields this augment adds to `--output json` (e.g. `{ ask: {...} }`), merged at the top level. */
  snapshot?(): Record<string, unknown> | undefined;
}

export interface AugmentSetup {
  agent: LoadedAgent;
  augmentId: string;
  config: Record<string, unknown>;
  session: SessionHandle;
  emit: EmitEvent;
  complete: CompleteFn;
  /** Reports a problem that does not stop the run (corrupt state file set aside, ...). */
  warn(message: string): void;
  /** What the process shares across conversations: resources opened once, `--allow-tool`. Conversations always pass it. */
  host?: HostScope;
}

export interface AdminRow {
  label: string;
  value: string;
}

export interface AdminSection {
  id: string;
  type: string;
  tools: string[];
  behavior: string;
  rows: AdminRow[];
}

/**
 * An augment type: how to check its config, describe it and start it for a session. The kernel
 * defines this seam and augments implement it; the kernel names none of them, and starts those of
 * the list its host hands to the conversation.
 */
export interface AugmentFactory extends AugmentType {
  type: string;
  /** The augment's behaviour in one sentence. */
  summary: string;
  /** Skill folder under templates/skills/ that `auggy create --augment` copies, if any. */
  skill?: string;
  /** Checks `config`; `file` is augment.yaml relative to `agentDir`, where config paths resolve. */
  validateConfig(config: Record<string, unknown>, file: string, agentDir: string): Diagnostic[];
  describe(agent: LoadedAgent, config: Record<string, unknown>): AdminSection;
  create(setup: AugmentSetup): Augment | Promise<Augment>;
  /**
   * Looks beyond the folder (an MCP server's tools): only `auggy validate`, `auggy admin` and
   * `auggy mcp list` call it, never a turn, so an unreachable server costs them alone.
   */
  probe?(agent: LoadedAgent, config: Record<string, unknown>): Promise<AugmentProbe>;
  /** Files `auggy create --augment` writes at the agent root: output path → path under templates/. */
  rootTemplates?: Readonly<Record<string, string>>;
}

/** What a probe found: rows and tools for admin, findings for validate. */
export interface AugmentProbe {
  rows: AdminRow[];
  tools: string[];
  diagnostics: Diagnostic[];
  /** Tools this augment needs another to offer (a pack's prompt tools): validate warns for each that none offers. */
  wantedTools?: { tool: string; file: string; message: string; matches(offered: string): boolean }[];
}
