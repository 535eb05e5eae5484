import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { a2aClient, callerFolder, demoCopy, stateOf, toolResultsIn } from '../helpers/a2a-client.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { tmuxAvailable } from '../helpers/tmux.js';

const terminals = auggyTerminals();
let demo: ServeProcess;

beforeAll(async () => {
  demo = await startServe(demoCopy());
}, 60_000);
afterAll(async () => {
  demo.signal('SIGKILL');
  await demo.exited;
});

describe.skipIf(!tmuxAvailable())('auggy calling auggy over A2A, in a real terminal', { timeout: 120_000 }, () => {
  it("the served demo's question reaches the person of the calling agent, and the answer completes both turns", async () => {
    const caller = callerFolder(demo.url);
    const terminal = await terminals.run(caller, [], { width: 120, height: 40 });
    await sendLine(terminal, 'ship it');
    await terminal.waitForText('The agent demo asks:', { joined: true });
    await terminal.waitForText('Which production service should I deploy: api-west or api-east?', { joined: true });
    await sendLine(terminal, 'api-west');
    await terminal.waitForText('The demo agent has answered.', { joined: true });

    // The screen may show the reply a moment before the session log has the tool result.
    await vi.waitFor(() => expect(toolResultsIn(caller)).toHaveLength(1), { timeout: 30_000, interval: 50 });
    const reply = JSON.parse(toolResultsIn(caller)[0]) as { status: string; reply: string };
    expect(reply.status).toBe('completed');
    expect(reply.reply).toContain('Done: the new version is live.');
    const client = await a2aClient(demo.url);
    const listed = await client.listTasks({ tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks.map(stateOf)).toEqual(['TASK_STATE_COMPLETED']);
  });
});
