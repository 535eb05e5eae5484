import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chatServersPerTest } from '../../helpers/chat-server.js';
import { AUGGY_BIN, makeAgentFolder } from '../../helpers/agent-fixture.js';

// Runs the built binary: `npm run build` first (`npm test` does).
const startServer = chatServersPerTest();

const cleanEnv = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

const askArgs = {
  prompt: 'Before I deploy:',
  fields: [
    { name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'], default: 'staging' },
    { name: 'replicas', type: 'integer' },
  ],
};

function print(dir: string, url: string, ...rest: string[]) {
  return execa('node', [AUGGY_BIN, 'run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', url, ...rest], {
    reject: false,
    env: cleanEnv,
    extendEnv: true,
  });
}

function sessionEvents(dir: string): { kind: string; event?: { type: string; name?: string; value?: unknown } }[] {
  const root = join(dir, '.auggy', 'sessions');
  const [id] = readdirSync(root);
  return readFileSync(join(root, id, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; event?: { type: string; name?: string; value?: unknown } });
}

describe('auggy run --print with a model that calls ask_user', () => {
  it('nobody is there: no-answer (away) at once, sent back to the model, and the turn completes', async () => {
    const server = await startServer([{ toolCalls: [{ name: 'ask_user', args: askArgs }] }, { text: 'Nobody answered, so I will not deploy.' }]);
    const dir = makeAgentFolder({ augments: ['turnControl', 'questions'] });
    const result = await print(dir, server.url, 'deploy the api');
    expect(result.exitCode).toBe(0);
    // What was asked reads as part of the reply, with the missing answer, then the model's words.
    expect(result.stdout).toBe(
      [
        'Before I deploy:',
        '? Which environment? (staging, production) [default: staging]',
        '? replicas',
        'No answer: nobody is here to answer, so the agent goes on without one.',
        'Nobody answered, so I will not deploy.',
      ].join('\n'),
    );
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].body.tools?.map((t) => t.function.name)).toEqual(['request_input', 'ask_user']);
    const tool = server.requests[1].body.messages.find((m) => m.role === 'tool');
    expect(tool?.content).toBe('{"status":"no-answer","reason":"away"}');
    // The question and its missing answer are in the session log.
    const custom = sessionEvents(dir).flatMap((line) => (line.event?.type === 'CUSTOM' ? [line.event] : []));
    expect(custom.map((e) => e.name)).toEqual(['question', 'answered', 'questionnaire.result']);
    expect(custom[1].value).toMatchObject({ field: 'env', reason: 'away' });
  });

  it('--output stream-json shows the question with its type, options and default', async () => {
    const server = await startServer([{ toolCalls: [{ name: 'ask_user', args: askArgs }] }, { text: 'ok' }]);
    const dir = makeAgentFolder({ augments: ['turnControl', 'questions'] });
    const result = await print(dir, server.url, 'deploy', '--output', 'stream-json');
    expect(result.exitCode).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; name?: string; value?: unknown });
    const question = lines.find((line) => line.type === 'CUSTOM' && line.name === 'question');
    expect(question?.value).toMatchObject({
      field: 'env',
      question: 'Which environment?',
      type: 'choice',
      options: ['staging', 'production'],
      default: 'staging',
      index: 1,
      total: 2,
      intro: 'Before I deploy:',
    });
    expect(lines.find((line) => line.type === 'CUSTOM' && line.name === 'questionnaire.result')?.value).toMatchObject({ status: 'no-answer', reason: 'away' });
    expect(lines.at(-1)).toMatchObject({ type: 'RESULT', status: 'completed' });
    // Beside the structured event, the question is a text message a plain chat shows.
    const texts = lines.filter((line) => line.type === 'TEXT_MESSAGE_CONTENT').map((line) => (line as { delta?: string }).delta);
    expect(texts).toContain('Before I deploy:\n? Which environment? (staging, production) [default: staging]\n? replicas');
    expect(texts).toContain('No answer: nobody is here to answer, so the agent goes on without one.');
  });
});
