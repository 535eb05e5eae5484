import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auggy } from '../helpers/auggy-cli.js';
import { a2aClient, callerFolder, demoCopy, stateOf, toolResultsIn } from '../helpers/a2a-client.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

let demo: ServeProcess;

beforeAll(async () => {
  demo = await startServe(demoCopy());
}, 60_000);
afterAll(async () => {
  demo.signal('SIGKILL');
  await demo.exited;
});

describe('the a2a augment: an auggy agent calls another over A2A', () => {
  it("with nobody at the prompt, the remote agent's question is no answer, and its task is canceled", async () => {
    const caller = callerFolder(demo.url);
    const result = await auggy(['run', caller, '--print', 'ship it']);
    expect(result.stderr).toContain('a2a_demo({"message":"deploy the api"}) ok');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('The demo agent has answered.');
    const [said] = toolResultsIn(caller);
    expect(JSON.parse(said)).toEqual({
      status: 'no-answer',
      reason: 'away',
      agent: 'demo',
      question: 'Which production service should I deploy: api-west or api-east?',
    });
    const client = await a2aClient(demo.url);
    const listed = await client.listTasks({ tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks.map(stateOf)).toEqual(['TASK_STATE_CANCELED']);
  });

  it('a remote agent that cannot be reached is a tool error in one sentence', async () => {
    const caller = callerFolder('http://127.0.0.1:9');
    const result = await auggy(['run', caller, '--print', 'ship it']);
    expect(result.exitCode).toBe(0);
    expect(toolResultsIn(caller)[0]).toMatch(/^The agent demo at http:\/\/127\.0\.0\.1:9 could not be reached: /);
  });
});
