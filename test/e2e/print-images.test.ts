import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { PNG_BASE64, PNG_DATA_URL, imageUrlsOfLastUserMessage, textOfLastUserMessage, writePng } from '../helpers/images.js';
import { auggy } from '../helpers/auggy-cli.js';

const startServer = chatServersPerTest();

function printArgs(dir: string, url: string, ...rest: string[]): string[] {
  return ['run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', url, ...rest];
}

function sessionDir(dir: string): string {
  const root = join(dir, '.auggy', 'sessions');
  const [id] = readdirSync(root);
  return join(root, id);
}

describe('auggy run --print --attach', () => {
  it('sends the image as an image_url part beside the text, and the log keeps a reference, not the bytes', async () => {
    const server = await startServer([{ text: 'A single dot.' }, { text: 'Still a dot.' }]);
    const dir = makeAgentFolder();
    const png = writePng(dir);
    const result = await auggy(printArgs(dir, server.url, '--attach', png, 'what is in this image?', '--output', 'json'));
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const [request] = server.requests;
    expect(textOfLastUserMessage(request)).toBe('what is in this image?');
    expect(imageUrlsOfLastUserMessage(request)).toEqual([PNG_DATA_URL]);

    const folder = sessionDir(dir);
    const log = readFileSync(join(folder, 'events.jsonl'), 'utf8');
    expect(log).not.toContain(PNG_BASE64);
    const user = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; attachments?: unknown })
      .find((entry) => entry.kind === 'user');
    expect(user?.attachments).toEqual([{ ref: expect.stringMatching(/^[0-9a-f]{32}$/), mediaType: 'image/png', size: 70, name: 'dot.png' }]);

    // Resumed, the conversation sends the image again with the first message.
    const { sessionId } = JSON.parse(result.stdout) as { sessionId: string };
    const next = await auggy(printArgs(dir, server.url, '--session', sessionId, 'and now?'));
    expect(next.exitCode).toBe(0);
    const firstUser = server.requests[1].body.messages.find((message) => message.role === 'user');
    expect(firstUser?.content).toEqual([
      { type: 'text', text: 'what is in this image?' },
      { type: 'image_url', image_url: { url: PNG_DATA_URL } },
    ]);
  });

  it('a missing, a too-large and a non-image file are each refused in one sentence before anything is sent', async () => {
    const server = await startServer([]);
    const dir = makeAgentFolder();
    const missing = await auggy(printArgs(dir, server.url, '--attach', join(dir, 'nope.png'), 'look'));
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim()).toBe(`auggy: --attach: ${join(dir, 'nope.png')} does not exist; check the path of the image`);

    const big = join(dir, 'big.png');
    writeFileSync(big, '');
    truncateSync(big, 11 * 1024 * 1024);
    const large = await auggy(printArgs(dir, server.url, '--attach', big, 'look'));
    expect(large.exitCode).toBe(2);
    expect(large.stderr.trim()).toBe(`auggy: --attach: ${big} is 11.0 MB, over the 10.0 MB an image may be; send a smaller one`);

    const notes = join(dir, 'notes.png');
    writeFileSync(notes, 'just text');
    const text = await auggy(printArgs(dir, server.url, '--attach', notes, 'look'));
    expect(text.exitCode).toBe(2);
    expect(text.stderr.trim()).toBe(`auggy: --attach: ${notes} is not a PNG, JPEG, GIF or WebP image; those are the images auggy sends to a model`);
    expect(server.requests).toHaveLength(0);
  });

  it('engine.vision: false refuses the image in one sentence and calls no model', async () => {
    const server = await startServer([]);
    const dir = makeAgentFolder({ engine: 'engine:\n  provider: openai-compatible\n  model: test\n  baseURL: http://127.0.0.1:9/v1\n  vision: false\n' });
    const result = await auggy(printArgs(dir, server.url, '--attach', writePng(dir), 'look'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe(
      "auggy: turn failed: this agent's model takes no images (engine.vision is false in agent.yaml); send the message without them, or use a model that takes images",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("a text-only model's refusal of the image is said as such", async () => {
    const server = await startServer([], { textOnly: true });
    const dir = makeAgentFolder();
    const result = await auggy(printArgs(dir, server.url, '--attach', writePng(dir), 'look'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe(
      'auggy: turn failed: openai-compatible:test does not take images (HTTP 400: "test is not a multimodal model"); send the message without them, use a model that takes images, or set engine.vision: false so auggy refuses them before sending',
    );
  });
});
