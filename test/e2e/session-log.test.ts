import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyPrint } from '../helpers/auggy-cli.js';

const startServer = chatServersPerTest();

type LogLine = { kind: string; event?: { type: string; delta?: string }; message?: { role: string }; textFrom?: string[] };

function sessionFile(dir: string): string | undefined {
  const root = join(dir, '.auggy', 'sessions');
  if (!existsSync(root)) return undefined;
  const [id] = readdirSync(root);
  return id === undefined ? undefined : join(root, id, 'events.jsonl');
}

function sessionId(dir: string): string {
  return readdirSync(join(dir, '.auggy', 'sessions'))[0];
}

/** Every line of the log parsed; throws on a line that is not JSON. */
function logLines(dir: string): LogLine[] {
  return readFileSync(sessionFile(dir) ?? '', 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as LogLine);
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('the session log of a streamed reply', () => {
  it('keeps a reply streamed in many chunks as one text entry, and the next turn still sends it to the model', async () => {
    const reply = 'Deploying api-west now: the build passed, the image is pushed and the rollout has started.';
    const server = await startServer([{ text: reply }, { text: 'Done.' }]);
    const dir = makeAgentFolder();
    const first = await auggyPrint(dir, server.url, 'deploy api-west');
    expect(first.exitCode).toBe(0);
    const lines = logLines(dir);
    const content = lines.filter((line) => line.event?.type === 'TEXT_MESSAGE_CONTENT');
    expect(content).toHaveLength(1);
    expect(content[0].event?.delta).toBe(reply);
    // The text is stored once: the assistant message refers to it.
    expect(readFileSync(sessionFile(dir) ?? '', 'utf8').split('the image is pushed').length - 1).toBe(1);
    expect(lines.find((line) => line.kind === 'message')?.textFrom).toHaveLength(1);

    const second = await auggyPrint(dir, server.url, 'and then?', '--session', sessionId(dir));
    expect(second.exitCode).toBe(0);
    expect(server.requests[1].body.messages.slice(1)).toEqual([
      { role: 'user', content: 'deploy api-west' },
      { role: 'assistant', content: reply },
      { role: 'user', content: 'and then?' },
    ]);
  });

  it('stays readable after kill -9 mid-reply, and the session resumes', async () => {
    const server = await startServer([{ text: 'This reply never finishes because the process is killed.', hold: true }, { text: 'Back again.' }]);
    const dir = makeAgentFolder();
    const child = execa('node', [AUGGY_BIN, 'run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', server.url, 'start'], { reject: false });
    await server.held();
    // The reply has begun streaming once its start is in the log.
    await until(() => {
      const file = sessionFile(dir);
      return file !== undefined && readFileSync(file, 'utf8').includes('TEXT_MESSAGE_START');
    });
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');

    const lines = logLines(dir);
    expect(lines.map((line) => line.kind).slice(0, 2)).toEqual(['header', 'user']);
    // Only the unfinished message's text is lost.
    expect(lines.some((line) => line.event?.type === 'TEXT_MESSAGE_CONTENT')).toBe(false);

    const resumed = await auggyPrint(dir, server.url, 'hello again', '--session', sessionId(dir));
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe('Back again.');
    expect(server.requests[1].body.messages.slice(1)).toEqual([
      { role: 'user', content: 'start' },
      { role: 'user', content: 'hello again' },
    ]);
  });
});
