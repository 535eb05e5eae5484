import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { auggy, auggyPrint as print } from '../../helpers/auggy-cli.js';
import { chatServersPerTest } from '../../helpers/chat-server.js';
import { boardFolder, systemPrompt } from './harness.js';

const startServer = chatServersPerTest();

interface Summary {
  status: string;
  sessionId: string;
  board: Record<string, { owner: string; text: string; by?: string }>;
}

describe('the board through the auggy binary', () => {
  it('--board sets person lines before the turn; --output json has the board after it', async () => {
    const server = await startServer([
      { toolCalls: [{ name: 'board_write', args: { line: 'progress', text: 'docs reviewed' } }] },
      { text: 'Reviewed the docs.' },
    ]);
    const dir = boardFolder();
    const run = await print(dir, server.url, 'work the queue', '--board', 'queue=review the docs', '--board', 'notes=', '--output', 'json');
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].body.tools?.map((t) => t.function.name)).toEqual(['request_input', 'board_read', 'board_write']);
    expect(systemPrompt(server.requests[0])).toContain(
      "## queue (the person's: read it, do not write it, last written by the person)\nWhat the person wants next.\n> review the docs",
    );
    expect(systemPrompt(server.requests[0])).toContain('## notes (shared: you and the person both write it, last written by the person)\n> (empty)');
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.status).toBe('completed');
    expect(summary.board).toEqual({
      queue: { owner: 'person', text: 'review the docs', by: 'person', at: expect.any(String) },
      progress: { owner: 'agent', text: 'docs reviewed', by: 'agent', at: expect.any(String) },
      notes: { owner: 'both', text: '', by: 'person', at: expect.any(String) },
    });

    // Resuming the session: the board is as the last run left it.
    const resumed = await print(dir, server.url, 'anything left?', '--session', summary.sessionId, '--output', 'json');
    expect(resumed.exitCode).toBe(0);
    expect((JSON.parse(resumed.stdout) as Summary).board.progress.text).toBe('docs reviewed');
    expect(systemPrompt(server.requests[2])).toContain('> docs reviewed');
  });

  it.each([
    [
      'progress=done',
      /^auggy: --board progress: line "progress" belongs to the agent \(owner: agent\): you can read it but not write it; lines you can write: queue, notes$/,
    ],
    ['todo=x', /^auggy: --board todo: the board has no line "todo"; its lines are queue \(person\), progress \(agent\), notes \(both\)$/],
    ['queue', /^auggy: --board takes line=text, like --board queue="review the docs"; got "queue"$/],
  ])('--board %s: exit 2 with the reason, and no model call', async (flag, message) => {
    const server = await startServer([{ text: 'should not run' }]);
    const dir = boardFolder();
    const run = await print(dir, server.url, 'go', '--board', flag);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
    const sessions = join(dir, '.auggy', 'sessions');
    const written = existsSync(sessions) ? readdirSync(sessions).filter((id) => existsSync(join(sessions, id, 'board.json'))) : [];
    expect(written).toEqual([]);
  });

  it('--board is all or nothing: a refused flag leaves the lines of the accepted ones unwritten', async () => {
    const server = await startServer([{ text: 'should not run' }]);
    const dir = boardFolder();
    const run = await print(dir, server.url, 'go', '--board', 'queue=first', '--board', 'progress=not mine');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--board progress: line "progress" belongs to the agent/);
    expect(server.requests).toHaveLength(0);
    const sessions = join(dir, '.auggy', 'sessions');
    const written = existsSync(sessions) ? readdirSync(sessions).filter((id) => existsSync(join(sessions, id, 'board.json'))) : [];
    expect(written).toEqual([]);
  });

  it('without a board augment, --board is refused before anything runs', async () => {
    const server = await startServer([{ text: 'should not run' }]);
    const run = await print(makeAgentFolder(), server.url, 'go', '--board', 'queue=x');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('auggy: no enabled augment takes --board; check the augments in agent.yaml');
    expect(server.requests).toHaveLength(0);
  });

  it('auggy admin shows the board and its lines', async () => {
    const run = await auggy(['admin', boardFolder()]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('board');
    expect(run.stdout).toMatch(/Line queue\s+owner person: What the person wants next\./);
    expect(run.stdout).toMatch(/Exposed tools\s+board_read\(\{\}\), board_write\(\{line, text\}\)/);
  });

  it('auggy validate reports a duplicate line name at its line in augment.yaml', async () => {
    const dir = boardFolder('type: board\nconfig:\n  lines:\n    - name: queue\n    - name: queue\n');
    const run = await auggy(['validate', dir]);
    expect(run.exitCode).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain('augments/board/augment.yaml:5:');
    expect(`${run.stdout}${run.stderr}`).toContain('config.lines[1].name: "queue" is already the name of lines[0]; line names must be unique');
  });
});
