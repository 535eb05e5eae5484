import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelMessage } from 'ai';
import { runTurnLoop, type TurnLoopOptions } from '../../src/kernel/turn-loop.js';
import { defineTool, type KernelTool } from '../../src/kernel/tool.js';
import { systemLineOf, type KernelEvent } from '../../src/kernel/events.js';
import { createRequestInputTool, DEFAULT_REQUEST_INPUT_DESCRIPTION } from '../../src/augments/turn-control/request-input.js';
import { mockModel, type MockStep } from '../helpers/mock-model.js';

function slowTool(log: string[]): KernelTool {
  return defineTool({
    name: 'lookup',
    description: 'looks something up slowly',
    inputSchema: z.object({ key: z.string() }),
    async execute({ key }) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      log.push(`finished ${key}`);
      return { content: `value of ${key}` };
    },
  });
}

async function run(steps: MockStep[], tools: KernelTool[], extra: Partial<TurnLoopOptions> = {}) {
  const model = mockModel(steps);
  const events: KernelEvent[] = [];
  const kept: ModelMessage[] = [];
  const records: { name: string; data: Record<string, unknown> }[] = [];
  const result = await runTurnLoop({
    model,
    threadId: 'thread',
    runId: 'run',
    messages: [{ role: 'user', content: 'please help' }],
    maxInferenceLoops: 10,
    signal: new AbortController().signal,
    emit: (event) => events.push(event),
    prepareRound: () => ({ system: 'You are a test agent.', tools }),
    onMessage: (message) => kept.push(message),
    onRecord: (name, data) => records.push({ name, data }),
    describeError: (error) => `failed: ${error instanceof Error ? error.message : String(error)}`,
    maxRetries: 0,
    ...extra,
  });
  return { result, events, kept, records, model };
}

const requestInput = createRequestInputTool(DEFAULT_REQUEST_INPUT_DESCRIPTION);

describe('the turn loop', () => {
  it('completes when the model answers without tool calls', async () => {
    const { result, events, model } = await run([{ text: 'All done.' }], [requestInput]);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('All done.');
    expect(model.doStreamCalls).toHaveLength(1);
    expect(events[0].type).toBe('RUN_STARTED');
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
  });

  it('request_input ends the turn after sibling tools settle, with no second inference', async () => {
    const log: string[] = [];
    const { result, events, model, kept, records } = await run(
      [
        {
          toolCalls: [
            { name: 'request_input', args: { prompt: 'Which region?', reason: 'two regions' } },
            { name: 'lookup', args: { key: 'regions' } },
          ],
        },
      ],
      [requestInput, slowTool(log)],
    );
    expect(model.doStreamCalls).toHaveLength(1);
    expect(log).toEqual(['finished regions']);
    expect(result).toMatchObject({ status: 'input-required', message: 'Which region?' });
    expect(result.toolCalls.map((c) => c.name)).toEqual(['request_input', 'lookup']);
    const toolResults = events.filter((e) => e.type === 'TOOL_CALL_RESULT');
    expect(toolResults).toHaveLength(2);
    // The question is the visible reply, emitted before the run finishes.
    const finishedAt = events.findIndex((e) => e.type === 'RUN_FINISHED');
    const questionAt = events.findIndex((e) => e.type === 'TEXT_MESSAGE_CONTENT' && e.delta === 'Which region?');
    expect(questionAt).toBeGreaterThan(-1);
    expect(questionAt).toBeLessThan(finishedAt);
    expect(events[finishedAt]).toMatchObject({ result: { status: 'input-required', message: 'Which region?' } });
    expect(kept.filter((m) => m.role === 'tool')).toHaveLength(1);
    expect(records).toEqual([{ name: 'request_input', data: expect.objectContaining({ reason: 'two regions' }) }]);
  });

  it.each([
    ['an empty prompt', ''],
    ['a prompt of 2001 characters', 'x'.repeat(2001)],
  ])('request_input with %s is a tool error the model can correct, not a termination', async (_label, prompt) => {
    const { result, model, events } = await run(
      [{ toolCalls: [{ name: 'request_input', args: { prompt } }] }, { text: 'I will carry on without asking.' }],
      [requestInput],
    );
    expect(model.doStreamCalls).toHaveLength(2);
    expect(result.status).toBe('completed');
    const toolResult = events.find((e) => e.type === 'TOOL_CALL_RESULT');
    expect(toolResult).toMatchObject({ isError: true });
  });

  it('accepts a prompt of exactly 2000 characters', async () => {
    const prompt = 'q'.repeat(2000);
    const { result } = await run([{ toolCalls: [{ name: 'request_input', args: { prompt } }] }], [requestInput]);
    expect(result).toMatchObject({ status: 'input-required', message: prompt });
  });

  it('sends invalid tool arguments back as an error and runs the corrected call', async () => {
    const log: string[] = [];
    const { result, model } = await run(
      [{ toolCalls: [{ name: 'lookup', args: { key: 42 } }] }, { toolCalls: [{ name: 'lookup', args: { key: 'k' } }] }, { text: 'Found it.' }],
      [slowTool(log)],
    );
    expect(result.status).toBe('completed');
    expect(log).toEqual(['finished k']);
    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(result.toolCalls[0].content).toMatch(/Invalid arguments for lookup/);
    // The second request carries the error so the model can correct itself.
    const secondPrompt = JSON.stringify(model.doStreamCalls[1].prompt);
    expect(secondPrompt).toContain('Invalid arguments for lookup');
  });

  it('answers a call to an unknown tool or with unparseable JSON with a tool error', async () => {
    const { result } = await run(
      [
        {
          toolCalls: [
            { name: 'nonexistent', args: {} },
            { name: 'lookup', args: '{not json' },
          ],
        },
        { text: 'ok' },
      ],
      [slowTool([])],
    );
    expect(result.status).toBe('completed');
    expect(result.toolCalls.every((c) => c.isError)).toBe(true);
  });

  it('stops budget-exhausted when maxInferenceLoops is reached', async () => {
    const steps = Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'lookup', args: { key: 'again' } }] }));
    const { result, model, events } = await run(steps, [slowTool([])], { maxInferenceLoops: 3 });
    expect(model.doStreamCalls).toHaveLength(3);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/maxInferenceLoops/);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'budget-exhausted' } });
  });

  it('a closing batch decision with nothing said runs one tool-less round whose text is the reply', async () => {
    const close = { outcome: { status: 'completed' as const, message: 'done' }, fallback: 'All done.' };
    const { result, model } = await run([{ toolCalls: [{ name: 'lookup', args: { key: 'x' } }] }, { text: 'Here is the summary.' }], [slowTool([])], {
      afterBatch: async () => ({ close }),
    });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(model.doStreamCalls[1].tools ?? []).toEqual([]);
    expect(result).toMatchObject({ status: 'completed', message: 'done', text: 'Here is the summary.' });
  });

  it('a closing batch decision after text ends at once; with no text anywhere the fallback is the reply', async () => {
    const close = { outcome: { status: 'completed' as const }, fallback: 'All done.' };
    const said = await run([{ text: 'Moving on.', toolCalls: [{ name: 'lookup', args: { key: 'x' } }] }, { text: 'never' }], [slowTool([])], {
      afterBatch: async () => ({ close }),
    });
    expect(said.model.doStreamCalls).toHaveLength(1);
    expect(said.result.text).toBe('Moving on.');
    const silent = await run([{ toolCalls: [{ name: 'lookup', args: { key: 'x' } }] }, {}], [slowTool([])], { afterBatch: async () => ({ close }) });
    expect(silent.model.doStreamCalls).toHaveLength(2);
    expect(silent.result.text).toBe('All done.');
    expect(silent.events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? e.delta : ''))).toEqual([
      'All done.',
    ]);
  });

  it('cancels on abort and keeps the partial text', async () => {
    const controller = new AbortController();
    const kept: ModelMessage[] = [];
    const pending = run([{ text: 'Partial answ', hang: true }], [], {
      signal: controller.signal,
      onMessage: (m) => kept.push(m),
      emit: (event) => {
        if (event.type === 'TEXT_MESSAGE_CONTENT') controller.abort();
      },
    });
    const { result } = await pending;
    expect(result.status).toBe('canceled');
    expect(result.text).toBe('Partial answ');
    expect(kept).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Partial answ' }] }]);
  });

  it('a provider error fails the turn with RUN_ERROR and no RUN_FINISHED, closing open messages', async () => {
    const { result, events } = await run([{ text: 'Starting', error: new Error('socket hang up') }], []);
    expect(result.status).toBe('failed');
    expect(result.message).toBe('failed: socket hang up');
    expect(events.filter((e) => e.type === 'RUN_FINISHED')).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR' });
    const starts = events.filter((e) => e.type === 'TEXT_MESSAGE_START').length;
    const ends = events.filter((e) => e.type === 'TEXT_MESSAGE_END').length;
    expect(ends).toBe(starts);
  });

  describe('a reply cut at the output limit names the limit that cut it', () => {
    const cutReply = (engine: number, asked: number | undefined) =>
      run([{ text: 'A long answer that', cut: true }], [], {
        maxOutputTokens: engine,
        prepareRound: () => ({ system: 'You are a test agent.', tools: [], ...(asked !== undefined ? { settings: { maxOutputTokens: asked } } : {}) }),
      });
    const lines = (events: KernelEvent[]) => events.flatMap((event) => systemLineOf(event) ?? []);

    it("a prompt's max_tokens below the engine's is the one named", async () => {
      const { result, events, model } = await cutReply(1000, 50);
      expect(model.doStreamCalls[0].maxOutputTokens).toBe(50);
      expect(result.status).toBe('completed');
      expect(lines(events)).toEqual(["the reply was cut at the output limit (the prompt's max_tokens 50); raise the prompt's max_tokens for longer replies"]);
    });

    it("the engine's limit is named when it caps the prompt's, or no prompt asks", async () => {
      for (const asked of [500, undefined]) {
        const { events } = await cutReply(64, asked);
        expect(lines(events)).toEqual(['the reply was cut at the output limit (engine.maxTokens 64); raise engine.maxTokens for longer replies']);
      }
    });

    it('a prompt whose limit left no room for a word fails naming that limit', async () => {
      const { result } = await run([{ cut: true }], [], {
        maxOutputTokens: 1000,
        prepareRound: () => ({ system: 'You are a test agent.', tools: [], settings: { maxOutputTokens: 1 } }),
      });
      expect(result).toMatchObject({
        status: 'failed',
        code: 'empty_reply',
        message: "the model returned an empty reply; it stopped at the output limit (the prompt's max_tokens 1) before saying anything",
      });
    });
  });
});
