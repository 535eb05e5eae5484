import { describe, expect, it } from 'vitest';
import { CONTEXT_COMPACTED_EVENT } from '../../src/kernel/context/context-events.js';
import type { KernelEvent } from '../../src/kernel/events.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { agentOnServer, FACT, isSummaryRequest, modelReply, requestText, turnMessage } from './compaction-helpers.js';

const startServer = chatServersPerTest();

describe('a conversation longer than its model window', () => {
  it('300 turns against a 6,000-token server all complete, compacted several times, the fact of turn 1 kept to the end', async () => {
    const server = await startServer(modelReply, { contextTokens: 6000, overflowShape: 'llama.cpp' });
    const agent = await agentOnServer(server.url, 6000);
    const conversation = await agent.open();
    const compactions: unknown[] = [];
    conversation.subscribe((event: KernelEvent) => {
      if (event.type === 'CUSTOM' && event.name === CONTEXT_COMPACTED_EVENT) compactions.push(event.value);
    });
    const statuses = new Set<string>();
    for (let n = 1; n <= 299; n++) {
      const result = await conversation.runTurn(turnMessage(n));
      statuses.add(result.status);
      expect(result.text, `turn ${n}`).toBe(`noted ${n}`);
    }
    const last = await conversation.runTurn('What is the secret code?');
    expect(last.text).toBe('The secret code is AZ-4471.');
    expect([...statuses]).toEqual(['completed']);
    expect(compactions.length).toBeGreaterThanOrEqual(5);
    // No request the server refused: every compaction came before the window was reached.
    const turnRequests = server.requests.filter((request) => !isSummaryRequest(request));
    expect(turnRequests).toHaveLength(300);
    expect(turnRequests.every((request) => requestText(request).includes(FACT))).toBe(true);
    expect(last.context?.limit).toBe(6000);
    expect(last.context?.used).toBeLessThan(6000);

    // The log keeps every turn; a resumed conversation rebuilds the compacted transcript.
    const entries = conversation.session.entries().entries;
    expect(entries.filter((entry) => entry.kind === 'user')).toHaveLength(300);
    expect(entries.filter((entry) => entry.kind === 'compaction').length).toBe(compactions.length);
    const resumed = await agent.open(conversation.session.id);
    expect(resumed.transcript()).toEqual(conversation.transcript());
  }, 120_000);
});
