import { describe, expect, it } from 'vitest';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';
import { Conversation } from '../../src/kernel/conversation.js';
import { createModelCache } from '../../src/model/model-cache.js';
import type { ModelBuilder } from '../../src/model/model-cache.js';
import { openSession } from '../../src/session/session.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { loadFolder } from '../helpers/board-fixture.js';
import { chatServersPerTest } from '../helpers/chat-server.js';

const startServer = chatServersPerTest();

describe('Conversation.switchModel', () => {
  it('holds the conversation while the new model is built: a turn asked for meanwhile is refused, never run on the old model', async () => {
    const server = await startServer([{ text: 'On the second.' }]);
    const dir = makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: first\n  baseURL: ${server.url}\n` });
    const agent = await loadFolder(dir);
    const session = await openSession({ agentDir: dir, agentName: agent.yaml.name });
    // Building a model takes a while (a provider's module loads): here, until the test says.
    const cache = createModelCache();
    let built: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      built = resolve;
    });
    const models: ModelBuilder = async (spec) => {
      if (spec.model === 'second') await ready;
      return cache(spec);
    };
    const modelSpec = { provider: 'openai-compatible' as const, model: 'first', baseURL: server.url };
    const conversation = await Conversation.open({ augmentTypes: BUILTIN_AUGMENTS, agent, modelSpec, models, session, warn: () => undefined });

    const switching = conversation.switchModel('openai-compatible:second');
    await expect(conversation.runTurn('hi')).rejects.toThrow('a turn is already running');
    built();
    expect(await switching).toEqual({ ok: true, model: 'openai-compatible:second' });
    const turn = await conversation.runTurn('hi');
    expect(turn.text).toBe('On the second.');
    expect(server.requests.map((request) => request.body.model)).toEqual(['second']);
    await session.close();
  });
});
