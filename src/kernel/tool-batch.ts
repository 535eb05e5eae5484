import type { EmitEvent, TurnOutcome } from './events.js';
import type { RequestedToolCall } from './model-step.js';
import { newMessageId } from './model-step.js';
import type { KernelTool, ToolResult } from './tool.js';
import type { PersonChannel } from './person.js';

export interface SettledCall {
  call: RequestedToolCall;
  result: ToolResult;
}

function unknownToolResult(call: RequestedToolCall, tools: KernelTool[]): ToolResult {
  const names = tools.map((t) => t.name).join(', ') || 'none';
  return { isError: true, content: `There is no tool named "${call.toolName}". Available tools: ${names}.` };
}

async function runOne(call: RequestedToolCall, tools: KernelTool[], signal: AbortSignal, emit: EmitEvent, person: PersonChannel): Promise<ToolResult> {
  const found = tools.find((t) => t.name === call.toolName);
  if (!found) return unknownToolResult(call, tools);
  if (call.invalidReason && typeof call.input === 'string') {
    return { isError: true, content: `The arguments for ${call.toolName} were not valid JSON (${call.invalidReason}). Call it again with a JSON object.` };
  }
  try {
    return await found.run(call.input, { toolCallId: call.toolCallId, signal, emit, person });
  } catch (error) {
    // A tool that throws is reported to the model like any other tool error; the turn carries on.
    return { isError: true, content: `${call.toolName} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * Runs every call of one model response at once and waits for all of them: a sibling of a
 * terminating tool is never cancelled, and every result is reported.
 */
export async function runToolBatch(
  calls: RequestedToolCall[],
  tools: KernelTool[],
  signal: AbortSignal,
  emit: EmitEvent,
  person: PersonChannel,
): Promise<SettledCall[]> {
  return Promise.all(
    calls.map(async (call) => {
      const result = await runOne(call, tools, signal, emit, person);
      // A deferred call has no result yet: whoever runs it sends one with the next run.
      if (!result.deferred)
        emit({
          type: 'TOOL_CALL_RESULT',
          messageId: newMessageId(),
          toolCallId: call.toolCallId,
          content: result.content,
          isError: result.isError || undefined,
        });
      return { call, result };
    }),
  );
}

/** The first terminating result in call order decides how the turn ends. */
export function terminationOf(settled: SettledCall[]): TurnOutcome | undefined {
  return settled.find((s) => s.result.terminate)?.result.terminate;
}
