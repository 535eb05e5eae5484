import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { loadAgent } from '../../../src/agent/load-agent.js';
import { formatDiagnostic, type LoadedAgent } from '../../../src/agent/types.js';
import { findAugmentFactory, BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';
import type { Augment, CompleteFn, FinishedTurn } from '../../../src/kernel/augment.js';
import { SYSTEM_LINE_EVENT, type KernelEvent, type TurnStatus } from '../../../src/kernel/events.js';
import { buildSystemPrompt } from '../../../src/kernel/system-prompt.js';
import { runTurnLoop } from '../../../src/kernel/turn-loop.js';
import { openSession, type SessionHandle } from '../../../src/session/session.js';
import { EVALUATION_EVENT, type EvaluationEventValue } from '../../../src/augments/user-ask/judge-turn.js';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { mockModel, type MockStep } from '../../helpers/mock-model.js';
import { folderOf } from '../../helpers/session-folder.js';

/** What the fake evaluator answers: the reply text, or a failed call. */
export type FakeReply = string | { error: string };

export interface CompletionCall {
  system: string;
  prompt: string;
  model?: string;
}

export interface AskHarness {
  dir: string;
  agent: LoadedAgent;
  session: SessionHandle;
  augments: Augment[];
  /** The userAsk augment among them. */
  ask: Augment;
  events: KernelEvent[];
  warnings: string[];
  completions: CompletionCall[];
  /** Replies the fake evaluator gives, in order; `in_progress` once they run out. */
  replies: FakeReply[];
  messages: ModelMessage[];
}

export interface StartOptions {
  /** `config:` lines for augments/userAsk/augment.yaml, e.g. `  maxAskChars: 50\n`. */
  config?: string;
  dir?: string;
  sessionId?: string;
  replies?: FakeReply[];
}

export function userAskFolder(config?: string): string {
  return makeAgentFolder({
    augments: ['turnControl', 'userAsk'],
    files: config ? { 'augments/userAsk/augment.yaml': `type: userAsk\nconfig:\n${config}` } : {},
  });
}

export async function loadFolder(dir: string): Promise<LoadedAgent> {
  const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
  if (!loaded.agent) throw new Error(`fixture does not load: ${loaded.diagnostics.map(formatDiagnostic).join('; ')}`);
  return loaded.agent;
}

/** The folder's augments started on a real session, as Conversation.open starts them, with a fake evaluator. */
export async function startUserAsk(options: StartOptions = {}): Promise<AskHarness> {
  const dir = options.dir ?? userAskFolder(options.config);
  const agent = await loadFolder(dir);
  const session = await openSession({ agentDir: dir, agentName: agent.yaml.name, sessionId: options.sessionId });
  const h: AskHarness = {
    dir,
    agent,
    session,
    augments: [],
    ask: { id: 'none' },
    events: [],
    warnings: [],
    completions: [],
    replies: [...(options.replies ?? [])],
    messages: [],
  };
  const complete: CompleteFn = async ({ system, prompt, model }) => {
    h.completions.push({ system, prompt, model });
    const reply = h.replies.shift() ?? '{"outcome":"in_progress","reason":"more to do"}';
    return typeof reply === 'string' ? { ok: true, text: reply } : { ok: false, error: reply.error };
  };
  for (const config of agent.augments) {
    const factory = findAugmentFactory(config.type);
    if (!factory) continue;
    h.augments.push(
      await factory.create({
        agent,
        augmentId: config.id,
        config: config.config,
        session,
        emit: (event) => h.events.push(event),
        complete,
        warn: (message) => h.warnings.push(message),
      }),
    );
  }
  h.ask = h.augments.find((augment) => augment.id === 'userAsk') ?? h.ask;
  return h;
}

/** A person's message and a finished turn with this status and reply, without a model. */
export async function quickTurn(h: AskHarness, user: string, reply = 'Working on it.', status: TurnStatus = 'completed'): Promise<void> {
  h.messages.push({ role: 'user', content: user });
  await h.ask.onUserMessage?.(user);
  h.messages.push({ role: 'assistant', content: [{ type: 'text', text: reply }] });
  const turn: FinishedTurn = { status, text: reply, message: status === 'completed' ? undefined : reply, transcript: [...h.messages] };
  await h.ask.afterTurn?.(turn);
}

/** One turn through the real kernel loop with a fake model, every augment wired as Conversation wires them. */
export async function modelTurn(h: AskHarness, user: string, steps: MockStep[]) {
  const model = mockModel(steps);
  h.messages.push({ role: 'user', content: user });
  for (const augment of h.augments) await augment.onUserMessage?.(user);
  const result = await runTurnLoop({
    model,
    threadId: h.session.id,
    runId: `run_${h.messages.length}`,
    messages: h.messages,
    maxInferenceLoops: 10,
    signal: new AbortController().signal,
    emit: (event) => h.events.push(event),
    prepareRound: () => ({
      system: buildSystemPrompt('You are a test agent.', [], h.augments),
      tools: h.augments.flatMap((augment) => augment.tools?.() ?? []),
    }),
    onMessage: (message) => h.messages.push(message),
    describeError: (error) => String(error),
    maxRetries: 0,
  });
  for (const augment of h.augments)
    await augment.afterTurn?.({ status: result.status, message: result.message, text: result.text, transcript: [...h.messages] });
  const systems = model.doStreamCalls.map((call) =>
    call.prompt
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n'),
  );
  return { result, systems };
}

export function command(h: AskHarness, args: string) {
  const ask = h.ask.commands?.().find((c) => c.name === 'ask');
  if (!ask) throw new Error('no /ask command');
  return ask.run(args);
}

export function systemLines(h: AskHarness): string[] {
  return h.events.flatMap((event) => (event.type === 'CUSTOM' && event.name === SYSTEM_LINE_EVENT ? [(event.value as { text: string }).text] : []));
}

export function evaluations(h: AskHarness): EvaluationEventValue[] {
  return h.events.flatMap((event) => (event.type === 'CUSTOM' && event.name === EVALUATION_EVENT ? [event.value as EvaluationEventValue] : []));
}

export function savedAsk(h: AskHarness): Record<string, unknown> | undefined {
  const path = join(folderOf(h.session), 'user_ask.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : undefined;
}

export function block(h: AskHarness): string | undefined {
  return h.ask.promptBlock?.();
}

export const verdict = (outcome: string, reason: string) => JSON.stringify({ outcome, reason });
