import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { copyExample } from '../../helpers/agent-fixture.js';
import { checkRunSequence, postRun, readEvents, runInput } from '../../helpers/agui-events.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';

let serve: ServeProcess | undefined;
afterEach(async () => {
  serve?.signal('SIGKILL');
  await serve?.exited;
  serve = undefined;
});

describe('userAsk over AG-UI (auggy serve)', () => {
  it('each evaluation goes out as a CUSTOM event before the run finishes', async () => {
    // The offline demo: its scripted evaluator keeps the ask open on the question, achieves it on the answer.
    serve = await startServe(copyExample('demo'));
    const threadId = `thread-${randomUUID()}`;

    const first = runInput(threadId, 'deploy the api');
    const asked = await readEvents(await postRun(serve.url, first));
    checkRunSequence(asked, { threadId, runId: first.runId });
    const evaluation = asked.findIndex((e) => e.type === 'CUSTOM' && e.name === 'userAsk.evaluation');
    expect(evaluation).toBeGreaterThan(0);
    expect(evaluation).toBeLessThan(asked.length - 1);
    expect(asked[evaluation]).toMatchObject({
      value: { ok: true, outcome: 'in_progress', ask: 'deploy the api', active: true, evaluatedTurns: 1, turnStatus: 'input-required' },
    });
    expect(asked.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'input-required' } });

    const second = runInput(threadId, 'api-west');
    const done = await readEvents(await postRun(serve.url, second));
    checkRunSequence(done, { threadId, runId: second.runId });
    // The demo's board reports its own changes; this test is about the ask.
    const custom = done.flatMap((e) => (e.type === 'CUSTOM' && e.name !== 'board.changed' ? [[e.name, e.value]] : []));
    expect(custom).toEqual([
      ['userAsk.evaluation', expect.objectContaining({ outcome: 'achieved', ask: 'Deploy api-west to production.', active: false })],
      ['auggy.system', { text: 'user ask achieved: The service was built, pushed and rolled out; the new version is live.' }],
    ]);
  });
});
