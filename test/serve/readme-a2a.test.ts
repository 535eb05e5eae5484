import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { execa } from 'execa';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { demoCopy } from '../helpers/a2a-client.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';

/** The README's A2A client example, pointed at this test's server instead of port 8787. */
function readmeClient(url: string): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /```js readme-a2a\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no ```js readme-a2a block');
  return block.replaceAll('http://127.0.0.1:8787', url);
}

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe(demoCopy());
});
afterAll(async () => {
  serve.signal('SIGTERM');
  await serve.exited;
});

describe('README "Calling an auggy agent from another agent"', () => {
  it('the client example asks, is asked which service, and completes the same task with the answer', async () => {
    // Run as the reader would (a module of its own, resolving @a2a-js/sdk from the project), then report what it got.
    const report = `\nconsole.log(JSON.stringify({ asked: [asked.id, asked.status.state, asked.status.message.parts[0].content.value], done: [done.id, done.status.state] }));\n`;
    const run = await execa(process.execPath, ['--input-type=module'], { cwd: REPO_ROOT, input: readmeClient(serve.url) + report });
    const { asked, done } = JSON.parse(run.stdout) as { asked: [string, number, string]; done: [string, number] };
    expect(asked.slice(1)).toEqual([TaskState.TASK_STATE_INPUT_REQUIRED, 'Which production service should I deploy: api-west or api-east?']);
    expect(done).toEqual([asked[0], TaskState.TASK_STATE_COMPLETED]);
  });
});
