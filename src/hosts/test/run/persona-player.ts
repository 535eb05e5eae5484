import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { relative } from 'node:path';
import { z } from 'zod';
import type { LoadedAgent } from '../../../agent/types.js';
import { streamModel } from '../../../kernel/model-stream.js';
import { classifyModelError } from '../../../model/describe-error.js';
import type { ModelBuilder } from '../../../model/model-cache.js';
import { resolveNamedModelSpec, type ModelSpec } from '../../../model/model-spec.js';
import type { PromptKitMock } from '../../../model/scripted/promptkit-mock.js';
import { loadScript } from '../../../model/scripted/script.js';
import { personaPrompt, type Persona } from '../scenario/persona.js';
import type { SelfPlayRole } from '../scenario/self-play-config.js';

/** PromptKit's marker for a persona that finds the conversation done (selfplay/termination.go). */
export const COMPLETION_MARKER = '[CONVERSATION_COMPLETE]';

/** Added to the persona's prompt when it may end the conversation early, in PromptKit's words. */
const COMPLETION_INSTRUCTION = `

When you feel the conversation has reached a natural conclusion —
the user's question has been fully answered, the topic is resolved,
or continuing would be repetitive — end your message with the exact
marker: ${COMPLETION_MARKER}
Only use this marker after the minimum number of turns has been
reached. Do not use it prematurely.`;

/** PromptKit keeps the persona's messages short: 200 tokens, 300 with room for the marker. */
const MAX_TOKENS = 200;
const MAX_TOKENS_WITH_MARKER = 300;

/** What the player is asked for: the next message of this persona in this conversation. */
export interface PersonaRequest {
  persona: Persona;
  scenarioId: string;
  transcript: readonly ModelMessage[];
  /** 1-based among the scenario's self-play messages (PromptKit's duplex count). */
  selfPlayIndex: number;
  duplex: boolean;
  /** More messages allowed than required: the persona may end with the completion marker. */
  mayEnd: boolean;
  signal: AbortSignal;
}

export type PersonaMessage = { ok: true; text: string; complete: boolean } | { ok: false; why: string };

export interface PersonaPlayer {
  /** Who plays the persona, as notes say it (`the mock responses in x.yaml`, `openai:gpt-4o-mini`). */
  who: string;
  next(request: PersonaRequest): Promise<PersonaMessage>;
}

function textOf(content: ModelMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * The conversation as the persona sees it (PromptKit's sanitizeHistoryForText and swapped
 * history): tool results and tool calls dropped, only what was said kept, and the roles swapped,
 * so the persona's own messages are its replies and the agent's are what it answers.
 */
export function personaView(transcript: readonly ModelMessage[]): ModelMessage[] {
  const view: ModelMessage[] = [];
  for (const message of transcript) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const text = textOf(message.content);
    if (text.trim() === '') continue;
    view.push(message.role === 'user' ? { role: 'assistant', content: text } : { role: 'user', content: text });
  }
  // Providers want the first message to be the user's: a conversation the persona opens, or one
  // it continues after its own scripted message, starts with a cue instead.
  if (view[0]?.role !== 'user') view.unshift({ role: 'user', content: 'Begin the conversation.' });
  return view;
}

/**
 * The mock turn PromptKit plays for the persona's next message: the conversation's next user
 * message by count (the agent's replies so far, plus one), or under duplex the self-play count.
 */
export function selfPlayTurnNumber(transcript: readonly ModelMessage[], selfPlayIndex: number, duplex: boolean): number {
  if (duplex) return selfPlayIndex;
  return transcript.filter((message) => message.role === 'assistant' && textOf(message.content).trim() !== '').length + 1;
}

/** Strips PromptKit's completion marker, and says whether it was there. */
export function stripCompletion(text: string): { text: string; complete: boolean } {
  if (!text.includes(COMPLETION_MARKER)) return { text, complete: false };
  return { text: text.split(COMPLETION_MARKER).join('').trim(), complete: true };
}

const mockTurnSchema = z.union([
  z.string(),
  z.looseObject({ content: z.string().optional(), parts: z.array(z.looseObject({ text: z.string().optional() })).optional() }),
]);
const mockScenarioSchema = z.looseObject({ defaultResponse: z.string().optional(), turns: z.record(z.string(), mockTurnSchema).optional() });
const selfPlaySectionSchema = z.record(z.string(), mockScenarioSchema.nullable());
type MockScenario = z.infer<typeof mockScenarioSchema>;

function mockText(turn: z.infer<typeof mockTurnSchema>): string {
  if (typeof turn === 'string') return turn;
  return turn.content ?? (turn.parts ?? []).map((part) => part.text ?? '').join('');
}

/** The persona's own section of a mock config (`selfplay: {<persona>: {turns, defaultResponse}}`), when it has one. */
export function mockPersonaSection(mock: PromptKitMock, persona: string): MockScenario | undefined {
  const section = selfPlaySectionSchema.safeParse((mock as Record<string, unknown>).selfplay ?? {});
  return section.success ? (section.data[persona] ?? undefined) : undefined;
}

/**
 * PromptKit's FileMockRepository for a self-play user: the persona's `selfplay` section by turn,
 * then its default; the scenario's turn, then its default; then the file's default.
 */
export function mockPersonaReply(mock: PromptKitMock, persona: string, scenarioId: string, turn: number): string {
  const own = mockPersonaSection(mock, persona);
  const ownTurn = own?.turns?.[String(turn)];
  if (ownTurn !== undefined) return mockText(ownTurn);
  if (own?.defaultResponse) return own.defaultResponse;
  const scenario = mockScenarioSchema.safeParse(mock.scenarios?.[scenarioId] ?? {});
  const scenarioTurn = scenario.success ? scenario.data.turns?.[String(turn)] : undefined;
  if (scenarioTurn !== undefined) return mockText(scenarioTurn);
  if (scenario.success && scenario.data.defaultResponse) return scenario.data.defaultResponse;
  return mock.defaultResponse ?? 'Mock response';
}

function mockPlayer(mock: PromptKitMock, who: string): PersonaPlayer {
  return {
    who,
    async next(request) {
      const turn = selfPlayTurnNumber(request.transcript, request.selfPlayIndex, request.duplex);
      return { ok: true, ...stripCompletion(mockPersonaReply(mock, request.persona.id, request.scenarioId, turn)) };
    },
  };
}

function modelPlayer(spec: ModelSpec, model: LanguageModelV3, who: string): PersonaPlayer {
  return {
    who,
    async next(request) {
      const prompt = personaPrompt(request.persona);
      if (!prompt.ok) return { ok: false, why: prompt.why };
      let text = '';
      let failure: unknown;
      try {
        const parts = streamModel({
          model,
          system: request.mayEnd ? `${prompt.text}${COMPLETION_INSTRUCTION}` : prompt.text,
          messages: personaView(request.transcript),
          signal: request.signal,
          maxRetries: 2,
          maxOutputTokens: request.mayEnd ? MAX_TOKENS_WITH_MARKER : MAX_TOKENS,
          temperature: request.persona.temperature,
        });
        for await (const part of parts) {
          if (part.type === 'text-delta') text += part.text;
          else if (part.type === 'error') failure ??= part.error;
          else if (part.type === 'abort') return { ok: false, why: 'canceled' };
        }
      } catch (error) {
        failure ??= error;
      }
      if (failure !== undefined) return { ok: false, why: `the persona's model failed: ${classifyModelError(failure, spec).message}` };
      if (text.trim() === '') return { ok: false, why: `the persona's model (${who}) wrote no message` };
      return { ok: true, ...stripCompletion(text.trim()) };
    },
  };
}

export interface PlayerChoice {
  agent: LoadedAgent;
  /** The agent's own model, which plays the persona when nothing else is named. */
  agentSpec: ModelSpec;
  models: ModelBuilder;
  roles: readonly SelfPlayRole[];
  /** `--persona-model provider:model`. */
  personaModel?: string;
}

/** A mock config that is PromptKit's, or why it cannot play. */
function promptKitMockAt(path: string): { mock: PromptKitMock } | { why: string } {
  try {
    const script = loadScript(path);
    return script.promptKit
      ? { mock: script.promptKit }
      : { why: `${path} is a rules script, not a PromptKit mock config (defaultResponse, scenarios, selfplay)` };
  } catch (error) {
    return { why: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Who plays a self-play role, as PromptKit's Arena picks its provider: the role's own script or
 * model in self-play.yaml, else `--persona-model`, else the agent's model. A PromptKit mock
 * config plays offline with PromptKit's self-play rules; any other model plays the persona from
 * its prompt. Undefined player: the reason the turn cannot be played.
 */
export async function choosePlayer(role: string, choice: PlayerChoice): Promise<{ player: PersonaPlayer } | { why: string }> {
  const named = choice.roles.find((entry) => entry.id === role);
  if (named && 'script' in named) {
    const mock = promptKitMockAt(named.script);
    return 'mock' in mock
      ? { player: mockPlayer(mock.mock, `the mock config for ${role} (${relative(choice.agent.dir, named.script)})`) }
      : { why: `role ${role}'s script cannot play: ${mock.why}` };
  }
  const ref = named && 'model' in named ? named.model : choice.personaModel;
  let spec = choice.agentSpec;
  if (ref !== undefined) {
    try {
      spec = resolveNamedModelSpec(choice.agent, choice.agentSpec, ref);
    } catch (error) {
      return { why: `the persona's model ${ref} cannot be used: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const modelName = ref ?? `${spec.provider}:${spec.model}`;
  const who = ref ?? `the agent's model (${modelName})`;
  if (spec.provider === 'scripted' && spec.scriptPath !== undefined) {
    const mock = promptKitMockAt(spec.scriptPath);
    if ('mock' in mock) return { player: mockPlayer(mock.mock, `the agent's mock config (${relative(choice.agent.dir, spec.scriptPath)})`) };
  }
  // A model that cannot be built (no key, no server named) cannot play: the turn is skipped, saying so.
  const built = await choice.models(spec);
  if (!built.ok) return { why: `the persona's model ${modelName} cannot be used: ${built.error}` };
  return { player: modelPlayer(spec, built.model, who) };
}
