import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { PNG_BYTES, imageUrlsOfLastUserMessage, textOfLastUserMessage } from '../helpers/images.js';
import { tempDir } from '../helpers/temp-dir.js';
import { tmuxAvailable, type Terminal } from '../helpers/tmux.js';

// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

/** `auggy run` started in `cwd`, where the chat reads the paths a message mentions from. */
function chatIn(cwd: string, dir: string, args: string[]): Promise<Terminal> {
  return terminals.run(dir, args, { cwd });
}

/** A PNG of 12 KB: the real 1×1 image with bytes after its end, as a photo's metadata would be. */
const PICTURE = Buffer.concat([PNG_BYTES, Buffer.alloc(12 * 1024 - PNG_BYTES.length)]);

describe.skipIf(!tmuxAvailable())('images in the chat, in a real terminal', { timeout: 180_000 }, () => {
  it('@pic.png sends the image to the model and shows it under the message; a missing one is said in a sentence and nothing is sent; resuming shows it again', async () => {
    const server = await startServer([{ text: 'A single dot.' }]);
    const work = tempDir();
    writeFileSync(join(work, 'pic.png'), PICTURE);
    const dir = makeAgentFolder();
    const args = ['--model', 'openai-compatible:test', '--base-url', server.url];
    const chat = await chatIn(work, dir, args);

    await sendLine(chat, 'what is in @pic.png?');
    const answered = await chat.waitForText('A single dot.');
    expect(answered).toContain('› what is in @pic.png?');
    expect(answered).toContain('attached pic.png (image/png, 12 KB)');
    expect(server.requests).toHaveLength(1);
    expect(textOfLastUserMessage(server.requests[0])).toBe('what is in @pic.png?');
    expect(imageUrlsOfLastUserMessage(server.requests[0])).toEqual([`data:image/png;base64,${PICTURE.toString('base64')}`]);
    await chat.waitForText('✓ completed');

    await sendLine(chat, 'and @gone.png?');
    const refused = await chat.waitForText('gone.png does not exist; check the path of the image', { joined: true });
    expect(refused).not.toContain('attached gone.png');
    expect(server.requests).toHaveLength(1);
    await chat.press('C-d');
    expect(await chat.waitForExit()).toBe(0);

    // The resumed chat prints the earlier transcript, the image's line with it.
    const resumed = await chatIn(work, dir, [...args, '--continue']);
    const shown = await resumed.screen();
    expect(shown).toContain('(resumed)');
    expect(shown).toMatch(/› what is in @pic\.png\?\n\s+attached pic\.png \(image\/png, 12 KB\)/);
  });
});
