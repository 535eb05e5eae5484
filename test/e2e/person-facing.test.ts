import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HttpAgent, type Message } from '@ag-ui/client';
import { HttpAgent as LegacyHttpAgent } from '@ag-ui/client-legacy';
import { AUGGY_BIN, copyExample } from '../helpers/agent-fixture.js';
import { ServeScope, startServe } from '../helpers/serve-process.js';

const CLEAN_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };
/** The demo's request_input carries this reason: kept for tracing, never shown to the person. */
const REASON = 'Two production targets are configured and neither is the default.';

function demo(args: string[], cwd: string) {
  return execa('node', [AUGGY_BIN, ...args], { cwd, reject: false, env: CLEAN_ENV });
}

describe("request_input's reason", () => {
  it('is on neither stdout nor stderr of --print, and the question is said once', async () => {
    const dir = copyExample();
    const result = await demo(['-p', 'deploy the api'], dir);
    expect(result.exitCode).toBe(3);
    expect(`${result.stdout}\n${result.stderr}`).not.toContain(REASON);
    expect(result.stderr).not.toContain('request_input');
    const question = 'Which production service should I deploy: api-west or api-east?';
    expect(`${result.stdout}\n${result.stderr}`.split(question)).toHaveLength(2);
  });

  it('is kept in --output json toolCalls and in the session', async () => {
    const dir = copyExample();
    const result = await demo(['-p', 'deploy the api', '--output', 'json'], dir);
    const summary = JSON.parse(result.stdout) as { toolCalls: { name: string; input: { reason?: string } }[] };
    expect(summary.toolCalls.find((call) => call.name === 'request_input')?.input.reason).toBe(REASON);
    const [id] = readdirSync(join(dir, '.auggy', 'sessions'));
    const log = readFileSync(join(dir, '.auggy', 'sessions', id, 'events.jsonl'), 'utf8');
    expect(log).toContain(`"reason":"${REASON}"`);
  });
});

describe('--print text output', () => {
  it('ends the reply with a newline before anything goes to stderr', async () => {
    const dir = copyExample();
    // One pipe for both streams keeps their order, as a terminal shows it.
    const result = await execa('sh', ['-c', `node ${AUGGY_BIN} -p hello 2>&1`], { cwd: dir, reject: false, env: CLEAN_ENV });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/or to plan a release and I'll interview you\.\nuser ask achieved: /);
  });

  it("prints ask_user's prompt and each field's question, with the no-answer result", async () => {
    const dir = copyExample();
    const result = await demo(['-p', 'plan a release'], dir);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      [
        'Planning the release.',
        '? Which environment? (staging, production)',
        '? How many replicas? [default: 2]',
        '? Which regions?',
        'No answer: nobody is here to answer, so the agent goes on without one.',
      ].join('\n'),
    );
  });
});

describe('auggy serve', () => {
  const scope = new ServeScope();
  afterEach(() => scope.stop());

  it('carries the question as a text message, so a plain AG-UI chat shows what was asked', async () => {
    const dir = copyExample();
    const serve = scope.adopt(await startServe(dir));
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'plan a release' } satisfies Message);
    await agent.runAgent({ runId: `run-${randomUUID()}` });
    const said = agent.messages.filter((message) => message.role === 'assistant').map((message) => String(message.content ?? ''));
    expect(said).toContain('Planning the release.\n? Which environment? (staging, production)\n? How many replicas? [default: 2]\n? Which regions?');
    // A 1.0 client is there to answer: the questionnaire waits on it as an interrupt.
    expect(agent.pendingInterrupts).toEqual([expect.objectContaining({ reason: 'input_required', message: 'Planning the release.' })]);
  });

  it('for a client without protocolVersion, nobody is there, and the chat says so', async () => {
    const dir = copyExample();
    const serve = scope.adopt(await startServe(dir));
    const agent = new LegacyHttpAgent({ url: `${serve.url}/agent/run` });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'plan a release' });
    await agent.runAgent({ runId: `run-${randomUUID()}` });
    const said = agent.messages.filter((message) => message.role === 'assistant').map((message) => String(message.content ?? ''));
    expect(said).toContain('Planning the release.\n? Which environment? (staging, production)\n? How many replicas? [default: 2]\n? Which regions?');
    expect(said).toContain('No answer: nobody is here to answer, so the agent goes on without one.');
  });
});
