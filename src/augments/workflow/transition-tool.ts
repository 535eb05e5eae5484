import { z } from 'zod';
import type { KernelTool, ToolResult } from '../../kernel/tool.js';
import type { StateDef } from './pack-model.js';

export const TRANSITION_TOOL = 'workflow__transition';

/** PromptKit's shape is a summary string; an object of facts is accepted too and kept as given. */
const contextSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);

/** Accepts an event for the batch in progress; returns an error text when it cannot. */
export type AcceptEvent = (request: { event: string; context?: Record<string, unknown> | string; toolCallId: string }) => string | undefined;

/** What happens after the move, in the words the model reads in the prompt and the tool result. */
export function arrivalNote(target: StateDef): string {
  if (target.ask) {
    const count = target.ask.fields.length;
    return `the person is asked ${count === 1 ? 'one question' : `${count} questions`} there, and their answer moves the workflow on`;
  }
  if (target.terminal) return 'the workflow ends there';
  if (target.orchestration === 'external' || target.orchestration === 'composition') return 'the turn goes back to the user while it is driven from outside';
  return target.control === 'agent' ? 'you continue there at once' : 'the turn then goes back to the user';
}

/**
 * workflow__transition for one state: `event` is an enum of the state's on_event keys. The call
 * is checked now and committed by the augment once the whole tool batch has settled.
 */
export function createTransitionTool(state: StateDef, states: Record<string, StateDef>, accept: AcceptEvent): KernelTool {
  const events = Object.keys(state.onEvent);
  const valid = `valid events in state ${state.name}: ${events.join(', ')}`;
  // What the model is shown is PromptKit's definition: event from the state's events, context a summary.
  const inputSchema = z.object({
    event: z.enum(events as [string, ...string[]]).describe(`The workflow event to trigger: one that has happened in state ${state.name}.`),
    context: z.string().describe('Summary of relevant context to carry forward (ids, answers, findings); the next state reads it.'),
  });
  const loose = z.object({ event: z.string(), context: contextSchema.nullish() });
  return {
    name: TRANSITION_TOOL,
    description:
      `Move the workflow out of state ${state.name} by naming the event that has happened: ` +
      events.map((event) => `${event} → ${state.onEvent[event]}`).join('; ') +
      '. Call it once per response, when the event has really happened.',
    inputSchema,
    async run(rawInput, ctx): Promise<ToolResult> {
      const parsed = loose.safeParse(rawInput);
      if (!parsed.success) {
        return {
          isError: true,
          content: `Invalid arguments for ${TRANSITION_TOOL}: ${z.prettifyError(parsed.error)}. Pass {"event": ..., "context": "a short summary"}; ${valid}.`,
        };
      }
      const { event } = parsed.data;
      const context = parsed.data.context ?? undefined;
      if (!events.includes(event)) return { isError: true, content: `Unknown event "${event}"; ${valid}.` };
      const refused = accept({ event, context, toolCallId: ctx.toolCallId });
      if (refused) return { isError: true, content: refused };
      const target = states[state.onEvent[event]];
      return {
        content: `Event ${event} accepted: ${state.name} → ${target.name} once this response's tool calls have finished; ${arrivalNote(target)}.`,
      };
    },
  };
}
