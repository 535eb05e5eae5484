import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { loggedMessages } from '../helpers/transcript-check.js';

const startServer = chatServersPerTest();

const env = { OPENAI_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

function onlySession(dir: string): string {
  const [id] = readdirSync(join(dir, '.auggy', 'sessions'));
  return join(dir, '.auggy', 'sessions', id);
}

/** Starts a --print turn whose model stream stalls after its first word, and waits until that word is on stdout. */
async function stalledTurn(firstWordSeen: RegExp, ...rest: string[]) {
  const server = await startServer([{ text: 'Thinking about a long answer', hold: true }]);
  const dir = makeAgentFolder();
  const child = execa('node', [AUGGY_BIN, 'run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', server.url, 'hello', ...rest], {
    reject: false,
    env,
  });
  let seen = '';
  await new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (firstWordSeen.test(seen)) resolve();
    });
  });
  return { dir, child };
}

describe('SIGTERM during auggy run --print', () => {
  it('cancels the turn like Ctrl+C: the partial reply is saved, one line says so, exit 143', async () => {
    const { dir, child } = await stalledTurn(/Thinking/);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(143);
    expect(result.stdout).toBe('Thinking ');
    const session = onlySession(dir);
    expect(result.stderr.trim().split('\n')).toEqual([`auggy: stopped by SIGTERM; the partial reply is saved in session ${session.split('/').at(-1)}`]);
    const messages = loggedMessages(join(session, 'events.jsonl'));
    expect(messages.map((m) => `${m.role}: ${m.text}`)).toEqual(['user: hello', 'assistant: Thinking ']);
    expect(readdirSync(session)).not.toContain('writer.lock');
  });

  it('with --output stream-json the result line still reaches stdout, status canceled', async () => {
    const { child } = await stalledTurn(/TEXT_MESSAGE_CONTENT/, '--output', 'stream-json');
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(143);
    const lines = String(result.stdout)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.at(-1)).toMatchObject({ type: 'RESULT', status: 'canceled', text: 'Thinking ' });
    expect(result.stderr).toMatch(/^auggy: stopped by SIGTERM/);
  });
});
