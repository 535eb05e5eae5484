import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Ink reads CI when it is first imported and then never redraws its frame; the chat unsets it
// the same way before loading Ink (start-tui.ts), so this file does before its imports.
vi.hoisted(() => {
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
});

import { render } from 'ink';
import { createWarningFeed } from '../../src/hosts/tui/warning-feed.js';
import { loadRunnableAgent, openConversation } from '../../src/hosts/open-conversation.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { chatApp } from './chat-harness.js';

/** A terminal as Ink sees one: 100×30, every write kept. */
class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  readonly columns = 100;
  readonly rows = 30;
  readonly writes: string[] = [];
  write(data: string): boolean {
    this.writes.push(data);
    return true;
  }
}

/** Keys in, as Ink reads a raw-mode terminal. */
class FakeKeyboard extends EventEmitter {
  readonly isTTY = true;
  private queued: string[] = [];
  setRawMode() {}
  setEncoding() {}
  ref() {}
  unref() {}
  resume() {}
  pause() {}
  read(): string | null {
    return this.queued.shift() ?? null;
  }
  type(text: string) {
    this.queued.push(text);
    this.emit('readable');
  }
}

// Short paragraphs, so the reply finishes blocks every few chunks and the chat prints them.
const PARAGRAPHS = Array.from({ length: 24 }, (_, n) => `Step ${n + 1} of the rollout went well and nothing regressed.`);
const REPLY = `${PARAGRAPHS.join('\n\n')}\n\nThat is the whole report.`;
const CHUNKS = REPLY.match(/\S+\s*|\s+/g)?.length ?? 0;

describe('a streamed reply in the chat', () => {
  let server: ChatServer;
  beforeAll(async () => {
    server = await startChatServer([{ text: REPLY, chunkDelayMs: 10 }]);
  });
  afterAll(() => server.close());

  it('is drawn a few times a second, never once per chunk, and no frame is drawn twice the same', async () => {
    const dir = makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${server.url}\n` });
    const warnings = createWarningFeed();
    const conversation = await openConversation(await loadRunnableAgent(dir, {}, () => undefined), {}, warnings.warn);
    const terminal = new FakeTerminal();
    const keyboard = new FakeKeyboard();
    let renders = 0;
    let printed = '';
    const app = render(chatApp(conversation, warnings, { print: (text) => (printed += text) }), {
      stdout: terminal as unknown as NodeJS.WriteStream,
      stdin: keyboard as unknown as NodeJS.ReadStream,
      stderr: new FakeTerminal() as unknown as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 20,
      onRender: () => renders++,
    });
    const screen = () => terminal.writes.join('');
    await vi.waitFor(() => expect(screen()).toContain('Type a message'), { timeout: 15_000 });
    // Ink's frames, each with the rule above the input: not the synchronized-output and cursor
    // switches written around them, nor text printed above them.
    const frames = () => terminal.writes.filter((write) => write.includes('─'.repeat(20)));
    // What <Static> printed above the frame: the reply's finished blocks.
    const prints = () => terminal.writes.filter((write) => !write.includes('─'.repeat(20)) && write.includes('Step '));
    const before = { renders, frames: frames().length };
    keyboard.type('go');
    keyboard.type('\r');
    await vi.waitFor(() => expect(prints().join('')).toContain('That is the whole report.'), { timeout: 30_000 });
    await vi.waitFor(() => expect(frames().at(-1)).toContain('completed'), { timeout: 15_000 });
    const drawn = renders - before.renders;
    // Ink writes a frame only when it differs from the last; a render that wrote nothing built
    // a whole frame for nothing.
    const framesWritten = frames().length - before.frames;
    app.unmount();

    // Every paragraph printed once, in order, above the frame.
    const printedText = printed + prints().join('');
    for (const paragraph of PARAGRAPHS) expect(printedText.split(paragraph)).toHaveLength(2);
    expect(printedText.indexOf(PARAGRAPHS[23])).toBeGreaterThan(printedText.indexOf(PARAGRAPHS[0]));
    expect(drawn).toBeLessThan(CHUNKS / 3);
    // <Static> draws the frame again after a print, unchanged, once it has emptied itself (at
    // most twice here); nothing else may (a spinner tick or a board update that changes nothing).
    expect(drawn - framesWritten).toBeLessThanOrEqual(2 * prints().length + 1);
  });
});
