import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggy, auggyPrint } from '../helpers/auggy-cli.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { tempDir, treeSnapshot } from '../helpers/temp-dir.js';

let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer(() => ({ text: 'Answered.' }));
});
afterAll(() => chat.close());

/** A refusal is one line on stderr, never a stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0];
}

async function sessionOf(dir: string): Promise<string> {
  const first = await auggyPrint(dir, chat.url, 'hello', '--output', 'json');
  expect(first.exitCode).toBe(0);
  return (JSON.parse(first.stdout) as { sessionId: string }).sessionId;
}

describe('nothing under .auggy is written through a link', () => {
  it('a .auggy/sessions that links elsewhere: exit 2, one sentence, nothing written there', async () => {
    const dir = makeAgentFolder();
    const elsewhere = tempDir('auggy-elsewhere-');
    mkdirSync(join(dir, '.auggy'));
    symlinkSync(elsewhere, join(dir, '.auggy', 'sessions'));
    const requests = chat.requests.length;
    const result = await auggyPrint(dir, chat.url, 'hello');
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toMatch(
      /^auggy: \.auggy\/sessions is a symbolic link \(to \S+\); auggy writes nothing under \.auggy through a link, so replace it with a real folder$/,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(chat.requests.length).toBe(requests);
  });

  it('a committed events.jsonl that links to a file outside: exit 2, the file untouched', async () => {
    const dir = makeAgentFolder();
    const sessionId = await sessionOf(dir);
    const target = join(tempDir('auggy-elsewhere-'), 'notes.txt');
    writeFileSync(target, 'my notes\n');
    const events = join(dir, '.auggy', 'sessions', sessionId, 'events.jsonl');
    rmSync(events);
    symlinkSync(target, events);
    const result = await auggyPrint(dir, chat.url, 'hello again', '--session', sessionId);
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toMatch(
      new RegExp(`^auggy: \\.auggy/sessions/${sessionId}/events\\.jsonl is a symbolic link .*replace it with a real file$`),
    );
    expect(readFileSync(target, 'utf8')).toBe('my notes\n');
    // --continue passes over it (no message can be read there) and writes nothing through the link.
    const continued = await auggyPrint(dir, chat.url, 'hello again', '--continue', '--output', 'json');
    expect((JSON.parse(continued.stdout) as { sessionId: string }).sessionId).not.toBe(sessionId);
    expect(readFileSync(target, 'utf8')).toBe('my notes\n');
  });
});

describe('the agent folder is a boundary for what is loaded', () => {
  it('an identity outside the folder: validate reports it, run exits 2 before anything is sent', async () => {
    const dir = makeAgentFolder();
    writeFileSync(join(dir, '..', 'secret.md'), 'the secret');
    writeFileSync(join(dir, 'agent.yaml'), readFileSync(join(dir, 'agent.yaml'), 'utf8').replace('./identity.md', '../secret.md'));
    const validate = await auggy(['validate', dir]);
    expect(validate.exitCode).toBe(1);
    expect(validate.stdout).toMatch(/agent\.yaml:5:1 error identity: \.\.\/secret\.md is outside the agent folder/);
    const requests = chat.requests.length;
    const run = await auggyPrint(dir, chat.url, 'hello');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/identity: \.\.\/secret\.md is outside the agent folder/);
    expect(chat.requests.length).toBe(requests);
    expect(JSON.stringify(chat.requests)).not.toContain('the secret');
  });

  it('an agent.yaml that is a named pipe: validate and run return at once, exit 1 and 2', async () => {
    const dir = makeAgentFolder();
    rmSync(join(dir, 'agent.yaml'));
    execFileSync('mkfifo', [join(dir, 'agent.yaml')]);
    const validate = await auggy(['validate', dir]);
    expect(validate.exitCode).toBe(1);
    expect(validate.stdout).toMatch(/agent\.yaml error is a named pipe \(FIFO\), not a regular file/);
    const run = await auggyPrint(dir, chat.url, 'hello');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/named pipe/);
  });

  it('an oversized agent.yaml is refused, exit 2', async () => {
    const dir = makeAgentFolder();
    writeFileSync(join(dir, 'agent.yaml'), `${readFileSync(join(dir, 'agent.yaml'), 'utf8')}# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    const run = await auggyPrint(dir, chat.url, 'hello');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/agent\.yaml error is 2,097,\d{3} bytes, more than the 1,048,576 bytes \(1 MiB\)/);
  });

  it("a YAML alias bomb: exit 2 with one sentence, not the parser's raw message", async () => {
    const dir = makeAgentFolder();
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'agent.yaml'), `${readFileSync(join(dir, 'agent.yaml'), 'utf8')}${bomb}`);
    const run = await auggyPrint(dir, chat.url, 'hello');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/agent\.yaml:1:1 error repeats YAML aliases \(\*name\) so often .* \(an alias bomb\), so it is refused; write the values out/);
    expect(run.stderr).not.toMatch(/Excessive alias count|\n\s+at /);
  });
});

describe('--print --max-message-chars', () => {
  it('a message over the limit is refused with exit 2 before anything is sent or saved', async () => {
    const dir = makeAgentFolder();
    const before = treeSnapshot(dir);
    const requests = chat.requests.length;
    const flagged = await auggyPrint(dir, chat.url, 'x'.repeat(11), '--max-message-chars', '10');
    expect(flagged.exitCode).toBe(2);
    expect(oneLine(flagged.stderr)).toBe('auggy: the message is 11 characters, over the 10 that --max-message-chars allows; shorten it or raise the limit');
    // The default is serve's: 32,000 characters, here on stdin.
    const piped = await execa('node', [AUGGY_BIN, 'run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', chat.url], {
      reject: false,
      input: 'y'.repeat(32_001),
      env: { AUGGY_MODEL: '', AUGGY_BASE_URL: '', NO_COLOR: '1' },
    });
    expect(piped.exitCode).toBe(2);
    expect(oneLine(piped.stderr)).toMatch(/the message is 32001 characters, over the 32000/);
    expect(chat.requests.length).toBe(requests);
    expect(treeSnapshot(dir)).toEqual(before);
    expect((await auggyPrint(dir, chat.url, 'x'.repeat(10), '--max-message-chars', '10')).exitCode).toBe(0);
  });
});
