import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { LoadedAgent } from '../agent/types.js';
import type { Augment, CompleteFn, HostInputResult, SlashCommand, AugmentFactory } from './augment.js';
import { createModelCache, type ModelBuilder } from '../model/model-cache.js';
import { classifyModelError } from '../model/describe-error.js';
import { describeModel, maxTokensOf, type ModelOverrides, type ModelSpec } from '../model/model-spec.js';
import { MODEL_RECORD, chooseModel, openingModel } from './session-model.js';
import { costOf, priceOf } from '../model/model-prices.js';
import { newRunId } from '../session/ids.js';
import { folderStore } from '../session/folder-store.js';
import type { SessionHandle } from '../session/session.js';
import type { SessionEntry } from '../session/entries.js';
import type { SessionStore, WriterLease } from '../session/store.js';
import { openToolCalls, transcriptFromEntries, unansweredResults, userMessage } from '../session/transcript.js';
import { loadAttachment, saveAttachment, type AttachmentRef } from '../session/attachments.js';
import { imageRefusal, type ImageInput } from './image-input.js';
import type { FailureCode } from './events.js';
import { makeComplete } from './complete.js';
import { SessionWriter } from './session-writer.js';
import { SYSTEM_LINE_EVENT, type KernelEvent } from './events.js';
import { createHostScope, type HostScope } from './host-scope.js';
import { augmentBlocks, buildSystemPrompt } from './system-prompt.js';
import { timedPerson } from './person.js';
import { runTurnLoop, type TurnResult } from './turn-loop.js';
import type {
  AdoptedMessage,
  AnsweredCallsOptions,
  ClientToolResult,
  ConversationOptions,
  ConversationTurn,
  EventListener,
  TurnOptions,
} from './conversation-types.js';
// The types are part of the conversation's surface: its callers import them from here.
export type * from './conversation-types.js';
import { knownMessageIds, openCallsAmong } from './transcript-queries.js';
import {
  decideAfterBatch,
  decideAfterTurn,
  reviewerOfRound,
  settingsOfRound,
  toolsOfRound,
  turnFailedBeforeModel,
  type FloorAfterTurn,
} from './augment-decisions.js';
import { compactPolicy } from './context/compact-policy.js';
import { overflowAdvice } from './context/context-advice.js';
import { ContextKeeper, type CompactResult } from './context/context-keeper.js';
import { CONTEXT_USAGE_EVENT } from './context/context-events.js';
import type { ContextReading } from './context/context-meter.js';

/** After a turn that asked the person or was canceled, the person holds the floor, whatever an augment wants. */
const PERSON_HOLDS_FLOOR: readonly TurnResult['status'][] = ['input-required', 'canceled'];

/** Why a turn ends before anything of it is kept: the person's message is refused as it stands. */
interface RefusedStart {
  refused: string;
  code: FailureCode;
}

/**
 * One agent talking in one session: the kernel wired to the session log and the augments.
 * Hosts (TUI, print, serve) drive it and listen to its events; they know nothing of each other.
 */
export class Conversation {
  readonly agent: LoadedAgent;
  private readonly augmentTypes: readonly AugmentFactory[];
  private spec: ModelSpec;
  private readonly modelOverrides: ModelOverrides | undefined;
  /** The completion of the model in use now; replaced when the model is switched. */
  private completeOnModel: CompleteFn;
  readonly session: SessionHandle;
  private readonly warn: (message: string) => void;
  private readonly listeners = new Set<EventListener>();
  private readonly log: SessionWriter;
  private augmentList: Augment[] = [];
  private messages: ModelMessage[] = [];
  private readonly models: ModelBuilder;
  private readonly store: SessionStore | undefined;
  private currentTurnId: string | undefined;
  /** The last append asked of the session, settled (never rejected) once it is saved or refused. */
  private logTail: Promise<void> = Promise.resolve();
  /** Why the session refused an append: nothing more is logged until the next turn (SessionHandle.append). */
  private logFailure: string | undefined;
  private running = false;
  /** How many asWriter calls are inside the session's writer lease right now. */
  private writerDepth = 0;
  /** The lease asWriter holds now, so a turn inside it stops if the lease is lost. */
  private heldLease: WriterLease | undefined;
  private completionUsage = { inputTokens: 0, outputTokens: 0 };
  readonly complete: CompleteFn;
  readonly host: HostScope;
  private readonly ownsHost: boolean;
  /** The context meter and compaction (engine.maxContextTokens, engine.compact). */
  private readonly context: ContextKeeper;
  /** The host's own ways to make room in a long conversation (ConversationOptions.contextRemedies). */
  private readonly contextRemedies: readonly string[];

  private constructor(options: ConversationOptions) {
    this.agent = options.agent;
    this.augmentTypes = options.augmentTypes;
    this.spec = options.modelSpec;
    this.modelOverrides = options.modelOverrides;
    this.session = options.session;
    this.warn = options.warn;
    this.models = options.models ?? createModelCache();
    this.log = new SessionWriter((entry) => this.persist(entry));
    this.store = options.store;
    this.host = options.host ?? createHostScope();
    this.ownsHost = options.host === undefined;
    this.contextRemedies = options.contextRemedies ?? [];
    this.completeOnModel = makeComplete(options.agent, options.modelSpec, this.models);
    // Evaluators spend tokens for the turn they judge; the turn's usage says so.
    this.complete = async (request) => {
      const reply = await this.completeOnModel(request);
      this.completionUsage.inputTokens += reply.usage?.inputTokens ?? 0;
      this.completionUsage.outputTokens += reply.usage?.outputTokens ?? 0;
      return reply;
    };
    const maxOutputTokens = maxTokensOf(options.modelSpec);
    const policy = compactPolicy(options.agent.engine, maxOutputTokens);
    this.context = new ContextKeeper({
      policy,
      complete: this.complete,
      system: () => this.systemPrompt(),
      besides: () => augmentBlocks(this.augmentList),
      messages: () => this.messages,
      savedEntries: async () => {
        const failure = await this.logSaved();
        return failure !== undefined ? { why: `the session could not be saved: ${failure}` } : { entries: this.session.entries().entries };
      },
      save: async (entry) => {
        this.log.entry(this.currentTurnId !== undefined ? { ...entry, turnId: this.currentTurnId } : entry);
        return this.logSaved();
      },
      adopt: (messages) => {
        this.messages = messages;
      },
      emit: (event) => this.emit(event),
      loadAttachment: (ref) => loadAttachment(this.session, ref),
      remedies: this.contextRemedies,
      // A summary is a page, not an essay: at most 2,048 tokens, and never more than a sixth of the window.
      summaryTokens: Math.max(256, Math.min(maxOutputTokens, 2048, policy.limit !== undefined ? Math.floor(policy.limit / 6) : 2048)),
    });
  }

  private systemPrompt(): string {
    return buildSystemPrompt(this.agent.identity, this.agent.skills, this.augmentList);
  }

  /** The context meter now: tokens in use and the window (engine.maxContextTokens), when stated. */
  contextReading(): ContextReading {
    return this.context.reading();
  }

  /**
   * `/compact [what to keep]`: the earlier conversation replaced by a summary now, between turns,
   * as the session's writer. Says in its result (and in a line on the stream) what it did or why not.
   */
  async compact(keepHint?: string): Promise<CompactResult> {
    if (this.running) return { ok: false, why: 'a turn is running; compact once it has ended', busy: true };
    this.running = true;
    try {
      return await this.asWriter(async () => {
        await this.logTail;
        this.logFailure = undefined;
        try {
          return await this.context.compact('command', keepHint?.trim() || undefined);
        } finally {
          this.log.flush();
        }
      });
    } finally {
      this.running = false;
    }
  }

  /** Opens a conversation on a session: rebuilds the transcript and starts each augment for it. */
  static async open(options: ConversationOptions): Promise<Conversation> {
    const { entries, warnings } = options.session.entries();
    const modelSpec = openingModel(options.agent, options.modelSpec, options.modelOverrides, entries, options.warn);
    const conversation = new Conversation({ ...options, modelSpec });
    warnings.forEach((warning) => options.warn(warning));
    conversation.messages = transcriptFromEntries(entries, (ref) => loadAttachment(options.session, ref));
    conversation.context.resume(entries);
    for (const config of options.agent.augments) {
      const factory = options.augmentTypes.find((candidate) => candidate.type === config.type);
      if (!factory) continue;
      conversation.augmentList.push(
        await factory.create({
          agent: options.agent,
          augmentId: config.id,
          config: config.config,
          session: options.session,
          emit: (event) => conversation.emit(event),
          complete: conversation.complete,
          warn: options.warn,
          host: conversation.host,
        }),
      );
    }
    return conversation;
  }

  /** The model turns run on: the host's, or the one the session switched to. */
  get modelSpec(): ModelSpec {
    return this.spec;
  }

  /**
   * `/model provider:model`: the rest of the session runs on that model, read as `--model` is
   * read. The choice is kept in the session's log, so a resumed session goes on with it, and said
   * on the stream; a spec that cannot be used is one sentence and nothing changes.
   */
  async switchModel(ref: string): Promise<{ ok: true; model: string } | { ok: false; why: string }> {
    if (this.running) return { ok: false, why: 'a turn is running; switch the model once it has ended' };
    // Held from the check on: a turn asked for while the model is built waits, rather than run on
    // the model the switch replaces under it.
    this.running = true;
    let saved: { ok: true; model: string } | { ok: false; why: string };
    const before = describeModel(this.spec);
    let model = before;
    try {
      const chosen = chooseModel(this.agent, this.modelOverrides ?? {}, ref);
      if (!chosen.ok) return chosen;
      const built = await this.models(chosen.spec);
      if (!built.ok) return { ok: false, why: built.error };
      model = describeModel(chosen.spec);
      saved = await this.asWriter(async () => {
        await this.logTail;
        this.logFailure = undefined;
        this.spec = chosen.spec;
        this.completeOnModel = makeComplete(this.agent, chosen.spec, this.models);
        this.log.entry({ kind: 'record', name: MODEL_RECORD, data: { model, was: before }, at: new Date().toISOString() });
        const failure = await this.logSaved();
        return failure === undefined ? { ok: true as const, model } : { ok: false as const, why: `the session could not be saved: ${failure}` };
      });
    } finally {
      this.running = false;
    }
    // Said once the next turn may start: the person reads it as the switch being done.
    if (saved.ok) this.systemLine(`model: ${model} from here on in this session (was ${before})`);
    return saved;
  }

  /** Where the session is kept: its store when the host named one, the agent folder otherwise. */
  get sessionStore(): SessionStore | undefined {
    return this.store;
  }

  get augments(): readonly Augment[] {
    return this.augmentList;
  }

  get isRunning(): boolean {
    return this.running;
  }

  transcript(): ModelMessage[] {
    return [...this.messages];
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records the event in the session log, then hands it to every listener. */
  emit(event: KernelEvent): void {
    this.log.event(event, this.currentTurnId);
    for (const listener of this.listeners) listener(event);
  }

  /** Shows a line to the person; like every event it is kept in the session log. */
  systemLine(text: string): void {
    this.emit({ type: 'CUSTOM', name: SYSTEM_LINE_EVENT, value: { text } });
  }

  /**
   * Appends an entry to the session log. After a refusal the rest of the turn is not logged, so
   * the log never holds a turn with a part missing (a reply's text gone, its message kept). A
   * turn says the refusal in its result; one between turns has no result, so it is a warning.
   */
  private persist(entry: SessionEntry): void {
    if (this.logFailure !== undefined) return;
    const inTurn = this.currentTurnId !== undefined;
    this.logTail = this.session.append(entry).catch((error: unknown) => {
      if (this.logFailure !== undefined) return;
      this.logFailure = error instanceof Error ? error.message : String(error);
      if (!inTurn) this.warn(`session not saved: ${this.logFailure}`);
    });
  }

  /** Writes what the log holds back, waits for every append so far, and says why one was refused, if one was. */
  private async logSaved(): Promise<string | undefined> {
    this.log.flush();
    await this.logTail;
    return this.logFailure;
  }

  commands(): SlashCommand[] {
    return this.augmentList.flatMap((augment) => augment.commands?.() ?? []);
  }

  indicators(): string[] {
    return this.augmentList.flatMap((augment) => augment.indicator?.() ?? []);
  }

  /** The fields every augment adds to machine-readable output. */
  snapshot(): Record<string, unknown> {
    return Object.assign({}, ...this.augmentList.map((augment) => augment.snapshot?.() ?? {}));
  }

  /**
   * Hands a host flag (`--event`, `--board`) to the augment that takes it. Unclaimed input is
   * refused, so a flag never silently does nothing.
   */
  async hostInput(name: string, value: string): Promise<HostInputResult> {
    for (const augment of this.augmentList) {
      const handled = await augment.hostInput?.(name, value);
      if (handled) return handled;
    }
    return { ok: false, unclaimed: true, message: `no enabled augment takes --${name}; check the augments in agent.yaml` };
  }

  /** Every augment's shared state merged, or undefined when no augment shares any. */
  sharedState(): Record<string, unknown> | undefined {
    const parts = this.augmentList.flatMap((augment) => augment.sharedState?.() ?? []);
    return parts.length > 0 ? Object.assign({}, ...parts) : undefined;
  }

  /** The first refusal among the augments' checks of a host flag, if any. */
  checkHostInput(name: string, value: string): HostInputResult | undefined {
    for (const augment of this.augmentList) {
      const checked = augment.checkHostInput?.(name, value);
      if (checked && !checked.ok) return checked;
    }
    return undefined;
  }

  async applyClientState(state: Record<string, unknown>): Promise<void> {
    for (const augment of this.augmentList) await augment.applyClientState?.(state);
  }

  /** settings.maxInferenceLoops, unless an augment (a workflow's engine.budget) raises it for every turn. */
  private roundLimit(): { maxInferenceLoops: number; roundLimitSource: string } {
    let limit = { maxInferenceLoops: this.agent.yaml.settings.maxInferenceLoops, roundLimitSource: 'settings.maxInferenceLoops' };
    for (const augment of this.augmentList) {
      const raised = augment.roundLimit?.();
      if (raised && raised.rounds > limit.maxInferenceLoops) limit = { maxInferenceLoops: raised.rounds, roundLimitSource: raised.source };
    }
    return limit;
  }

  private loadModel() {
    return this.models(this.modelSpec);
  }

  /**
   * Runs `work` as the session's one writer across processes: the lease is taken first (a
   * SessionBusyError, before anything is written, when another auggy holds it) and given back
   * after. Nested calls share the lease, so a host can hold it around flags and the turn.
   */
  async asWriter<T>(work: () => Promise<T>): Promise<T> {
    if (this.writerDepth > 0) {
      this.writerDepth++;
      try {
        return await work();
      } finally {
        this.writerDepth--;
      }
    }
    const lease = await this.session.acquireWriter();
    this.writerDepth = 1;
    this.heldLease = lease;
    try {
      lease.notices.forEach((notice) => this.warn(notice));
      // Another process took turns here since this conversation read the log: start from what it wrote.
      if (lease.changedElsewhere) this.reloadTranscript();
      return await work();
    } finally {
      this.writerDepth = 0;
      this.heldLease = undefined;
      await lease.release();
    }
  }

  private reloadTranscript(): void {
    const { entries, warnings } = this.session.entries();
    warnings.forEach((warning) => this.warn(warning));
    this.messages = transcriptFromEntries(entries, (ref) => loadAttachment(this.session, ref));
  }

  /** Tool calls the last turn left open for the client (frontend tools), awaiting their results. */
  openToolCalls(): { toolCallId: string; toolName: string }[] {
    return openToolCalls(this.messages).map(({ toolCallId, toolName }) => ({ toolCallId, toolName }));
  }

  /** Appends a message to the transcript and keeps it in the session, under the turn that brought it. */
  private record(message: ModelMessage, turnId: string, messageId?: string): void {
    this.messages.push(message);
    this.log.message(message, turnId, messageId);
  }

  /**
   * Takes a history the session does not hold (a client's, after a new server or a cleared
   * folder) as this thread's transcript so far. Only a conversation with no transcript adopts.
   * A user message's images are kept in the session before the line that refers to them.
   */
  async adoptHistory(history: readonly AdoptedMessage[]): Promise<void> {
    const turnId = `adopted_${newRunId()}`;
    for (const item of history) {
      if (item.message.role === 'user' && typeof item.message.content === 'string') {
        const text = item.message.content;
        const images = item.images ?? [];
        const refs: AttachmentRef[] = [];
        for (const image of images) refs.push(await saveAttachment(this.session, image.data, image.mediaType, image.name));
        this.log.entry({
          kind: 'user',
          turnId,
          text,
          at: new Date().toISOString(),
          ...(item.id !== undefined ? { messageId: item.id } : {}),
          ...(refs.length > 0 ? { attachments: refs } : {}),
        });
        this.messages.push(userMessage(text, refs, (ref) => images[refs.findIndex((made) => made.ref === ref)]?.data));
      } else {
        this.record(item.message, turnId, item.id);
      }
    }
  }

  /** Every message id the session knows: the client's for user messages, the stream's for replies and tool calls. */
  knownMessageIds(): Set<string> {
    return knownMessageIds(this.session.entries().entries);
  }

  /** Runs one turn for the person's message. Never throws for provider or tool trouble. */
  async runTurn(text: string, options: TurnOptions = {}): Promise<ConversationTurn> {
    const images = options.images ?? [];
    return this.run(
      options,
      async (runId) => {
        const refused = imageRefusal(images, this.agent.engine.vision);
        if (refused !== undefined) return { refused, code: 'model_config' };
        const saved = await this.saveImages(images);
        if ('refused' in saved) return saved;
        // A new message while calls wait for the client: those calls will get no result now.
        const open = openToolCalls(this.messages);
        if (open.length > 0) this.record(unansweredResults(open, "The client sent a new message instead of this tool's result."), runId);
        const messageId = options.messageId;
        this.log.entry({
          kind: 'user',
          turnId: runId,
          text,
          at: new Date().toISOString(),
          ...(messageId !== undefined ? { messageId } : {}),
          ...(saved.refs.length > 0 ? { attachments: saved.refs } : {}),
        });
        this.messages.push(userMessage(text, saved.refs, (ref) => images[saved.refs.findIndex((made) => made.ref === ref)]?.data));
      },
      async () => {
        for (const augment of this.augmentList) await augment.onUserMessage?.(text);
      },
    );
  }

  /**
   * Starts the turn an augment asked for after the last one (a goal not met yet): `directive` is
   * its message, kept in the session as the augment's (`by`), not the person's, so no augment
   * takes it for something the person asked (onUserMessage is not called).
   */
  async continueTurn(continuation: { directive: string; by: string }, options: TurnOptions = {}): Promise<ConversationTurn> {
    return this.run(options, async (runId) => {
      this.log.entry({ kind: 'user', turnId: runId, text: continuation.directive, at: new Date().toISOString(), by: continuation.by });
      this.messages.push({ role: 'user', content: continuation.directive });
      return undefined;
    });
  }

  /** Keeps each image in the session before the message that refers to it is logged. */
  private async saveImages(images: readonly ImageInput[]): Promise<{ refs: AttachmentRef[] } | RefusedStart> {
    try {
      const refs: AttachmentRef[] = [];
      for (const image of images) refs.push(await saveAttachment(this.session, image.data, image.mediaType, image.name));
      return { refs };
    } catch (error) {
      return { refused: `the session could not be saved: ${error instanceof Error ? error.message : String(error)}`, code: 'session_error' };
    }
  }

  /** What holds the floor across turns now (an active goal), if an augment does. */
  floorHolder(): string | undefined {
    for (const augment of this.augmentList) {
      const holder = augment.holdsFloor?.();
      if (holder !== undefined) return holder;
    }
    return undefined;
  }

  /** The directive an augment wants a resumed session to start with (a goal left running), if any. */
  pendingContinuation(): { directive: string; by: string } | undefined {
    for (const augment of this.augmentList) {
      const directive = augment.pendingContinuation?.();
      if (directive !== undefined) return { directive, by: augment.id };
    }
    return undefined;
  }

  /**
   * Continues the turn that left tool calls for the client, from their results: no user message
   * is added (the last one is not replayed). Calls the client did not answer get a stand-in.
   */
  async resumeTurn(results: readonly ClientToolResult[], options: TurnOptions = {}): Promise<ConversationTurn> {
    return this.run(options, async (runId) => {
      const open = openToolCalls(this.messages);
      const given = new Map(results.map((r) => [r.toolCallId, r]));
      const content = open.map((call) => {
        const answer = given.get(call.toolCallId);
        const output = answer
          ? answer.isError
            ? { type: 'error-text' as const, value: answer.content }
            : { type: 'text' as const, value: answer.content }
          : { type: 'error-text' as const, value: 'The client returned no result for this call.' };
        return { type: 'tool-result' as const, toolCallId: call.toolCallId, toolName: call.toolName, output };
      });
      // The client holds these results already; they are kept (one entry each, under the client's
      // message id), not streamed back to it.
      content.forEach((part) => this.record({ role: 'tool', content: [part] }, runId, given.get(part.toolCallId)?.messageId));
      return undefined;
    });
  }

  /**
   * Continues the turn whose calls waited on the person (serve's interrupts), now that `person`
   * holds the answers: those calls run again first, as their own batch, and the turn carries on
   * as if the person had answered mid-turn. No user message is added, but for `reply`.
   */
  async resumeAnswered(options: AnsweredCallsOptions): Promise<ConversationTurn> {
    return this.run(options, async () => undefined);
  }

  /** `begin` logs what starts the turn; `saved` runs once that is saved, before the model is called. */
  private async run(
    options: TurnOptions & { toolCallIds?: readonly string[]; reply?: string },
    begin: (runId: string) => Promise<RefusedStart | undefined>,
    saved?: () => Promise<void>,
  ): Promise<ConversationTurn> {
    if (this.running) throw new Error('a turn is already running in this conversation');
    this.running = true;
    try {
      // One writer per session across processes: SessionBusyError here, before anything is written.
      return await this.asWriter(() => this.runAsWriter(options, begin, saved, this.heldLease));
    } finally {
      this.running = false;
    }
  }

  private async runAsWriter(
    options: TurnOptions & { toolCallIds?: readonly string[]; reply?: string },
    begin: (runId: string) => Promise<RefusedStart | undefined>,
    saved: (() => Promise<void>) | undefined,
    writer: WriterLease | undefined,
  ): Promise<ConversationTurn> {
    const runId = newRunId();
    // The lease has the session take appends again; whatever was logged before it has settled.
    await this.logTail;
    this.logFailure = undefined;
    this.currentTurnId = runId;
    this.completionUsage = { inputTokens: 0, outputTokens: 0 };
    // A writer that loses its hold stops the turn rather than write beside the next one.
    const signal = writer?.lost
      ? AbortSignal.any([options.signal ?? new AbortController().signal, writer.lost])
      : (options.signal ?? new AbortController().signal);
    const clientTools = options.clientTools ?? [];
    try {
      const refusedStart = await begin(runId);
      // What the person said is in the session before anything answers it.
      const unsaved = refusedStart ? undefined : await this.logSaved();
      if (refusedStart || unsaved !== undefined) {
        const message = refusedStart?.refused ?? `the session could not be saved: ${unsaved}`;
        const code = refusedStart?.code ?? 'session_error';
        return { ...this.failBeforeModel(runId, message, code), runId };
      }
      await saved?.();

      const built = await this.loadModel();
      const waited = { ms: 0 };
      const result = !built.ok
        ? this.failBeforeModel(runId, built.error, 'model_config')
        : await runTurnLoop({
            model: built.model,
            threadId: this.session.id,
            runId,
            messages: this.messages,
            ...this.roundLimit(),
            signal,
            person: options.person && timedPerson(options.person, waited),
            ...(options.toolCallIds ? { resumeCalls: openCallsAmong(this.messages, options.toolCallIds) } : {}),
            ...(options.reply !== undefined ? { resumeReply: options.reply } : {}),
            // Kept as the person's message, as runTurn keeps one (augments' onUserMessage is for a turn's start, not mid-turn).
            onUserMessage: (text) => {
              this.log.entry({ kind: 'user', turnId: runId, text, at: new Date().toISOString() });
              this.messages.push({ role: 'user', content: text });
            },
            emit: (event) => {
              this.emit(event);
              // Clients learn the shared state (the board) as the run begins.
              const shared = event.type === 'RUN_STARTED' ? this.sharedState() : undefined;
              if (shared) this.emit({ type: 'STATE_SNAPSHOT', snapshot: shared });
            },
            prepareRound: () => {
              const settings = settingsOfRound(this.augmentList);
              const review = reviewerOfRound(this.augmentList);
              return {
                system: this.systemPrompt(),
                tools: toolsOfRound(this.augmentList, clientTools),
                ...(settings ? { settings } : {}),
                ...(review ? { review } : {}),
              };
            },
            afterBatch: (batch, context) => decideAfterBatch(this.augmentList, batch, context),
            onMessage: (message) => this.record(message, runId),
            onRecord: (name, data) => this.log.entry({ kind: 'record', turnId: runId, name, data, at: new Date().toISOString() }),
            describeError: (error, context) => classifyModelError(error, this.modelSpec, context),
            maxOutputTokens: maxTokensOf(this.modelSpec),
            ...(options.onModelUsage ? { onModelUsage: options.onModelUsage } : {}),
            onContextMeasured: (inputTokens, sentMessages) => this.context.meter.measured(inputTokens, sentMessages),
            fitContext: (cause) => this.context.fit(cause, signal),
            overflowAdvice: overflowAdvice(this.contextRemedies),
          });
      return await this.endTurn(result, runId, signal, waited.ms);
    } finally {
      this.log.flush();
      this.currentTurnId = undefined;
    }
  }

  /** A turn that ends before the model is called: its run starts and fails at once, as clients expect. */
  private failBeforeModel(runId: string, message: string, code: FailureCode): TurnResult {
    this.emit({ type: 'RUN_STARTED', threadId: this.session.id, runId });
    this.emit({ type: 'RUN_ERROR', message, code });
    return turnFailedBeforeModel(message, code);
  }

  /**
   * After the loop: the augments decide the floor, the turn's usage, context and cost are logged,
   * and the whole turn is saved before the host is told how it ended.
   */
  private async endTurn(ended: TurnResult, runId: string, signal: AbortSignal, personWaitMs: number): Promise<ConversationTurn> {
    let result = ended;
    const floor = await this.afterTurn(result, signal, personWaitMs);
    // The turn's tokens with its augments' own calls (the userAsk evaluator), as the host is told:
    // kept so a resumed session counts what the live one showed.
    result = {
      ...result,
      usage: {
        inputTokens: result.usage.inputTokens + this.completionUsage.inputTokens,
        outputTokens: result.usage.outputTokens + this.completionUsage.outputTokens,
      },
    };
    const reading = this.context.reading();
    result = { ...result, context: reading };
    const context = { used: reading.used, ...(reading.limit !== undefined ? { limit: reading.limit } : {}) };
    // The meter goes out once a turn, as the turn's last word before it ends (hosts hold the
    // terminal event for what comes after the loop), where the folder states the window.
    if (reading.limit !== undefined) this.emit({ type: 'CUSTOM', name: CONTEXT_USAGE_EVENT, value: reading });
    const cost = this.costOf(result.usage);
    // The model and the cost go with the tokens, so a session that changed model (/model) adds up.
    const usageData = { ...result.usage, context, model: describeModel(this.modelSpec), ...(cost !== undefined ? { cost } : {}) };
    this.log.entry({ kind: 'record', turnId: runId, name: 'usage', data: usageData, at: new Date().toISOString() });
    // The whole turn is saved before the host reports how it ended.
    const notSaved = await this.logSaved();
    if (notSaved !== undefined && result.status !== 'canceled') {
      result = { ...result, status: 'failed', code: 'session_error', message: `the session could not be saved: ${notSaved}` };
    }
    // The person's turn wins: after a question or a cancel no augment starts another turn.
    const keepsFloor = floor.continuation && !PERSON_HOLDS_FLOOR.includes(result.status) && !signal.aborted && result.code !== 'session_error';
    return {
      ...result,
      runId,
      ...(cost !== undefined ? { cost } : {}),
      ...(keepsFloor ? { continuation: floor.continuation } : {}),
      ...(floor.release ? { release: floor.release } : {}),
    };
  }

  /** What tokens cost on this conversation's model; nothing spent costs nothing, priced or not. */
  private costOf(usage: { inputTokens: number; outputTokens: number }): number | undefined {
    const price = priceOf(this.modelSpec);
    if (price) return costOf(usage, price);
    return usage.inputTokens === 0 && usage.outputTokens === 0 ? 0 : undefined;
  }

  /** The finished turn as augments see it, and where they send the floor next. */
  private afterTurn(result: TurnResult, signal: AbortSignal, personWaitMs: number): Promise<FloorAfterTurn> {
    return decideAfterTurn(this.augmentList, {
      status: result.status,
      message: result.message,
      text: result.text,
      transcript: this.transcript(),
      signal,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
      toolCalls: result.toolCalls.map((call) => call.name),
      personWaitMs,
    });
  }

  /** `/clear`: the augments drop this conversation's state and a fresh session begins. */
  async clear(): Promise<Conversation> {
    for (const augment of this.augmentList) await augment.onCleared?.();
    const store = this.store ?? folderStore({ dir: this.agent.dir, name: this.agent.yaml.name, id: this.agent.yaml.id });
    await this.session.close().catch(() => undefined);
    const session = await store.open({});
    const next = await Conversation.open({
      agent: this.agent,
      augmentTypes: this.augmentTypes,
      // The model in use now goes on in the next session (a /model choice included).
      modelSpec: this.spec,
      ...(this.modelOverrides !== undefined ? { modelOverrides: this.modelOverrides } : {}),
      session,
      warn: this.warn,
      models: this.models,
      store: this.store,
      host: this.host,
      contextRemedies: this.contextRemedies,
    });
    for (const listener of this.listeners) next.subscribe(listener);
    return next;
  }

  /** Closes what this conversation opened for itself; a host's shared scope is the host's to close. */
  async close(): Promise<void> {
    if (this.ownsHost) await this.host.close();
  }
}
