import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { a2aClient, callerFolder, demoCopy, stateOf, toolResultsIn } from '../helpers/a2a-client.js';
import { checkRun, clientRun, interruptsOf } from '../helpers/interrupt-agent.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

let demo: ServeProcess;
let caller: ServeProcess;
let callerDir: string;

beforeAll(async () => {
  demo = await startServe(demoCopy());
  callerDir = callerFolder(demo.url, 'plan a release');
  caller = await startServe(callerDir);
}, 60_000);
afterAll(async () => {
  for (const serve of [caller, demo]) serve.signal('SIGKILL');
  await Promise.all([caller.exited, demo.exited]);
});

describe("a remote agent's questionnaire, asked of the calling agent's person inside its tool call", () => {
  it('reaches an AG-UI client as one interrupt with the remote schema; a refused field is asked again; the answer completes both turns', async () => {
    const agent = new HttpAgent({ url: `${caller.url}/agent/run` });
    const first = await clientRun(agent, { text: 'ship it' });
    checkRun(first, agent.threadId);
    const [asked, ...more] = interruptsOf(first);
    expect(more).toHaveLength(0);
    expect(asked.message).toContain('The agent demo asks: Planning the release.');
    const schema = asked.responseSchema as { properties: Record<string, { enum?: string[] }> };
    expect(Object.keys(schema.properties)).toEqual(['environment', 'replicas', 'regions']);
    expect(schema.properties.environment.enum).toEqual(['staging', 'production']);

    // An answer outside the remote schema's choices is refused here, on its field, before it travels.
    const refused = await clientRun(agent, {
      resume: [{ interruptId: asked.id, status: 'resolved', payload: { environment: 'moon', replicas: 3, regions: ['eu'] } }],
    });
    const [again] = interruptsOf(refused);
    expect(again.message).toContain('Answer again: Which environment?');
    expect(existsSync(join(callerDir, '.auggy', 'sessions', agent.threadId, 'a2a-waiting.json'))).toBe(true);

    const done = await clientRun(agent, {
      resume: [{ interruptId: again.id, status: 'resolved', payload: { environment: 'staging', replicas: 3, regions: ['eu', 'us'] } }],
    });
    checkRun(done, agent.threadId);
    expect(done.finished.at(-1)?.outcome).not.toBe('interrupt');
    const said = JSON.parse(toolResultsIn(callerDir)[0]) as { status: string; reply: string };
    expect(said.status).toBe('completed');
    expect(said.reply).toContain('Thanks: the release goes to staging with 3 replicas in eu, us.');
    // The waiting call was kept in the session between the runs, and is gone once answered.
    expect(existsSync(join(callerDir, '.auggy', 'sessions', agent.threadId, 'a2a-waiting.json'))).toBe(false);

    // The remote task got the answers as the caller gave them, and completed.
    const remote = await a2aClient(demo.url);
    const listed = await remote.listTasks({ tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks.map(stateOf)).toEqual(['TASK_STATE_COMPLETED']);
    const history = JSON.stringify(listed.tasks[0].history);
    expect(history).toContain('"environment":"staging"');
    expect(history).toContain('"regions":["eu","us"]');
  });
});
