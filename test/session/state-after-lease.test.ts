import { describe, expect, it } from 'vitest';
import { copyExample } from '../helpers/agent-fixture.js';
import { loadRunnableAgent, openConversation } from '../../src/hosts/open-conversation.js';
import { folderStore } from '../../src/session/folder-store.js';

/** Two processes on one agent folder: each its own store, so neither hears the other's writes as they happen. */
async function twoProcesses(example: string) {
  const target = await loadRunnableAgent(copyExample(example), {}, () => undefined);
  const agent = { dir: target.agent.dir, name: target.agent.yaml.name, id: target.agent.yaml.id };
  return { target, stores: [folderStore(agent), folderStore(agent)] };
}

describe('state files after the writer lock, in the agent folder', () => {
  it("an ask another process's turn set is this conversation's ask once it holds the lock", async () => {
    const { target, stores } = await twoProcesses('demo');
    const first = await openConversation(target, {}, () => undefined, stores[0]);
    const second = await openConversation(target, { sessionId: first.session.id }, () => undefined, stores[1]);
    expect(second.snapshot()).toMatchObject({ ask: null });
    await first.runTurn('hello');
    expect(second.snapshot()).toMatchObject({ ask: null });
    expect(await second.asWriter(async () => second.snapshot())).toMatchObject({ ask: { text: 'hello' } });
  });

  it("a workflow another process moved is where this conversation's next turn starts", async () => {
    const { target, stores } = await twoProcesses('support');
    const first = await openConversation(target, {}, () => undefined, stores[0]);
    await first.runTurn('I lost my card');
    const second = await openConversation(target, { sessionId: first.session.id }, () => undefined, stores[1]);
    await first.runTurn('ACC-12345');
    expect(second.snapshot()).toMatchObject({ workflow: { state: 'verifying' } });
    expect(await second.asWriter(async () => second.snapshot())).toMatchObject({ workflow: { state: 'triage' } });
  });
});
