import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAgent } from '../../src/agent/load-agent.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { auggy, auggyPrint } from '../helpers/auggy-cli.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'auggy');
/** Real auggy's examples at HEAD, the folders in its history and the agents of its tests, trimmed. */
const FOLDERS = readdirSync(FIXTURES).sort();

function copied(name: string): string {
  const target = join(mkdtempSync(join(tmpdir(), 'auggy-real-')), name);
  cpSync(join(FIXTURES, name), target, { recursive: true });
  return target;
}

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

describe('real auggy folders', () => {
  it('are sixteen', () => {
    expect(FOLDERS).toHaveLength(16);
  });

  it.each(FOLDERS)('%s validates with no error and runs a turn', async (name) => {
    const dir = copied(name);
    const checked = await auggy(['validate', dir]);
    expect(checked.exitCode, String(checked.stdout)).toBe(0);
    chat = await startChatServer([{ text: `Hello from ${name}.` }]);
    const run = await auggyPrint(dir, chat.url, 'hello', '--output', 'json');
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(JSON.parse(String(run.stdout))).toMatchObject({ status: 'completed', text: `Hello from ${name}.` });
  });
});

describe('identity', () => {
  it('without identity: and without identity.md, the agent is its purpose and skills alone', async () => {
    chat = await startChatServer([{ text: 'ok' }]);
    const run = await auggyPrint(copied('no-identity'), chat.url, 'hello');
    expect(run.exitCode).toBe(0);
    expect(String(chat.requests[0].body.messages[0].content)).toContain('Your purpose: Answer questions about the test suite.');
  });

  it('without identity:, ./identity.md is read when the folder has one', async () => {
    chat = await startChatServer([{ text: 'ok' }]);
    await auggyPrint(copied('zip'), chat.url, 'hello');
    expect(String(chat.requests[0].body.messages[0].content)).toContain('You are zip, a small helper.');
  });

  it('identity: naming another file reads that file', async () => {
    chat = await startChatServer([{ text: 'ok' }]);
    await auggyPrint(copied('identity-shorthand'), chat.url, 'hello');
    expect(String(chat.requests[0].body.messages[0].content)).toContain('You answer from the preamble.');
  });

  it('a missing file is an error naming identity: only when agent.yaml has that key', async () => {
    const named = copied('identity-shorthand');
    rmSync(join(named, 'preamble.md'));
    const withKey = await loadAgent(named, BUILTIN_AUGMENTS, { processEnv: {} });
    expect(withKey.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', field: 'identity', line: 3, message: expect.stringMatching(/\.\/preamble\.md does not exist/) }),
    );

    const unnamed = copied('zip');
    rmSync(join(unnamed, 'identity.md'));
    const withoutKey = await loadAgent(unnamed, BUILTIN_AUGMENTS, { processEnv: {} });
    expect(withoutKey.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(JSON.stringify(withoutKey.diagnostics)).not.toContain('identity:');
  });

  it('an empty ./identity.md without identity: is a warning that names no key', async () => {
    const dir = copied('zip');
    writeFileSync(join(dir, 'identity.md'), '');
    const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    const warning = loaded.diagnostics.find((d) => /is empty/.test(d.message));
    expect(warning).toMatchObject({ severity: 'warning' });
    expect(warning?.field).toBeUndefined();
  });
});
