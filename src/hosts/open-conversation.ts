import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './exit-codes.js';
import { loadAgent } from '../agent/load-agent.js';
import { formatDiagnostic, type LoadedAgent } from '../agent/types.js';
import { BUILTIN_AUGMENT_CATALOG, loadBuiltinAugments } from '../augments/catalog.js';
import type { AugmentFactory } from '../kernel/augment.js';
import { Conversation } from '../kernel/conversation.js';
import type { HostScope } from '../kernel/host-scope.js';
import type { ModelBuilder } from '../model/model-cache.js';
import { ModelSpecError, resolveModelSpec, type ModelOverrides, type ModelSpec } from '../model/model-spec.js';
import { folderStore } from '../session/folder-store.js';
import { openSessionStore, type StoreChoice } from '../session/open-store.js';
import { SessionError, type SessionHandle } from '../session/session.js';
import type { SessionStore } from '../session/store.js';

export interface AgentTarget {
  agent: LoadedAgent;
  modelSpec: ModelSpec;
  /** The model flags the command was given, so a session's /model choice and a new one are read as --model is. */
  modelOverrides?: ModelOverrides;
  /** The augment types conversations start the agent's augments from: the built-ins the agent lists. */
  augmentTypes: readonly AugmentFactory[];
  /** What the process shares across its conversations; the command that made it closes it. */
  host?: HostScope;
}

/** A folder that is not there at all is told so, rather than as a folder without agent.yaml. */
export function requireExistingFolder(agentDir: string, shown = agentDir): void {
  if (!existsSync(agentDir)) throw new UsageError(`${shown} does not exist; pass an agent folder, or create one with: auggy create <name>`);
}

/** Loads the folder and settles the model; any problem is a UsageError naming the file and fix. */
export async function loadRunnableAgent(dir: string, overrides: ModelOverrides, warn: (message: string) => void): Promise<AgentTarget> {
  const agentDir = resolve(dir);
  requireExistingFolder(agentDir);
  if (!existsSync(resolve(agentDir, 'agent.yaml'))) {
    throw new UsageError(`${agentDir} has no agent.yaml; pass an agent folder, or create one with: auggy create <name>`);
  }
  // The one place a host composes the built-in augments; everything below is handed the list.
  const loaded = await loadAgent(agentDir, BUILTIN_AUGMENT_CATALOG);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (!loaded.agent || errors.length > 0) {
    const shown = errors.slice(0, 5).map(formatDiagnostic).join('\n  ');
    throw new UsageError(`the agent folder has errors (run auggy validate for all of them):\n  ${shown}`);
  }
  // Warnings about unset keys are the turn's business (it fails with the reason); the rest are
  // shown, without the word "warning" the host already puts before them.
  loaded.diagnostics
    .filter((d) => d.severity === 'warning' && d.code !== 'key-not-set')
    .forEach((d) => warn(formatDiagnostic(d).replace(/ warning(?= |$)/, '')));
  try {
    const augmentTypes = await loadBuiltinAugments(loaded.agent.augments.map((augment) => augment.type));
    return { agent: loaded.agent, modelSpec: resolveModelSpec(loaded.agent, overrides), modelOverrides: overrides, augmentTypes };
  } catch (error) {
    if (error instanceof ModelSpecError) throw new UsageError(error.message, error.setting === 'key' ? 'missing-key' : undefined);
    throw error;
  }
}

export interface SessionChoice {
  sessionId?: string;
  continueLatest?: boolean;
}

/** `--store`: where this agent's sessions live; a store that cannot be used is a UsageError. */
export async function openAgentStore(target: AgentTarget, choice: Omit<StoreChoice, 'log'>, log: (message: string) => void): Promise<SessionStore> {
  const agent = target.agent;
  try {
    return await openSessionStore({ dir: agent.dir, name: agent.yaml.name, id: agent.yaml.id }, { ...choice, log });
  } catch (error) {
    if (error instanceof SessionError) throw new UsageError(error.message);
    throw error;
  }
}

/** The chat's commands that make room in a long conversation, as the person is told them. */
export const CHAT_CONTEXT_REMEDIES: readonly string[] = ['type /compact with less to keep', '/clear to start afresh'];

/**
 * The conversation of a host with a person at this machine (the chat, --print, ACP): each turn
 * takes the session's writer for itself. `contextRemedies` are the host's own commands for a
 * conversation too long for its model; the chat's unless the host says otherwise.
 */
export async function openConversation(
  target: AgentTarget,
  choice: SessionChoice,
  warn: (message: string) => void,
  store?: SessionStore,
  contextRemedies: readonly string[] = CHAT_CONTEXT_REMEDIES,
): Promise<Conversation> {
  const sessions = store ?? folderStore({ dir: target.agent.dir, name: target.agent.yaml.name, id: target.agent.yaml.id });
  try {
    const session = await sessions.open({ sessionId: choice.sessionId, continueLatest: choice.continueLatest });
    return await conversationOn(target, session, sessions, warn, { contextRemedies });
  } catch (error) {
    if (error instanceof SessionError) throw new UsageError(error.message);
    throw error;
  }
}

/** The target's conversation in an open session; the host's model flags go with it, so the session's /model choice stands. */
function conversationOn(
  target: AgentTarget,
  session: SessionHandle,
  store: SessionStore,
  warn: (message: string) => void,
  extras: { models?: ModelBuilder; contextRemedies?: readonly string[] } = {},
): Promise<Conversation> {
  const { models, contextRemedies } = extras;
  return Conversation.open({
    agent: target.agent,
    augmentTypes: target.augmentTypes,
    modelSpec: target.modelSpec,
    ...(target.modelOverrides !== undefined ? { modelOverrides: target.modelOverrides } : {}),
    session,
    warn,
    ...(models !== undefined ? { models } : {}),
    ...(contextRemedies !== undefined ? { contextRemedies } : {}),
    store,
    // Serve's shared scope: its MCP servers are used, not started again, and closed with serve.
    host: target.host,
  });
}

export interface ThreadOpening {
  createIfMissing: boolean;
  /** Only to change state files beside the thread's writer (a board write, GET /agent/thread). */
  observer?: boolean;
  /** The server's one model cache for every thread. */
  models?: ModelBuilder;
  warn(message: string): void;
}

/**
 * A served thread's conversation (an AG-UI run, an A2A task, a board write beside them), opened
 * as every other host opens one: a session that switched model with /model goes on with it.
 */
export async function openThreadConversation(target: AgentTarget, store: SessionStore, threadId: string, opening: ThreadOpening): Promise<Conversation> {
  const session = await store.open({ sessionId: threadId, createIfMissing: opening.createIfMissing, ...(opening.observer ? { observer: true } : {}) });
  try {
    // A served thread has no commands of the chat's: its clients are told their own way (failureForClient).
    return await conversationOn(target, session, store, opening.warn, opening.models !== undefined ? { models: opening.models } : {});
  } catch (error) {
    // An augment that could not start leaves no handle behind: nobody else would close it.
    await session.close().catch(() => undefined);
    throw error;
  }
}
