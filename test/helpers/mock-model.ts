import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

export interface MockStep {
  text?: string;
  toolCalls?: { name: string; args: unknown; id?: string }[];
  /** Throw this from the stream after the text. */
  error?: Error;
  /** Wait for the abort signal after the first text chunk (a model that never finishes). */
  hang?: boolean;
  /** The step stopped at the output limit rather than finishing. */
  cut?: boolean;
}

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
};

/** A fake model that answers each inference with the next step, recording the calls it got. */
export function mockModel(steps: MockStep[]): MockLanguageModelV3 {
  let index = 0;
  return new MockLanguageModelV3({
    doStream: async (options) => {
      const step = steps[index] ?? { text: 'out of steps' };
      const callIndex = index++;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          if (step.text) {
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: step.text });
            if (step.hang) {
              await new Promise<void>((resolve) => options.abortSignal?.addEventListener('abort', () => resolve(), { once: true }));
              controller.error(options.abortSignal?.reason ?? new Error('aborted'));
              return;
            }
            controller.enqueue({ type: 'text-end', id: 't' });
          }
          if (step.error) {
            controller.error(step.error);
            return;
          }
          (step.toolCalls ?? []).forEach((call, i) => {
            controller.enqueue({
              type: 'tool-call',
              toolCallId: call.id ?? `c${callIndex}_${i}`,
              toolName: call.name,
              input: typeof call.args === 'string' ? call.args : JSON.stringify(call.args),
            });
          });
          controller.enqueue({
            type: 'finish',
            usage,
            finishReason: step.cut
              ? { unified: 'length', raw: 'length' }
              : { unified: step.toolCalls?.length ? 'tool-calls' : 'stop', raw: step.toolCalls?.length ? 'tool_calls' : 'stop' },
          });
          controller.close();
        },
      });
      return { stream };
    },
  });
}
