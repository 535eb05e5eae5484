import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { isSummaryRequest } from '../summary-request.js';
import { fillResult, pickStep, type LoadedScript, type Script, type ScriptedStep } from './script.js';
import { promptKitReply } from './promptkit-mock.js';
import { scriptedSummary } from './summary-reply.js';

function latestUserText(prompt: LanguageModelV3Prompt): { text: string; toolRounds: number } {
  let toolRounds = 0;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message.role === 'assistant') toolRounds++;
    if (message.role === 'user') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { text, toolRounds };
    }
  }
  return { text: '', toolRounds };
}

/** The latest tool result after the user's message, as text: what a `result` rule matches. */
function latestToolResult(prompt: LanguageModelV3Prompt): string | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message.role === 'user') return undefined;
    if (message.role !== 'tool') continue;
    const outputs = message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []));
    const last = outputs.at(-1);
    if (last === undefined) continue;
    return last.type === 'text' || last.type === 'error-text' ? last.value : JSON.stringify('value' in last ? last.value : last);
  }
  return undefined;
}

function systemText(prompt: LanguageModelV3Prompt): string {
  return prompt.map((message) => (message.role === 'system' ? message.content : '')).join('\n');
}

function usageOf(text: string): LanguageModelV3Usage {
  const words = text.split(/\s+/).filter(Boolean).length;
  return {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: words, text: words, reasoning: 0 },
  };
}

/** Splits text into word-sized chunks so the stream looks like a model's. */
function chunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function streamParts(step: ScriptedStep, callIndex: number): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (step.text) {
    parts.push({ type: 'text-start', id: 'text-0' });
    for (const delta of chunks(step.text)) parts.push({ type: 'text-delta', id: 'text-0', delta });
    parts.push({ type: 'text-end', id: 'text-0' });
  }
  step.toolCalls.forEach((call, index) => {
    const toolCallId = `call_${callIndex}_${index}`;
    const input = JSON.stringify(call.args);
    parts.push({ type: 'tool-input-start', id: toolCallId, toolName: call.name });
    parts.push({ type: 'tool-input-delta', id: toolCallId, delta: input });
    parts.push({ type: 'tool-input-end', id: toolCallId });
    parts.push({ type: 'tool-call', toolCallId, toolName: call.name, input });
  });
  parts.push({
    type: 'finish',
    usage: usageOf(step.text ?? ''),
    finishReason: { unified: step.toolCalls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
  });
  return parts;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    // The listener goes when the pause ends: one per chunk would pile up on a long reply's signal.
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A model that replays a script instead of calling an API: the offline default of the bundled
 * examples and the basis of deterministic runs.
 */
export function createScriptedModel(script: LoadedScript, modelId: string, scenario?: string): LanguageModelV3 {
  let calls = 0;
  const replyCounts = new Map<number, number>();
  const replyFor = (options: LanguageModelV3CallOptions): ScriptedStep => {
    const { text, toolRounds } = latestUserText(options.prompt);
    const system = systemText(options.prompt);
    // A summary request is answered by a rule written for it (one with a `system` pattern that
    // fits), never by a catch-all rule meant for the person; without one, by the built-in summary.
    if (isSummaryRequest(system)) {
      const forSummaries: Script = { ...script, rules: script.rules.filter((rule) => rule.system !== undefined) };
      return (forSummaries.rules.length > 0 ? pickStep(forSummaries, text, system, 0) : undefined) ?? { text: scriptedSummary(text), toolCalls: [] };
    }
    if (script.promptKit) return promptKitReply(script.promptKit, scenario, options.prompt);
    const result = latestToolResult(options.prompt);
    const step = pickStep(script, text, system, toolRounds, replyCounts, result) ?? { text: '', toolCalls: [] };
    return step.text === undefined ? step : { ...step, text: fillResult(step.text, result) };
  };
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const step = replyFor(options);
      const callIndex = calls++;
      return {
        content: [
          ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
          ...step.toolCalls.map((call, index) => ({
            type: 'tool-call' as const,
            toolCallId: `call_${callIndex}_${index}`,
            toolName: call.name,
            input: JSON.stringify(call.args),
          })),
        ],
        finishReason: { unified: step.toolCalls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
        usage: usageOf(step.text ?? ''),
        warnings: [],
      };
    },
    async doStream(options) {
      const parts = streamParts(replyFor(options), calls++);
      const signal = options.abortSignal;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          try {
            for (const part of parts) {
              if (script.chunkDelayMs > 0 && part.type === 'text-delta') await sleep(script.chunkDelayMs, signal);
              controller.enqueue(part);
            }
            controller.close();
          } catch (error) {
            controller.error(error);
          }
        },
      });
      return { stream };
    },
  };
}
