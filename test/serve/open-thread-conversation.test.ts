import { describe, expect, it } from 'vitest';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { loadRunnableAgent, openThreadConversation } from '../../src/hosts/open-conversation.js';
import { folderStore } from '../../src/session/folder-store.js';
import type { SessionStore } from '../../src/session/store.js';

describe('openThreadConversation', () => {
  it('closes the session it opened when an augment fails to start', async () => {
    const dir = makeAgentFolder();
    const target = await loadRunnableAgent(dir, {}, () => undefined);
    const [turnControl] = target.augmentTypes;
    const broken = {
      ...target,
      augmentTypes: [
        {
          ...turnControl,
          create: () => {
            throw new Error('the augment could not start');
          },
        },
      ],
    };
    const folder = folderStore({ dir, name: target.agent.yaml.name, id: target.agent.yaml.id });
    const closed: string[] = [];
    const store: SessionStore = {
      ...folder,
      open: async (choice) => {
        const handle = await folder.open(choice);
        const close = handle.close.bind(handle);
        handle.close = async () => {
          closed.push(handle.id);
          await close();
        };
        return handle;
      },
    };
    await expect(openThreadConversation(broken, store, 'thread-1', { createIfMissing: true, warn: () => undefined })).rejects.toThrow(
      'the augment could not start',
    );
    expect(closed).toEqual(['thread-1']);
  });
});
