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
import { AboveFrameProvider, createAboveFrame } from '../../src/hosts/tui/above-frame.js';
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
    server = await startChatServer([
      { text: REPLY, chunkDelayMs: 10 },
      { text: REPLY, chunkDelayMs: 40 },
    ]);
  });
  afterAll(() => server.close());

  /**
   * The chat on a 100×30 terminal over the loopback server, drawn at most 20 frames a second and
   * printing above the frame as run-chat does; `onRender` is told of each of Ink's renders first.
   */
  async function openStreamChat(onRender: (terminal: FakeTerminal) => void = () => undefined) {
    const dir = makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${server.url}\n` });
    const warnings = createWarningFeed();
    const conversation = await openConversation(await loadRunnableAgent(dir, {}, () => undefined), {}, warnings.warn);
    const terminal = new FakeTerminal();
    const keyboard = new FakeKeyboard();
    const aboveFrame = createAboveFrame();
    const app = render(<AboveFrameProvider value={aboveFrame}>{chatApp(conversation, warnings)}</AboveFrameProvider>, {
      stdout: terminal as unknown as NodeJS.WriteStream,
      stdin: keyboard as unknown as NodeJS.ReadStream,
      stderr: new FakeTerminal() as unknown as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 20,
      onRender: () => {
        onRender(terminal);
        aboveFrame.onRender();
      },
    });
    await vi.waitFor(() => expect(terminal.writes.join('')).toContain('Type a message'), { timeout: 15_000 });
    return { app, terminal, keyboard };
  }

  /**
   * Ink's frames, each with the rule above the input: not the synchronized-output and cursor
   * switches written around them, nor text printed above them.
   */
  const isFrame = (write: string) => write.includes('─'.repeat(20));

  /** Streams the reply into the chat and checks what the terminal showed after each render: every paragraph exactly once. */
  async function streamReply(): Promise<{ drawn: number; framesWritten: number }> {
    let renders = 0;
    /** Where in the terminal's writes each render began. */
    const renderStarts: number[] = [];
    const { app, terminal, keyboard } = await openStreamChat((seen) => {
      renders++;
      renderStarts.push(seen.writes.length);
    });
    const frames = () => terminal.writes.filter(isFrame);
    // What was printed above the frame: the opening, then the reply's finished blocks.
    const prints = () => terminal.writes.filter((write) => !isFrame(write) && write.includes('Step '));
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

    // What the terminal shows once each render's writes are out: every paragraph streamed so far
    // exactly once, printed or in the frame; never twice (printed while the frame still showed it
    // live), never missing (dropped from the frame before it was printed).
    let printedSoFar = '';
    let lastFrame = '';
    const seen = new Set<string>();
    const ends = [...renderStarts.slice(1), terminal.writes.length];
    let at = 0;
    for (const end of ends) {
      for (; at < end; at++) {
        const write = terminal.writes[at];
        if (isFrame(write)) lastFrame = write;
        else printedSoFar += write;
      }
      for (const paragraph of PARAGRAPHS) {
        const shown = printedSoFar.split(paragraph).length - 1 + lastFrame.split(paragraph).length - 1;
        if (shown > 0) seen.add(paragraph);
        if (seen.has(paragraph)) expect(shown, paragraph).toBe(1);
      }
    }
    expect(seen.size).toBe(PARAGRAPHS.length);
    // Every paragraph printed once, in order, above the frame.
    const printedText = prints().join('');
    for (const paragraph of PARAGRAPHS) expect(printedText.split(paragraph)).toHaveLength(2);
    expect(printedText.indexOf(PARAGRAPHS[23])).toBeGreaterThan(printedText.indexOf(PARAGRAPHS[0]));
    return { drawn, framesWritten };
  }

  it('is drawn a few times a second, never once per chunk, and no frame is drawn twice the same', async () => {
    const { drawn, framesWritten } = await streamReply();
    expect(drawn).toBeLessThan(CHUNKS / 3);
    // A print draws no frame of its own; nothing else may draw one that changes nothing (a
    // spinner tick or a board update).
    expect(drawn - framesWritten).toBeLessThanOrEqual(1);
  });

  it('quit while the reply streams, prints what the frame showed of it before the chat exits', async () => {
    // A reply of its own (the second, slower, when the test before it ran), quit part way.
    const { app, terminal, keyboard } = await openStreamChat();
    keyboard.type('go');
    keyboard.type('\r');
    await vi.waitFor(() => expect(terminal.writes.filter(isFrame).join('')).toContain(PARAGRAPHS[4]), { timeout: 30_000 });
    keyboard.type('\u0004');
    await app.waitUntilExit();
    const printed = terminal.writes.filter((write) => !isFrame(write)).join('');
    const shown = PARAGRAPHS.filter((paragraph) => terminal.writes.some((write) => write.includes(paragraph)));
    expect(shown.length).toBeGreaterThanOrEqual(5);
    for (const paragraph of shown) expect(printed.split(paragraph), paragraph).toHaveLength(2);
  });
});
