import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { copyExample, REPO_ROOT } from '../helpers/agent-fixture.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';

/** The README's curl lines, in order, pointed at this test's server instead of port 8787. */
function readmeCurls(url: string): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh readme-curl\n([\s\S]*?)```/g)].map((match) => match[1].replaceAll('http://127.0.0.1:8787', url));
  if (blocks.length === 0) throw new Error('README.md has no ```sh readme-curl block');
  return blocks;
}

/** The `data:` payloads of a Server-Sent Events stream. */
function events(stream: string): { type: string; result?: { status: string; message?: string } }[] {
  return stream
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string });
}

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe(copyExample('demo'));
});
afterAll(async () => {
  serve.signal('SIGTERM');
  await serve.exited;
});

describe('README "From curl"', () => {
  it('the first line asks which service, and the second answers it on the same thread', async () => {
    const [ask, answer] = readmeCurls(serve.url);
    const asked = await execa('sh', ['-c', ask]);
    const first = events(asked.stdout);
    expect(first[0].type).toBe('RUN_STARTED');
    expect(first.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      result: { status: 'input-required', message: 'Which production service should I deploy: api-west or api-east?' },
    });
    const answered = events((await execa('sh', ['-c', answer])).stdout);
    expect(answered.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    expect(answered.some((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toBe(true);
  });

  it('a body missing several fields is refused with all of them named', async () => {
    const refused = await execa('curl', [
      '-s',
      '-w',
      '\n%{http_code}',
      `${serve.url}/agent/run`,
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"messages": [{"role": "user", "content": "deploy"}]}',
    ]);
    expect(refused.stdout).toBe('{"error":"the body is not an AG-UI RunAgentInput: threadId, runId and messages[0].id are missing"}\n400');
  });
});
