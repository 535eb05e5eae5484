import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyTerminals } from '../helpers/auggy-terminal.js';
import { tmuxAvailable } from '../helpers/tmux.js';

const terminals = auggyTerminals();

describe.skipIf(!tmuxAvailable())('the chat with a model it cannot call', () => {
  it('a missing key is the first thing on the screen, exit 2, and no session is written', async () => {
    const dir = makeAgentFolder({ engine: 'engine:\n  provider: anthropic\n  model: claude-sonnet-4-5\n' });
    const terminal = await terminals.open({ command: ['node', AUGGY_BIN, 'run', dir], width: 120, height: 20 });
    expect(await terminal.waitForExit()).toBe(2);
    const screen = await terminal.screen({ joined: true });
    expect(screen).toContain('auggy: ANTHROPIC_API_KEY is not set, so the anthropic provider cannot be called');
    expect(screen).not.toMatch(/Type a message/);
    expect(existsSync(join(dir, '.auggy'))).toBe(false);
  });
});
