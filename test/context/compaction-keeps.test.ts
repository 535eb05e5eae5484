import { describe, expect, it } from 'vitest';
import { CONTEXT_COMPACTED_EVENT } from '../../src/kernel/context/context-events.js';
import type { KernelEvent } from '../../src/kernel/events.js';
import { clientTool } from '../../src/hosts/agui/client-tools.js';
import { THREE_LINES } from '../helpers/board-fixture.js';
import { chatServersPerTest, type ChatReply, type ReceivedRequest } from '../helpers/chat-server.js';
import { packText, PACK_FILE } from '../augments/workflow/harness.js';
import { agentOnServer, isSummaryRequest, modelReply, turnMessage } from './compaction-helpers.js';

const startServer = chatServersPerTest();

const PACK = packText({
  entry: 'intake',
  states: {
    intake: { prompt_task: 'intake', description: 'Find out who is asking.', on_event: { Identified: 'review' } },
    review: { prompt_task: 'review', description: 'Review the account.', on_event: { Approved: 'done' } },
    done: { prompt_task: 'done', terminal: true },
  },
});

function systemOf(request: ReceivedRequest): string {
  const system = request.body.messages.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

function lastText(request: ReceivedRequest): string {
  const last = request.body.messages.at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
}

/**
 * The model: the userAsk evaluator gets a verdict, turn 1 moves the workflow on with the account
 * as carried context, and the rest is modelReply (summaries kept careful, `noted N`).
 */
function keepingModel(request: ReceivedRequest): ChatReply {
  if (systemOf(request).includes('turn evaluator for a tracked user request')) return { text: '{"outcome": "in_progress", "reason": "still going"}' };
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') return { text: 'noted 1' };
  if (!isSummaryRequest(request) && lastText(request).startsWith('turn 1:'))
    return { toolCalls: [{ name: 'workflow__transition', args: { event: 'Identified', context: 'the account is ACME-77' } }] };
  return modelReply(request);
}

describe('what a compaction never summarises away', () => {
  it('the board, the tracked ask and the workflow state with its carried context are in every request after a compaction, and the evaluator reads the compacted transcript', async () => {
    const server = await startServer(keepingModel, { contextTokens: 40_000 });
    const agent = await agentOnServer(server.url, 4000, '', {
      augments: ['turnControl', 'board', 'userAsk', 'workflow'],
      files: {
        'augments/board/augment.yaml': THREE_LINES,
        'augments/workflow/augment.yaml': `type: workflow\nconfig:\n  pack: ./${PACK_FILE}\n`,
        [PACK_FILE]: PACK,
      },
    });
    const conversation = await agent.open();
    const compacted: unknown[] = [];
    conversation.subscribe((event: KernelEvent) => {
      if (event.type === 'CUSTOM' && event.name === CONTEXT_COMPACTED_EVENT) compacted.push(event.value);
    });
    expect((await conversation.hostInput('board', 'queue=ship the invoice fix first')).ok).toBe(true);
    let n = 1;
    for (; n <= 12 && compacted.length < 2; n++) expect((await conversation.runTurn(turnMessage(n))).status).toBe('completed');
    expect(compacted.length).toBe(2);
    const after = server.requests.filter((request) => !isSummaryRequest(request) && !systemOf(request).includes('turn evaluator')).at(-1);
    if (!after) throw new Error('no turn request');
    // The conversation before was summarised: turn 1 is no longer there word for word.
    expect(after.body.messages.find((message) => message.role === 'user')?.content).toMatch(/^\[The earlier conversation, summarised/);
    const system = systemOf(after);
    expect(system).toContain('ship the invoice fix first');
    expect(system).toContain('remember the changelog');
    expect(system).toContain('Current state: review');
    expect(system).toContain('ACME-77');
    expect(system).toContain('Current ask:');
    expect(system).toContain(`turn ${n - 1}: more notes.`);
    expect(conversation.snapshot()).toMatchObject({ ask: { active: true } });
    // The userAsk evaluator judged the last turn from the same compacted transcript.
    const judged = server.requests.filter((request) => systemOf(request).includes('turn evaluator')).at(-1);
    expect(judged && lastText(judged)).toContain("[The earlier conversation, summarised to fit the model's context");

    // The summary itself: the agent's own model, no tools, the fixed headings in order, and told
    // what travels beside the conversation so it need not keep it.
    const summary = server.requests.find(isSummaryRequest);
    if (!summary) throw new Error('no summary request');
    expect(summary.body.model).toBe('test');
    expect(summary.body.tools ?? []).toEqual([]);
    const headings = [...systemOf(summary).matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual([
      'What the person wants',
      'Decisions made',
      'What was done',
      'What is open',
      'Facts and names that must survive',
      'Files and resources touched',
    ]);
    const prompt = lastText(summary);
    expect(prompt).toMatch(/^Sent with every call beside the conversation/);
    expect(prompt).toContain('\n  Current ask:\n');
    expect(prompt).toContain('ship the invoice fix first');
    expect(prompt.indexOf('Current state: review')).toBeLessThan(prompt.indexOf('The conversation to summarise:'));
  });

  it('a call left open on the client (an interrupt) stays whole through /compact, and its result resumes the turn', async () => {
    const picker = clientTool({ name: 'pick_region', description: 'The page asks the person for a region.', parameters: { type: 'object', properties: {} } });
    const server = await startServer(
      (request) => {
        const last = request.body.messages.at(-1);
        if (last?.role === 'tool') return { text: `picked ${String(last.content)}` };
        if (!isSummaryRequest(request) && lastText(request).startsWith('pick a region')) return { toolCalls: [{ name: 'pick_region', args: {} }] };
        return modelReply(request);
      },
      { contextTokens: 40_000 },
    );
    const conversation = await (await agentOnServer(server.url, 20_000, '  compact:\n    keep: 0\n')).open();
    for (let n = 1; n <= 4; n++) await conversation.runTurn(turnMessage(n));
    const asked = await conversation.runTurn(`pick a region ${'for the deploy, '.repeat(40)}`, { clientTools: [picker] });
    expect(asked.status).toBe('input-required');
    const open = conversation.openToolCalls();
    expect(open).toEqual([{ toolCallId: expect.any(String), toolName: 'pick_region' }]);

    const made = await conversation.compact();
    // With engine.compact.keep 0 every earlier turn goes; the one that asked is the latest and stays.
    expect(made).toMatchObject({ ok: true, entry: { reason: 'command', replacedMessages: 8 } });
    expect(conversation.openToolCalls()).toEqual(open);

    const resumed = await conversation.resumeTurn([{ toolCallId: open[0].toolCallId, content: 'eu-west' }], { clientTools: [picker] });
    expect(resumed).toMatchObject({ status: 'completed', text: 'picked eu-west' });
    const sent = server.requests.at(-1)?.body.messages ?? [];
    expect(String(sent.find((message) => message.role === 'user')?.content)).toMatch(/^\[The earlier conversation, summarised/);
    // The question's turn is there word for word: the call, then its result, right after it.
    const call = sent.findIndex((message) => message.tool_calls?.some((tool) => tool.id === open[0].toolCallId));
    expect(call).toBeGreaterThan(0);
    expect(sent[call + 1]).toMatchObject({ role: 'tool', tool_call_id: open[0].toolCallId, content: 'eu-west' });
  });
});
