import { afterEach, describe, expect, it } from 'vitest';
import { createModel } from '../../src/model/create-model.js';
import { runTurnLoop } from '../../src/kernel/turn-loop.js';
import type { KernelEvent } from '../../src/kernel/events.js';
import { createRequestInputTool, DEFAULT_REQUEST_INPUT_DESCRIPTION } from '../../src/augments/turn-control/request-input.js';
import { type AnthropicServer, messageStart, startAnthropicServer } from '../helpers/anthropic-server.js';

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FRAMES = [
  messageStart(),
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Two targets fit. ' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'request_input', input: {} } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"prompt": "api-west or api-east?"}' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } },
  { type: 'message_stop' },
];

describe('the anthropic provider', () => {
  it('streams a Messages API reply whose request_input tool call ends the turn input-required', async () => {
    server = await startAnthropicServer(FRAMES);
    const { url: baseURL, requests: received } = server;
    const built = await createModel({ provider: 'anthropic', model: 'claude-test', baseURL, apiKey: 'sk-test', apiKeyVariable: 'ANTHROPIC_API_KEY' });
    if (!built.ok) throw new Error(built.error);
    const events: KernelEvent[] = [];
    const result = await runTurnLoop({
      model: built.model,
      threadId: 't',
      runId: 'r',
      messages: [{ role: 'user', content: 'deploy the api' }],
      maxInferenceLoops: 5,
      signal: new AbortController().signal,
      emit: (e) => events.push(e),
      prepareRound: () => ({ system: 'You deploy services.', tools: [createRequestInputTool(DEFAULT_REQUEST_INPUT_DESCRIPTION)] }),
      onMessage: () => {},
      describeError: String,
    });
    expect(result).toMatchObject({ status: 'input-required', message: 'api-west or api-east?' });
    expect(received).toHaveLength(1);
    expect(received[0].path).toBe('/v1/messages');
    expect(received[0].apiKey).toBe('sk-test');
    expect(received[0].body).toMatchObject({ model: 'claude-test', stream: true });
    expect(JSON.stringify(received[0].body.system)).toContain('You deploy services.');
    expect((received[0].body.tools as { name: string }[]).map((t) => t.name)).toEqual(['request_input']);
    expect(events.filter((e) => e.type === 'TOOL_CALL_START')).toEqual([expect.objectContaining({ toolCallName: 'request_input' })]);
  });

  it('fails to build without a key, naming the variable', async () => {
    const built = await createModel({ provider: 'anthropic', model: 'claude-test', apiKeyVariable: 'ANTHROPIC_API_KEY' });
    expect(built).toEqual({ ok: false, error: expect.stringMatching(/^ANTHROPIC_API_KEY is not set/) });
  });
});
