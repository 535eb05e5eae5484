import { z } from 'zod';
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
/** One reply: text and tool calls (the scripted step's shape, kept here so the two files import one way). */
export interface MockStep {
  text: string;
  toolCalls: { name: string; args: Record<string, unknown> }[];
}

/**
 * PromptKit's mock provider config (mock-responses.yaml: `defaultResponse`, `scenarios.<id>.turns`),
 * the other form the scripted provider plays, so PromptKit's examples run offline as they were
 * written. Its rules are PromptKit's FileMockRepository and mock ToolProvider: the scenario's turn,
 * else the scenario's default, else the file's default.
 */

function buildPromptKitMockSchema() {
  const toolCallSchema = z.looseObject({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).optional() });
  /** A turn is text, or `{type, content, tool_calls}`. */
  const turnSchema = z.union([
    z.string(),
    z.looseObject({ type: z.string().optional(), content: z.string().optional(), tool_calls: z.array(toolCallSchema).optional() }),
  ]);
  const scenarioSchema = z.looseObject({
    defaultResponse: z.string().optional(),
    turns: z.record(z.string(), turnSchema).optional(),
  });
  return z.looseObject({
    defaultResponse: z.string().optional(),
    scenarios: z.record(z.string(), scenarioSchema.nullable()).optional(),
  });
}

let builtSchema: ReturnType<typeof buildPromptKitMockSchema> | undefined;

/**
 * The schema of a PromptKit mock file, built at its first use: every scripted run imports this
 * module, and only a PromptKit mock needs the schema (zod's schemas cost at construction).
 */
export function promptKitMockSchema(): ReturnType<typeof buildPromptKitMockSchema> {
  builtSchema ??= buildPromptKitMockSchema();
  return builtSchema;
}
export type PromptKitMock = z.infer<ReturnType<typeof buildPromptKitMockSchema>>;

/** Whether a parsed script file is PromptKit's mock config rather than auggy's rules. */
export function isPromptKitMock(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && !('rules' in raw) && ('scenarios' in raw || 'defaultResponse' in raw);
}

/**
 * The turn PromptKit's mock ToolProvider answers: the conversation's turn (its user messages, or
 * its assistant replies when more), one more once tool results are in it, so a tool call and the
 * reply after its result are turns 1 and 2, and the next message is turn 3.
 */
export function promptKitTurn(prompt: LanguageModelV3Prompt): number {
  let users = 0;
  let assistants = 0;
  let toolResults = 0;
  for (const message of prompt) {
    if (message.role === 'user') users++;
    else if (message.role === 'assistant') assistants++;
    else if (message.role === 'tool') toolResults++;
  }
  return Math.max(1, users, assistants) + (toolResults > 0 ? 1 : 0);
}

type MockTurn = NonNullable<NonNullable<NonNullable<PromptKitMock['scenarios']>[string]>['turns']>[string];

function stepOf(turn: MockTurn): MockStep {
  if (typeof turn === 'string') return { text: turn, toolCalls: [] };
  return { text: turn.content ?? '', toolCalls: (turn.tool_calls ?? []).map((call) => ({ name: call.name, args: call.arguments ?? {} })) };
}

/** PromptKit's final fallback when the file says nothing for the scenario. */
const LAST_RESORT = 'Mock response';

/** The reply for one call of scenario `scenario` (none outside `auggy test`). */
export function promptKitReply(mock: PromptKitMock, scenario: string | undefined, prompt: LanguageModelV3Prompt): MockStep {
  const own = scenario === undefined ? undefined : mock.scenarios?.[scenario];
  const turn = own?.turns?.[String(promptKitTurn(prompt))];
  if (turn !== undefined) return stepOf(turn);
  return { text: own?.defaultResponse ?? mock.defaultResponse ?? LAST_RESORT, toolCalls: [] };
}
