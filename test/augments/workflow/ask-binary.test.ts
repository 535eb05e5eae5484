import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { AUGGY_BIN } from '../../helpers/agent-fixture.js';
import { chatServersPerTest, type ChatReply, type ReceivedRequest } from '../../helpers/chat-server.js';
import { packText, workflowFolder } from './harness.js';

const startServer = chatServersPerTest();

const cleanEnv = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

const PACK = packText({
  entry: 'intake',
  states: {
    intake: { prompt_task: 'intake', on_event: { NeedDetails: 'details' } },
    details: {
      ask: { prompt: 'Where should it go?', fields: [{ name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'] }] },
      on_event: { Answered: 'plan', NoAnswer: 'fallback' },
    },
    plan: { prompt_task: 'plan', control: 'agent', on_event: { Done: 'done' } },
    fallback: { prompt_task: 'fallback', control: 'agent', on_event: { Done: 'done' } },
    done: { prompt_task: 'done', terminal: true },
  },
  prompts: { plan: { system_template: 'Deploy to {{answers.env}}.' }, fallback: { system_template: 'Nobody chose an environment.' } },
});

function systemOf(request: ReceivedRequest): string {
  return String(request.body.messages.find((m) => m.role === 'system')?.content ?? '');
}

function stateOf(request: ReceivedRequest): string | undefined {
  return /Current state: (\w+)/.exec(systemOf(request))?.[1];
}

/** A model that moves into the person's state from intake, and answers wherever it lands next. */
function deployModel(request: ReceivedRequest): ChatReply {
  switch (stateOf(request)) {
    case 'intake':
      return { text: 'I need a detail from you.', toolCalls: [{ name: 'workflow__transition', args: { event: 'NeedDetails' } }] };
    case 'fallback':
      return { text: 'Nobody answered, so I will hold the deploy.' };
    default:
      return { text: `unexpected state ${stateOf(request) ?? '(none)'}` };
  }
}

function auggy(dir: string, url: string, output: string) {
  return execa('node', [AUGGY_BIN, 'run', dir, '--print', 'deploy the api', '--output', output, '--model', 'openai-compatible:test', '--base-url', url], {
    reject: false,
    env: cleanEnv,
    extendEnv: true,
  });
}

describe('an ask state through the auggy binary with --print, where nobody is there', () => {
  it('takes NoAnswer at once, makes no model call for the person, and the turn completes', async () => {
    const server = await startServer(deployModel);
    const dir = workflowFolder(PACK);
    const run = await auggy(dir, server.url, 'json');
    expect(run.exitCode).toBe(0);
    // Two inferences: intake, then fallback. The person's state asked nobody and made none.
    expect(server.requests.map(stateOf)).toEqual(['intake', 'fallback']);
    expect(systemOf(server.requests[1])).toContain('The person gave no answer to the questions of state details (away');
    expect(run.stderr).toContain('workflow: details → fallback (NoAnswer: away)');

    const summary = JSON.parse(run.stdout) as {
      status: string;
      text: string;
      sessionId: string;
      workflow: { state: string; transitions: Record<string, unknown>[] };
    };
    expect(summary.status).toBe('completed');
    expect(summary.text).toMatch(/^I need a detail from you\.\s*Nobody answered, so I will hold the deploy\.$/);
    expect(summary.workflow.state).toBe('fallback');
    expect(summary.workflow.transitions).toEqual([
      expect.objectContaining({ from: 'intake', to: 'details', event: 'NeedDetails', initiator: 'agent' }),
      expect.objectContaining({
        from: 'details',
        to: 'fallback',
        event: 'NoAnswer',
        initiator: 'person',
        asked: expect.objectContaining({ status: 'no-answer', reason: 'away' }),
      }),
    ]);

    // The question and its non-answer are in the session log, like every event.
    const log = readFileSync(join(dir, '.auggy', 'sessions', summary.sessionId, 'events.jsonl'), 'utf8');
    expect(log).toContain('"name":"question"');
    expect(log).toContain('"reason":"away"');
  });

  it('stream-json shows the question and the answered event inside the one run', async () => {
    const server = await startServer(deployModel);
    const run = await auggy(workflowFolder(PACK), server.url, 'stream-json');
    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; name?: string; value?: Record<string, unknown> });
    expect(events.filter((e) => e.type === 'RUN_STARTED')).toHaveLength(1);
    const question = events.find((e) => e.type === 'CUSTOM' && e.name === 'question');
    expect(question?.value).toMatchObject({
      field: 'env',
      question: 'Which environment?',
      type: 'choice',
      options: ['staging', 'production'],
      intro: 'Where should it go?',
    });
    expect(events.find((e) => e.type === 'CUSTOM' && e.name === 'answered')?.value).toMatchObject({ field: 'env', reason: 'away' });
    const moves = events.filter((e) => e.type === 'CUSTOM' && e.name === 'workflow.transition').map((e) => `${String(e.value?.from)}→${String(e.value?.to)}`);
    expect(moves).toEqual(['intake→details', 'details→fallback']);
  });
});
