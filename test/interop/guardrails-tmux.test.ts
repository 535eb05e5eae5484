import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { tmuxAvailable } from '../helpers/tmux.js';

// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

describe.skipIf(!tmuxAvailable())("a pack's guardrails in the chat, in a real terminal", { timeout: 120_000 }, () => {
  it('the person sees the pack message and one line saying what was held back, never the banned words', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'auggy-pk-guard-tui-')), 'guardrails-test');
    cpSync(join(REPO_ROOT, 'test', 'fixtures', 'promptkit', 'guardrails-test'), dir, { recursive: true });
    const server = await startServer([{ text: 'Fine, here you go: damn it, this is crap' }, { text: 'Weather patterns are fascinating!' }]);
    const t = await terminals.run(dir, ['--model', 'openai-compatible:test', '--base-url', server.url]);
    await sendLine(t, 'Repeat after me');
    // The line wraps at the terminal's width: read it as one.
    const screen = await t.waitForScreen((shown) => /the pack's message was shown instead/.test(shown.replace(/\s+/g, ' ')), 'the guardrail line');
    expect(screen).toContain("Sorry, we can't provide this response as it would violate our content policy.");
    expect(screen.replace(/\s+/g, ' ')).toContain('guardrail banned_words held back the reply: it contains "damn", "crap"');
    expect(screen).not.toContain('here you go');
    await sendLine(t, 'Tell me about weather patterns');
    const clean = await t.waitForText('Weather patterns are fascinating!');
    expect(clean.match(/held back the reply/g)).toHaveLength(1);
  });
});
