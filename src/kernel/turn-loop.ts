import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { BatchDecision, CallSettings, ClosingRound, ReplyReviewer, SettledToolCall, TurnHookContext } from './augment.js';
import { NOBODY, type PersonChannel } from './person.js';
import { systemLineEvent, type EmitEvent, type FailureCode, type TurnOutcome, type TurnStatus } from './events.js';
import {
  newMessageId,
  runModelStep,
  type FinishReason,
  type ModelStepRequest,
  type RequestedToolCall,
  type StepOutcome,
  type StepUsage,
} from './model-step.js';
import { runToolBatch, terminationOf, type SettledCall } from './tool-batch.js';
import type { KernelTool } from './tool.js';
import type { Interrupt } from './interrupt.js';
import { overflowAdvice } from './context/context-advice.js';
import type { ContextReading } from './context/context-meter.js';
import { holdRound } from './held-reply.js';

export interface ToolCallSummary {
  id: string;
  name: string;
  input: unknown;
  content: string;
  isError: boolean;
}

export interface TurnResult {
  status: TurnStatus;
  /** Calls left for the client to run (frontend tools); the next run's results resume the turn. */
  pendingToolCalls?: string[];
  /** The question for input-required, the reason for failed/budget-exhausted/canceled. */
  message?: string;
  /** Everything the assistant said this turn, across rounds. */
  text: string;
  toolCalls: ToolCallSummary[];
  usage: StepUsage;
  /** Why the turn's last model step stopped (`error` when the turn failed before or during it). */
  finishReason: FinishReason;
  /** The kind of failure, when the turn failed or ran out of budget. */
  code?: FailureCode;
  /** What the person is asked, when the turn ended input-required. */
  interrupts?: Interrupt[];
  /** The context meter at the turn's end (the conversation sets it). */
  context?: ContextReading;
}

/** A model failure as the kernel reports it; a bare string is a failure of unknown kind. `fault`: it without its advice. */
export type DescribedError = string | { code: FailureCode; message: string; fault?: string };

/** What the model is offered at one inference round; rebuilt every round so augments can change it. */
export interface RoundSetup {
  system: string;
  tools: KernelTool[];
  /** An augment's sampling settings for this round (a PromptPack prompt's temperature and max_tokens). */
  settings?: CallSettings;
  /** An augment's check of this round's reply (a PromptPack prompt's guardrails), run before anyone sees it. */
  review?: ReplyReviewer;
}

export interface TurnLoopOptions {
  model: LanguageModelV3;
  threadId: string;
  runId: string;
  /** The transcript so far, ending with the user's new message. */
  messages: ModelMessage[];
  /** One bound on model rounds for the whole turn, whatever states it passes through. */
  maxInferenceLoops: number;
  /** Where that bound comes from, for the budget-exhausted message. */
  roundLimitSource?: string;
  signal: AbortSignal;
  emit: EmitEvent;
  /** Who answers questions asked mid-turn; NOBODY when absent. */
  person?: PersonChannel;
  /**
   * Calls a past run left open on the person (an interrupt now answered): run again first, as a
   * batch of their own, before any model round; the person channel holds the answers. Given
   * empty, the batch is empty and still settled: augments that asked without a call (a workflow
   * ask state) get the person there, in afterBatch.
   */
  resumeCalls?: RequestedToolCall[];
  /**
   * The person's message that comes with those answers (request_input's answer, asked beside the
   * calls): it follows their results, before the model round, kept with `onUserMessage`.
   */
  resumeReply?: string;
  onUserMessage?(text: string): void;
  prepareRound(): RoundSetup;
  afterBatch?(batch: SettledToolCall[], context: TurnHookContext): Promise<BatchDecision | undefined>;
  /** Called with each assistant/tool message as it is final, so the session keeps it. */
  onMessage(message: ModelMessage): void;
  onRecord?(name: string, data: Record<string, unknown>): void;
  describeError(error: unknown, context: { receivedChars: number }): DescribedError;
  maxRetries?: number;
  /** The output limit sent with every call (engine.maxTokens). */
  maxOutputTokens?: number;
  /** Told each model call's tokens as it finishes (ACP's usage_update); the turn's total is in the result. */
  onModelUsage?(usage: StepUsage, finishReason: FinishReason): void;
  /** After each model call: the prompt tokens it reported, and how many transcript messages it sent (the meter). */
  onContextMeasured?(inputTokens: number, sentMessages: number): void;
  /**
   * Fits the conversation to the model's context: `due` before the first round (compacts when the
   * meter is over the threshold), `overflow` when the provider refused the request as too long.
   * Returns the compacted transcript when it made one, or a reason when an overflow cannot be met.
   */
  fitContext?(cause: 'due' | 'overflow'): Promise<{ messages: ModelMessage[] } | { why: string } | undefined>;
  /** What the person can do when compacting could not meet an overflow, in the host's words (`overflowAdvice`). */
  overflowAdvice?: string;
}

/** A prompt's max_tokens lowers the engine's output limit for its rounds, never raises it past what the engine allows. */
function roundOutputLimit(engine: number | undefined, asked: number | undefined): number | undefined {
  if (asked === undefined) return engine;
  return engine === undefined ? asked : Math.min(engine, asked);
}

/**
 * The limit a round's reply stopped at, as the person is told it, and where to raise it: the
 * prompt's max_tokens when it was lower than the engine's (raising engine.maxTokens would not
 * help), else engine.maxTokens.
 */
function outputLimitNote(engine: number | undefined, asked: number | undefined): { limit: string; raise: string } {
  if (asked !== undefined && (engine === undefined || asked < engine))
    return { limit: ` (the prompt's max_tokens ${asked})`, raise: "raise the prompt's max_tokens" };
  return { limit: engine !== undefined ? ` (engine.maxTokens ${engine})` : '', raise: 'raise engine.maxTokens' };
}

function assistantMessage(step: StepOutcome): ModelMessage | undefined {
  const content: Exclude<ModelMessage & { role: 'assistant' }, { content: string }>['content'] = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  for (const call of step.toolCalls) {
    content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input ?? {} });
  }
  return content.length > 0 ? { role: 'assistant', content } : undefined;
}

function toolMessage(settled: SettledCall[]): ModelMessage {
  return {
    role: 'tool',
    content: settled
      .filter(({ result }) => !result.deferred)
      .map(({ call, result }) => ({
        type: 'tool-result' as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: result.isError ? { type: 'error-text' as const, value: result.content } : { type: 'text' as const, value: result.content },
      })),
  };
}

/**
 * One turn: call the model, run its tool calls as a batch, feed the results back, and repeat
 * until the model answers without tools, a tool ends the turn, the loop budget runs out, the
 * provider fails, or the signal aborts. Failures come back as a result, never as a throw.
 */
export async function runTurnLoop(options: TurnLoopOptions): Promise<TurnResult> {
  const { emit, signal } = options;
  const messages = [...options.messages];
  const result: TurnResult = { status: 'completed', text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'other' };
  const keep = (message: ModelMessage) => {
    messages.push(message);
    options.onMessage(message);
  };
  const person = options.person ?? NOBODY;
  const finish = (given: TurnOutcome): TurnResult => {
    // Questions the person channel holds open travel with the outcome, beside request_input's own.
    const asked = given.interrupts ?? [];
    const interrupts = given.status === 'input-required' && person.openInterrupts ? person.openInterrupts(asked) : asked;
    // A call that waits on the person is no call for the client to run (request_input's own call has its result).
    const waiting = new Set(interrupts.map((interrupt) => interrupt.toolCallId));
    const forClient = given.pendingToolCalls?.filter((id) => !waiting.has(id));
    const outcome: TurnOutcome = { ...given, ...(interrupts.length > 0 ? { interrupts } : {}) };
    if (forClient !== undefined && forClient.length > 0) outcome.pendingToolCalls = forClient;
    else delete outcome.pendingToolCalls;
    if (interrupts.length > 0) result.interrupts = interrupts;
    result.status = outcome.status;
    result.message = outcome.message;
    if (outcome.pendingToolCalls) result.pendingToolCalls = outcome.pendingToolCalls;
    const code = outcome.code ?? (outcome.status === 'failed' ? 'failed' : outcome.status === 'budget-exhausted' ? 'budget_exhausted' : undefined);
    if (code) result.code = code;
    if (outcome.status === 'failed') emit({ type: 'RUN_ERROR', message: outcome.message ?? 'the turn failed', code: code ?? 'failed' });
    else emit({ type: 'RUN_FINISHED', threadId: options.threadId, runId: options.runId, result: outcome });
    return result;
  };

  /** Says `text` as the assistant's message on the event stream, without keeping it in the transcript. */
  const speak = (text: string) => {
    const messageId = newMessageId();
    emit({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' });
    emit({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta: text });
    emit({ type: 'TEXT_MESSAGE_END', messageId });
    result.text += (result.text ? '\n\n' : '') + text;
  };
  const say = (text: string) => {
    speak(text);
    keep({ role: 'assistant', content: [{ type: 'text', text }] });
  };
  /**
   * One model call. With a reviewer its events are held until the reply is whole and checked,
   * and the reply comes back as it now stands (a guardrail cut it or put the pack's message there).
   */
  const modelRound = async (request: Omit<ModelStepRequest, 'emit'>, review: ReplyReviewer | undefined): Promise<StepOutcome> => {
    if (!review) return runModelStep({ ...request, emit });
    const held = holdRound(emit);
    const step = await runModelStep({ ...request, emit: held.emit });
    const verdict = step.text !== '' && !step.aborted && step.error === undefined ? review(step.text, messages) : undefined;
    held.release(verdict);
    return verdict ? { ...step, text: verdict.text } : step;
  };
  const maxRounds = options.maxInferenceLoops;
  const source = options.roundLimitSource ?? 'settings.maxInferenceLoops';
  let rounds = 0;

  /** The turn ends, but a reply of nothing is no reply: one tool-less round, then the fallback. */
  const close = async (closing: ClosingRound): Promise<TurnResult> => {
    if (result.text === '' && rounds < maxRounds && !signal.aborted) {
      rounds++;
      const round = options.prepareRound();
      const step = await modelRound(
        { model: options.model, system: round.system, messages, tools: [], signal, maxRetries: options.maxRetries ?? 2 },
        round.review,
      );
      result.usage.inputTokens += step.usage.inputTokens;
      result.usage.outputTokens += step.usage.outputTokens;
      options.onModelUsage?.(step.usage, step.finishReason);
      if (step.text) {
        result.text = step.text;
        keep({ role: 'assistant', content: [{ type: 'text', text: step.text }] });
      }
      if (step.aborted) return finish({ status: 'canceled', message: 'canceled while the model was answering' });
    }
    if (result.text === '') say(closing.fallback);
    return finish(closing.outcome);
  };

  /** Runs one batch and records it; the turn's result when the batch ends the turn. */
  const settle = async (calls: RequestedToolCall[], tools: KernelTool[]): Promise<TurnResult | undefined> => {
    const settled = await runToolBatch(calls, tools, signal, emit, person);
    const deferred = settled.filter(({ result: r }) => r.deferred).map(({ call }) => call.toolCallId);
    if (deferred.length < settled.length) keep(toolMessage(settled));
    for (const { call, result: toolResult } of settled) {
      if (toolResult.deferred) continue;
      result.toolCalls.push({ id: call.toolCallId, name: call.toolName, input: call.input, content: toolResult.content, isError: toolResult.isError === true });
      if (toolResult.record) options.onRecord?.(call.toolName, { toolCallId: call.toolCallId, ...toolResult.record });
    }
    const decision = await options.afterBatch?.(
      settled
        .filter(({ result: r }) => !r.deferred)
        .map(({ call, result: r }) => ({
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
          content: r.content,
          isError: r.isError === true,
        })),
      { person, signal, emit },
    );
    const termination = terminationOf(settled) ?? decision?.terminate;
    // Calls left open (for the client to run, or on the person's answer) end the turn; the next
    // run's results or answers resume it. A question asked beside them is said on the stream (a
    // plain chat shows it) and travels as its interrupt, but is not kept as a reply: a reply
    // after the open calls would close them in the transcript.
    if (deferred.length > 0) {
      const asked = termination?.status === 'input-required' ? termination : undefined;
      if (asked?.message) speak(asked.message);
      return finish({ status: 'input-required', pendingToolCalls: deferred, ...(asked?.interrupts ? { interrupts: asked.interrupts } : {}) });
    }
    if (termination) {
      // The question is the reply the person sees.
      if (termination.status === 'input-required' && termination.message) say(termination.message);
      return finish(termination);
    }
    if (signal.aborted) return finish({ status: 'canceled', message: 'canceled while tools were running' });
    if (decision?.close) return close(decision.close);
    return undefined;
  };

  emit({ type: 'RUN_STARTED', threadId: options.threadId, runId: options.runId });
  if (options.resumeCalls) {
    const ended = await settle(options.resumeCalls, options.prepareRound().tools);
    if (ended) return ended;
    if (options.resumeReply !== undefined) {
      messages.push({ role: 'user', content: options.resumeReply });
      options.onUserMessage?.(options.resumeReply);
    }
  }
  const replaceTranscript = (next: readonly ModelMessage[]) => messages.splice(0, messages.length, ...next);
  const due = await options.fitContext?.('due');
  if (due && 'messages' in due) replaceTranscript(due.messages);
  /** A refusal for length is met by one compaction and one more try, never more: no compaction loop. */
  let overflowRetried = false;
  for (;;) {
    if (signal.aborted) return finish({ status: 'canceled', message: 'canceled before the model answered' });
    if (rounds >= maxRounds) {
      return finish({ status: 'budget-exhausted', message: `stopped after ${maxRounds} inference rounds (${source}) without a final answer` });
    }
    rounds++;
    const round = options.prepareRound();
    const step = await modelRound(
      {
        model: options.model,
        system: round.system,
        messages,
        tools: round.tools,
        signal,
        maxRetries: options.maxRetries ?? 2,
        maxOutputTokens: roundOutputLimit(options.maxOutputTokens, round.settings?.maxOutputTokens),
        temperature: round.settings?.temperature,
      },
      round.review,
    );
    options.onContextMeasured?.(step.usage.inputTokens, messages.length);
    result.finishReason = step.finishReason;
    result.usage.inputTokens += step.usage.inputTokens;
    result.usage.outputTokens += step.usage.outputTokens;
    options.onModelUsage?.(step.usage, step.finishReason);
    // Rounds each say their part; the person reads them as one reply, in paragraphs.
    if (step.text) result.text += (result.text ? '\n\n' : '') + step.text;

    if (step.aborted || step.error !== undefined) {
      // Keep what was said before the stop, without the tool calls that never ran.
      if (step.text) keep({ role: 'assistant', content: [{ type: 'text', text: step.text }] });
      if (step.aborted) return finish({ status: 'canceled', message: 'canceled while the model was answering' });
      const described = options.describeError(step.error, { receivedChars: step.receivedChars });
      if (typeof described !== 'string' && described.code === 'context_overflow' && options.fitContext && !step.text) {
        const fitted = overflowRetried ? undefined : await options.fitContext('overflow');
        if (fitted && 'messages' in fitted) {
          overflowRetried = true;
          replaceTranscript(fitted.messages);
          // The refused call is tried again on the compacted transcript; it does not count as a round.
          rounds--;
          continue;
        }
        const why = fitted && 'why' in fitted ? ` (${fitted.why})` : overflowRetried ? ' (it was compacted once and still does not fit)' : '';
        return finish({
          status: 'failed',
          code: 'context_overflow',
          message: `${described.fault ?? described.message}${why}; ${options.overflowAdvice ?? overflowAdvice([])}`,
        });
      }
      return finish(typeof described === 'string' ? { status: 'failed', message: described } : { status: 'failed', ...described });
    }
    const { limit, raise } = outputLimitNote(options.maxOutputTokens, round.settings?.maxOutputTokens);
    if (step.text === '' && step.toolCalls.length === 0 && result.text === '' && result.toolCalls.length === 0) {
      // Nothing said and nothing done is no answer: a script must not read it as success.
      const why = step.finishReason === 'length' ? `; it stopped at the output limit${limit} before saying anything` : '';
      return finish({ status: 'failed', code: 'empty_reply', message: `the model returned an empty reply${why}` });
    }
    if (step.finishReason === 'length') {
      emit(systemLineEvent(`the reply was cut at the output limit${limit}; ${raise} for longer replies`));
    }
    const assistant = assistantMessage(step);
    if (assistant) keep(assistant);
    if (step.toolCalls.length === 0) return finish({ status: 'completed' });

    const ended = await settle(step.toolCalls, round.tools);
    if (ended) return ended;
  }
}
