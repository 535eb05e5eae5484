import { describe, expect, it } from 'vitest';
import type { KernelEvent } from '../../src/kernel/events.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { agentOnServer } from './compaction-helpers.js';

const startServer = chatServersPerTest();

describe('/compact while a turn runs', () => {
  it('is refused as busy, tries nothing and says nothing on the stream, so the host says why itself', async () => {
    const server = await startServer([{ text: 'Working on it, slowly.', hold: true }]);
    const agent = await agentOnServer(server.url, 8000);
    const conversation = await agent.open();
    const events: KernelEvent[] = [];
    conversation.subscribe((event) => events.push(event));
    const turn = conversation.runTurn('start something long');
    await server.held();
    const refused = await conversation.compact();
    expect(refused).toEqual({ ok: false, why: 'a turn is running; compact once it has ended', busy: true });
    expect(events.some((event) => event.type === 'CUSTOM' && event.name === 'auggy.system')).toBe(false);
    server.release();
    expect((await turn).status).toBe('completed');
    await conversation.session.close();
  });
});
