import { z } from 'zod';
import type { EmitEvent, TurnOutcome } from './events.js';
import type { PersonChannel } from './person.js';

/** What a tool hands back. `terminate` ends the turn once its whole batch has settled. */
export interface ToolResult {
  content: string;
  isError?: boolean;
  terminate?: TurnOutcome;
  /** Extra facts recorded in the session (never sent to the model), e.g. request_input's reason. */
  record?: Record<string, unknown>;
  /**
   * The result comes from outside, later (a web page's frontend tool): the call is left open, the
   * turn ends once the batch settles, and the next run's tool message answers it.
   */
  deferred?: boolean;
}

export interface ToolContext {
  toolCallId: string;
  signal: AbortSignal;
  emit: EmitEvent;
  /** Whoever is at the prompt for this turn (NOBODY in print; serve's interrupts for an AG-UI 1.0 client). */
  person: PersonChannel;
}

/** A tool as the kernel sees it: input arrives unchecked and is validated by the tool's own schema. */
export interface KernelTool {
  name: string;
  description: string;
  inputSchema: z.ZodType;
  run(rawInput: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  description: string;
  inputSchema: S;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult> | ToolResult;
}

/**
 * Builds a kernel tool whose input is checked against its zod schema first; a bad input becomes
 * a tool error the model can read and correct, never an exception.
 */
export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): KernelTool {
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    async run(rawInput, ctx) {
      const parsed = definition.inputSchema.safeParse(rawInput);
      if (!parsed.success) {
        return {
          isError: true,
          content: `Invalid arguments for ${definition.name}: ${z.prettifyError(parsed.error)}. Call it again with corrected arguments.`,
        };
      }
      return definition.execute(parsed.data, ctx);
    },
  };
}

export function toolError(content: string): ToolResult {
  return { content, isError: true };
}
