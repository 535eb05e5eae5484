import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { a2aClient, demoCopy, replyText, sendTask, stateOf, statusText, userMessage } from '../helpers/a2a-client.js';
import { usePostgres } from '../helpers/postgres.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

const pg = usePostgres();
const running: ServeProcess[] = [];

afterAll(async () => {
  for (const serve of running) serve.signal('SIGKILL');
  await Promise.all(running.map((serve) => serve.exited));
});

/** The demo on two "machines", each with its own copy of the folder, on one database. */
async function twoReplicas(): Promise<[ServeProcess, ServeProcess]> {
  const { url } = await pg.freshDatabase();
  const first = demoCopy();
  const second = join(mkdtempSync(join(tmpdir(), 'auggy-a2a-replica-')), 'demo');
  cpSync(first, second, { recursive: true });
  const [a, b] = await Promise.all([first, second].map((dir) => startServe(dir, ['--store', url])));
  running.push(a, b);
  return [a, b];
}

describe('A2A tasks on the PostgreSQL store', () => {
  it('a task that asked on one replica is found and answered on the other, and survives a restart', async () => {
    const [a, b] = await twoReplicas();
    const onA = await a2aClient(a.url);
    const onB = await a2aClient(b.url);
    const asked = await sendTask(onA, userMessage('deploy the api'));
    expect(stateOf(asked)).toBe('TASK_STATE_INPUT_REQUIRED');

    const seen = await onB.getTask({ tenant: '', id: asked.id, historyLength: undefined });
    expect(stateOf(seen)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(statusText(seen)).toBe('Which production service should I deploy: api-west or api-east?');

    // The replica that asked is gone: the other one carries the turn on from the session.
    a.signal('SIGKILL');
    await a.exited;
    const done = await sendTask(onB, userMessage('api-east', { taskId: asked.id, contextId: asked.contextId }));
    expect(stateOf(done)).toBe('TASK_STATE_COMPLETED');
    expect(replyText(done)).toContain('Done: the new version is live.');
    const listed = await onB.listTasks({ tenant: '', contextId: asked.contextId, status: 0, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks.map((task) => task.id)).toEqual([asked.id]);
  });
});
