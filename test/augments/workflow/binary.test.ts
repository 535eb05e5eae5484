import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample } from '../../helpers/agent-fixture.js';
import { chatServersPerTest, type ChatReply, type ReceivedRequest } from '../../helpers/chat-server.js';
import { auggy } from '../../helpers/auggy-cli.js';

const startServer = chatServersPerTest();

function stateOf(request: ReceivedRequest): string | undefined {
  const system = String(request.body.messages.find((m) => m.role === 'system')?.content ?? '');
  return /Current state: (\w+)/.exec(system)?.[1];
}

/** A model that acts on the state its system prompt names, as a real one following the pack would. */
function supportModel(request: ReceivedRequest): ChatReply {
  switch (stateOf(request)) {
    case 'verifying':
      return {
        text: 'Thanks, you are verified.',
        toolCalls: [{ name: 'workflow__transition', args: { event: 'AccountVerified', context: { account_id: 'ACC-777' } } }],
      };
    case 'triage':
      return { toolCalls: [{ name: 'workflow__transition', args: { event: 'ServeBalance', context: { intent: 'balance' } } }] };
    case 'resolution':
      return { text: 'Your balance is $12.00.' };
    default:
      return { text: 'unexpected state' };
  }
}

describe('the workflow through the auggy binary against a Chat Completions server', () => {
  it('one user message takes one inference per state, each offering that state’s tools', async () => {
    const server = await startServer(supportModel);
    const dir = copyExample('support');
    const run = await auggy([
      'run',
      dir,
      '--print',
      'balance please, ACC-777',
      '--model',
      'openai-compatible:test',
      '--base-url',
      server.url,
      '--output',
      'json',
    ]);
    // Workflow moves reach stderr as system lines in every output format; stdout stays pure JSON.
    expect(run.stderr.trim().split('\n')).toEqual(['workflow: verifying → triage (AccountVerified)', 'workflow: triage → resolution (ServeBalance)']);
    expect(run.exitCode).toBe(0);
    expect(server.requests.map(stateOf)).toEqual(['verifying', 'triage', 'resolution']);
    const offered = server.requests.map((r) => r.body.tools?.map((t) => t.function.name));
    expect(offered).toEqual([['request_input', 'workflow__transition'], ['workflow__transition'], ['workflow__transition']]);
    const events = server.requests.map((r) => JSON.stringify(r.body.tools?.find((t) => t.function.name === 'workflow__transition')?.function.parameters));
    expect(events[0]).toContain('"enum":["AccountVerified"]');
    expect(events[1]).toContain('"enum":["ServeBalance","EscalateToAgent"]');
    expect(events[2]).toContain('"enum":["Resolved","NewRequest"]');
    // The carried context reaches the next state's prompt.
    expect(String(server.requests[2].body.messages[0].content)).toContain('Answer the request of caller ACC-777 directly.');

    const summary = JSON.parse(run.stdout) as {
      status: string;
      text: string;
      workflow: { state: string; complete: boolean; transitions: { from: string; to: string; event: string }[] };
    };
    expect(summary.status).toBe('completed');
    // Every round's text, in order, in the one reply (how rounds are separated is the kernel's call).
    expect(summary.text).toMatch(/^Thanks, you are verified\.\s*Your balance is \$12\.00\.$/);
    expect(summary.workflow).toMatchObject({
      state: 'resolution',
      complete: false,
      transitions: [
        { from: 'verifying', to: 'triage', event: 'AccountVerified', context: { account_id: 'ACC-777' } },
        { from: 'triage', to: 'resolution', event: 'ServeBalance', context: { intent: 'balance' } },
      ],
    });
  });

  it('stream-json carries every transition as a CUSTOM event, in order', async () => {
    const server = await startServer(supportModel);
    const dir = copyExample('support');
    const run = await auggy([
      'run',
      dir,
      '--print',
      'balance, ACC-777',
      '--model',
      'openai-compatible:test',
      '--base-url',
      server.url,
      '--output',
      'stream-json',
    ]);
    expect(run.exitCode).toBe(0);
    const custom = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; name?: string; value?: { from: string; to: string } })
      .filter((event) => event.type === 'CUSTOM' && event.name === 'workflow.transition');
    expect(custom.map((e) => `${e.value?.from}→${e.value?.to}`)).toEqual(['verifying→triage', 'triage→resolution']);
  });

  it('runs the bundled example offline with its scripted model', async () => {
    const dir = copyExample('support');
    const run = await auggy(['run', dir, '--print', 'I need my balance, my ID is ACC-12345']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^Thanks, account ACC-12345 is verified\.\n+Your balance on ACC-12345 is \$1,234\.56\.$/);
    expect(run.stderr).toContain('workflow: verifying → triage (AccountVerified)');
    expect(run.stderr).toContain('workflow: triage → resolution (ServeBalance)');
  });

  it('auggy validate reports pack problems at the pack file, line and column', async () => {
    const dir = copyExample('support');
    expect((await auggy(['validate', dir])).exitCode).toBe(0);
    const packPath = join(dir, 'support.pack.yaml');
    writeFileSync(packPath, readFileSync(packPath, 'utf8').replace('control: agent           # transient', 'control: robot           # transient'));
    const run = await auggy(['validate', dir]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/support\.pack\.yaml:\d+:7 error workflow\.states\.triage\.control: "robot" is not one of user, agent/);
  });
});
