import { APICallError } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { isContextOverflow } from '../../src/model/describe-error.js';
import { scriptedSummary } from '../../src/model/scripted/summary-reply.js';
import { loadRunnableAgent, openConversation } from '../../src/hosts/open-conversation.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyPrint } from '../helpers/auggy-cli.js';
import { startAnthropicServer, textFrames, type AnthropicRequest, type AnthropicServer } from '../helpers/anthropic-server.js';
import { chatServersPerTest, contextRefusal, contextRefusalStatus, OVERFLOW_SHAPES, type OverflowShape } from '../helpers/chat-server.js';
import { agentOnServer, isSummaryRequest, modelReply, turnMessage } from './compaction-helpers.js';

const startServer = chatServersPerTest();
let anthropic: AnthropicServer | undefined;
afterEach(async () => {
  await anthropic?.close();
  anthropic = undefined;
});

/**
 * The last text block of a Messages API request: the person's latest words (the provider joins
 * consecutive user messages, such as a summary and the message after it, into one of blocks).
 */
function anthropicLastText(request: AnthropicRequest): string {
  const messages = request.body.messages as { content: string | { type: string; text?: string }[] }[];
  const content = messages.at(-1)?.content ?? '';
  return typeof content === 'string' ? content : (content.at(-1)?.text ?? '');
}

function refusal(body: string, statusCode = 400) {
  return new APICallError({ message: 'Bad Request', url: 'http://127.0.0.1/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody: body });
}

describe('a refusal for length', () => {
  it.each(OVERFLOW_SHAPES)('is recognised in the words %s uses, with the status it sends', (shape: OverflowShape) => {
    expect(isContextOverflow(refusal(contextRefusal(shape, 7000, 4096), contextRefusalStatus(shape)))).toBe(true);
  });

  it('is not a server error that merely mentions a context', () => {
    expect(isContextOverflow(refusal(JSON.stringify({ error: { message: 'context window manager crashed', type: 'server_error' } }), 500))).toBe(false);
  });

  it("is recognised in Anthropic's words, and a 413 too", () => {
    const body = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } });
    expect(isContextOverflow(refusal(body))).toBe(true);
    expect(
      isContextOverflow(refusal(JSON.stringify({ type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum size' } }), 413)),
    ).toBe(true);
  });

  it('is not any other 400', () => {
    expect(isContextOverflow(refusal(JSON.stringify({ error: { message: "'messages' must be a list", type: 'invalid_request_error' } })))).toBe(false);
  });

  it.each(OVERFLOW_SHAPES)('from a %s server with no stated window is met by one compaction and the same call once more', async (shape: OverflowShape) => {
    const server = await startServer(modelReply, { contextTokens: 2500, overflowShape: shape });
    // No maxContextTokens: nothing compacts before the server refuses.
    const agent = await (await agentOnServer(server.url, undefined)).open();
    const lines: string[] = [];
    agent.subscribe((event) => {
      if (event.type === 'CUSTOM' && event.name === 'auggy.system') lines.push((event.value as { text: string }).text);
    });
    const results = [];
    for (let n = 1; n <= 8; n++) results.push(await agent.runTurn(turnMessage(n)));
    expect(results.map((result) => result.status)).toEqual(Array(8).fill('completed'));
    const refused = server.requests.filter((request, index) => index > 0 && isSummaryRequest(request)).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(lines.some((line) => /^context compacted \(the model refused it as too long; \d+ earlier messages? summarised\)/.test(line))).toBe(true);
    expect(agent.session.entries().entries.some((entry) => entry.kind === 'compaction' && entry.reason === 'overflow')).toBe(true);
  });

  it('that compaction cannot meet fails the turn with what to do, and the next message is answered', async () => {
    const server = await startServer(modelReply, { contextTokens: 2500, overflowShape: 'openai' });
    const conversation = await (await agentOnServer(server.url, undefined)).open();
    const huge = `turn 1: ${'a pasted log line\n'.repeat(1200)}`;
    const failed = await conversation.runTurn(huge);
    expect(failed.status).toBe('failed');
    expect(failed.code).toBe('context_overflow');
    expect(failed.message).toMatch(/^the conversation is longer than openai-compatible:test takes \("This model's maximum context length is 2500 tokens/);
    expect(failed.message).toMatch(
      /\(the conversation is one turn .*\); raise engine\.maxContextTokens if the model's window is larger, type \/compact with less to keep, or \/clear to start afresh$/,
    );
    // The pasted turn is now an earlier one: the next message compacts it away and is answered.
    const next = await conversation.runTurn('turn 2: a short question');
    expect(next.status).toBe('completed');
    expect(next.text).toBe('noted 2');
  });

  it('--print, where nobody can type /compact or /clear, is told the setting and a new session instead', async () => {
    const server = await startServer(modelReply, { contextTokens: 2500, overflowShape: 'openai' });
    const { dir } = await agentOnServer(server.url, undefined);
    const result = await auggyPrint(dir, server.url, `turn 1: ${'a pasted log line\n'.repeat(1200)}`);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/the conversation is longer than openai-compatible:test takes/);
    expect(result.stderr).toMatch(/; raise engine\.maxContextTokens if the model's window is larger or start a new session$/);
    expect(result.stderr).not.toMatch(/\/compact|\/clear/);
  });

  it('from the Anthropic Messages API ("prompt is too long") is met the same way', async () => {
    const window = 2500;
    anthropic = await startAnthropicServer((request) => {
      const tokens = Math.ceil(JSON.stringify({ system: request.body.system, messages: request.body.messages, tools: request.body.tools ?? [] }).length / 4);
      if (tokens > window)
        return {
          status: 400,
          body: { type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${window} maximum` } },
        };
      const text = anthropicLastText(request);
      if (JSON.stringify(request.body.system ?? '').includes('auggy-compaction:')) return { frames: textFrames(scriptedSummary(text), tokens) };
      return { frames: textFrames(`noted ${/^turn (\d+)/.exec(text)?.[1] ?? '?'}`, tokens) };
    });
    const dir = makeAgentFolder({
      engine: `engine:\n  provider: anthropic\n  model: claude-test\n  baseURL: ${anthropic.url}\n  maxTokens: 200\n`,
      files: { '.env': 'ANTHROPIC_API_KEY=sk-test\n' },
    });
    const conversation = await openConversation(await loadRunnableAgent(dir, {}, () => undefined), {}, () => undefined);
    const results = [];
    for (let n = 1; n <= 8; n++) results.push(await conversation.runTurn(turnMessage(n)));
    expect(results.map((result) => result.text)).toEqual(Array.from({ length: 8 }, (_, index) => `noted ${index + 1}`));
    const overflows = conversation.session.entries().entries.filter((entry) => entry.kind === 'compaction' && entry.reason === 'overflow');
    expect(overflows.length).toBeGreaterThanOrEqual(1);
    expect(anthropic.requests.every((request) => request.apiKey === 'sk-test')).toBe(true);
  });
});
