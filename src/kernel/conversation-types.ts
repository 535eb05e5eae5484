import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { LoadedAgent } from '../agent/types.js';
import type { ModelBuilder } from '../model/model-cache.js';
import type { ModelOverrides, ModelSpec } from '../model/model-spec.js';
import type { SessionHandle } from '../session/session.js';
import type { SessionStore } from '../session/store.js';
import type { AugmentFactory } from './augment.js';
import type { FloorAfterTurn } from './augment-decisions.js';
import type { KernelEvent } from './events.js';
import type { HostScope } from './host-scope.js';
import type { ImageInput } from './image-input.js';
import type { PersonChannel } from './person.js';
import type { KernelTool } from './tool.js';
import type { TurnLoopOptions, TurnResult } from './turn-loop.js';

/** What a conversation is opened with, and the shapes its turns take and report. */

export type EventListener = (event: KernelEvent) => void;

/**
 * A turn as a conversation reports it: the kernel's result, its run id, and what the augments
 * decided about the floor after it (see AfterTurnDecision; `by` names the augment).
 */
export type ConversationTurn = TurnResult &
  FloorAfterTurn & {
    runId: string;
    /** The turn's tokens in US dollars, where the model's price is known (engine.pricing, model/model-prices.ts). */
    cost?: number;
  };

export interface TurnOptions {
  signal?: AbortSignal;
  person?: PersonChannel;
  /** Tools the client runs itself (AG-UI frontend tools), offered beside the agent's own. */
  clientTools?: KernelTool[];
  /** The client's id for the user message, kept so its history is recognised later. */
  messageId?: string;
  /** Told each model call's tokens as it finishes (ACP's usage_update). */
  onModelUsage?: TurnLoopOptions['onModelUsage'];
  /** runTurn: the images the person's message carries, checked by the host (image-input.ts). */
  images?: readonly ImageInput[];
}

/** How a turn resumes calls left open on the person: which calls, run again with `person` answering. */
export interface AnsweredCallsOptions extends TurnOptions {
  person: PersonChannel;
  toolCallIds: readonly string[];
  /** request_input's answer, when it was asked beside the calls: the person's message after their results. */
  reply?: string;
}

/** A client's result for a call the last turn left open. */
export interface ClientToolResult {
  toolCallId: string;
  content: string;
  isError?: boolean;
  messageId?: string;
}

/** One message of a client's history, converted, with the client's id for it. */
export interface AdoptedMessage {
  id?: string;
  message: ModelMessage;
  /** A user message's images (its `message` then holds only its text): kept as the session's attachments. */
  images?: readonly ImageInput[];
}

export interface ConversationOptions {
  agent: LoadedAgent;
  /** The augment types this host runs (the built-in list, composed at the top); the agent's are started from it. */
  augmentTypes: readonly AugmentFactory[];
  modelSpec: ModelSpec;
  /**
   * The host's model flags (--model, --base-url, --timeout). Given, the session's own model
   * (`/model`, kept in its log) is used when no flag names one, and `switchModel` reads a new one
   * with these flags; absent, the conversation keeps to `modelSpec`.
   */
  modelOverrides?: ModelOverrides;
  session: SessionHandle;
  /** Problems that do not stop the run: shown by the host, never fatal. */
  warn(message: string): void;
  /**
   * Where models come from: a server with many threads passes one cache for all of them, so each
   * model is built (and a scripted model's file read) once, not once per conversation or call.
   */
  models?: ModelBuilder;
  /** Where `/clear` opens the next session: the session's own store (the agent folder when absent). */
  store?: SessionStore;
  /**
   * The host's own ways to make room in a conversation too long for its model, as the person is
   * told them: the chat's `type /compact with less to keep`. Absent, the host has none, and the
   * person is told of the engine setting and a new session only.
   */
  contextRemedies?: readonly string[];
  /**
   * What the process shares across conversations (MCP connections, --allow-tool). Absent, the
   * conversation keeps its own, and `close()` closes it.
   */
  host?: HostScope;
}
