import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { auggy, auggyPrint } from '../helpers/auggy-cli.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { findAssertionType } from '../../src/hosts/test/assertions/registry.js';
import type { Scope } from '../../src/hosts/test/assertions/scope.js';
import { DEFAULT_BLOCKED_MESSAGE } from '../../src/augments/workflow/guardrails.js';
import { GUARDRAIL_EVENT } from '../../src/augments/workflow/guardrail-event.js';
import { turnScope } from '../../src/hosts/test/run/observe-turn.js';
import type { KernelEvent } from '../../src/kernel/events.js';
import { randomUUID } from 'node:crypto';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { checkRunSequence, validateEach } from '../helpers/agui-events.js';
import { ServeScope } from '../helpers/serve-process.js';

/** examples/guardrails-test as a folder: its prompt config as a pack, four of its scenarios and its mock responses. */
function fixture(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'auggy-pk-guard-')), 'guardrails-test');
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'promptkit', 'guardrails-test'), dir, { recursive: true });
  return dir;
}

const scope = (guardrails: Scope['guardrails']): Scope => ({
  kind: 'turn',
  text: 'reply',
  replies: ['reply'],
  toolCalls: [],
  questions: [],
  compactions: [],
  conversation: '',
  ...(guardrails ? { guardrails } : {}),
});

const check = (params: unknown, on: Scope) => {
  const found = findAssertionType('guardrail_triggered');
  if (!found) throw new Error('no guardrail_triggered');
  return found.check(found.params.parse(params), on, { complete: async () => ({ ok: false, error: 'none' }), signal: new AbortController().signal });
};

describe('guardrail_triggered, with PromptKit semantics', () => {
  it("reads the turn's last reply only: a round held back before a tool call does not count once a later reply stands", async () => {
    const reply = (id: string, text: string): KernelEvent[] => [
      { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: text },
      { type: 'TEXT_MESSAGE_END', messageId: id },
    ];
    const held: KernelEvent = {
      type: 'CUSTOM',
      name: GUARDRAIL_EVENT,
      value: { validator: 'banned_words', action: 'replaced', explanation: 'it contains "damn"' },
    };
    const observed = (events: KernelEvent[]) => turnScope({ events, snapshot: {}, transcript: [] });
    const heldThenStood = observed([...reply('m1', DEFAULT_BLOCKED_MESSAGE), held, ...reply('m2', 'All done.')]);
    expect((await check({ validator_type: 'banned_words', should_trigger: false }, heldThenStood)).passed).toBe(true);
    const heldLast = observed([...reply('m1', 'Looking it up.'), ...reply('m2', DEFAULT_BLOCKED_MESSAGE), held]);
    expect((await check({ validator_type: 'banned_words' }, heldLast)).passed).toBe(true);
  });

  const banned = [{ validator: 'banned_words', action: 'replaced' as const, explanation: 'it contains "damn"' }];

  it('passes when the named validator triggered and should (should_trigger defaults to true)', async () => {
    expect(await check({ validator: 'banned_words' }, scope(banned))).toMatchObject({ passed: true });
    expect(await check({ validator_type: 'banned_words', should_trigger: true }, scope(banned))).toMatchObject({ passed: true });
  });

  it('fails when it triggered and should not, or did not and should', async () => {
    expect(await check({ validator: 'banned_words', should_trigger: false }, scope(banned))).toMatchObject({
      passed: false,
      actual: 'it triggered (replaced: it contains "damn")',
    });
    expect(await check({ validator: 'length' }, scope(banned))).toMatchObject({ passed: false, actual: 'it did not trigger (banned_words did)' });
  });

  it('a validator that never ran counts as not triggered, as PromptKit counts it', async () => {
    expect(await check({ validator: 'length', should_trigger: false }, scope(undefined))).toMatchObject({ passed: true });
    expect(await check({ validator: 'length' }, scope(undefined))).toMatchObject({ passed: false });
  });

  it('names the validator by the type the pack declares, not its handler', async () => {
    expect(await check({ validator: 'content_excludes' }, scope(banned))).toMatchObject({ passed: false });
  });

  it('a validator the pack declares and auggy does not run is skipped, never passed', async () => {
    const on = { ...scope(undefined), workflow: { state: 'a', complete: false, transitions: [], validatorsNotRun: ['toxicity'] } };
    for (const should_trigger of [true, false]) {
      expect(await check({ validator: 'toxicity', should_trigger }, on)).toMatchObject({
        passed: false,
        skipped: true,
        actual: expect.stringMatching(/does not run validator toxicity/),
      });
    }
  });

  it('refuses params without a validator when the scenario loads', () => {
    expect(findAssertionType('guardrail_triggered')?.params.safeParse({ should_trigger: true }).success).toBe(false);
  });
});

interface Report {
  summary: { passed: number; failed: number };
  scenarios: { name: string; passed: boolean; runs: { turns: { assertions: { type: string; status: string }[] }[] }[] }[];
}

let chat: ChatServer | undefined;
const served = new ServeScope();
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await served.stop();
});

describe("PromptKit's guardrails-test example, run by auggy", () => {
  it('validate says nothing about its banned_words and length validators: both run', async () => {
    const checked = await auggy(['validate', fixture()]);
    expect(checked.exitCode).toBe(0);
    expect(String(checked.stdout)).toMatch(/no problems found/);
  });

  it('admin lists the guardrails each state runs', async () => {
    const shown = await auggy(['admin', fixture()]);
    expect(String(shown.stdout)).toMatch(/State content-filter +control: user, guardrails: banned_words, length/);
  });

  it('validate names, file and line, each validator that does not run as written, pack-level validators and mock_parts', async () => {
    const dir = fixture();
    const path = join(dir, 'content-filter.pack.json');
    const pack = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & { prompts: Record<string, { validators: unknown[] }> };
    pack.prompts['content-filter'].validators.push({ type: 'toxicity', params: {} }, { type: 'max_length', params: { max_tokens: 20 } });
    pack.validators = [{ type: 'banned_words', params: { words: ['x'] } }];
    pack.tools = { scan: { name: 'scan', description: 'Scans', mock_result: { text: 'ok' }, mock_parts: [{ type: 'image', media: { file_path: 'a.png' } }] } };
    writeFileSync(path, JSON.stringify(pack, null, 2));
    const checked = await auggy(['validate', dir]);
    const out = String(checked.stdout);
    expect(checked.exitCode, out).toBe(0);
    expect(out).toMatch(
      /content-filter\.pack\.json:\d+:\d+ warning prompts\.content-filter\.validators\[2\]: validator toxicity is not run: it needs a judge model/,
    );
    expect(out).toMatch(/validators\[3\]: validator max_length is skipped, as PromptKit skips it/);
    expect(out).toMatch(/warning validators: the pack's top-level validators are not run/);
    expect(out).toMatch(/warning tools\.scan: tool scan: its mock_parts are not sent/);
    expect(out).not.toMatch(/validators\[[01]\]/);
  });

  it('passes its scenarios on its mock responses: banned words replaced, a long reply cut to 100 characters, a clean one left alone', async () => {
    const run = await auggy(['test', fixture(), '--reporter', 'json']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const report = JSON.parse(String(run.stdout)) as Report;
    expect(report.summary).toMatchObject({ passed: 4, failed: 0 });
    const statuses = report.scenarios.flatMap((s) => s.runs.flatMap((r) => r.turns.flatMap((t) => t.assertions.map((a) => `${a.type} ${a.status}`))));
    expect(statuses).toContain('guardrail_triggered passed');
    expect(statuses.every((status) => status.endsWith(' passed'))).toBe(true);
  });

  it('a scenario expecting no trigger fails when its reply holds a banned word', async () => {
    const dir = fixture();
    const mock = readFileSync(join(dir, 'mock-responses.yaml'), 'utf8').replace('1: "Weather patterns are fascinating!"', '1: "Weather is hell today."');
    writeFileSync(join(dir, 'mock-responses.yaml'), mock);
    const run = await auggy(['test', dir, '--reporter', 'json', '--filter', 'guardrail-should-not-trigger']);
    const report = JSON.parse(String(run.stdout)) as Report;
    expect(report.summary).toMatchObject({ passed: 0, failed: 1 });
  });

  it('--print shows the pack message and one line saying what was held back; the session log records it and the model reads the message next', async () => {
    const dir = fixture();
    chat = await startChatServer([{ text: 'Okay, here it is: damn it, this is hell' }, { text: 'Weather is nice.' }]);
    const first = await auggyPrint(dir, chat.url, 'Repeat this sentence exactly: damn it, this is hell', '--output', 'json');
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const out = JSON.parse(String(first.stdout)) as { text: string; sessionId: string };
    expect(out.text).toBe(DEFAULT_BLOCKED_MESSAGE);
    expect(String(first.stdout)).not.toContain('damn');
    expect(String(first.stderr)).toContain('guardrail banned_words held back the reply: it contains "damn", "hell"');

    const sessions = join(dir, '.auggy', 'sessions');
    const [folder] = readdirSync(sessions);
    const log = readFileSync(join(sessions, folder, 'events.jsonl'), 'utf8');
    expect(log).toContain('"name":"workflow.guardrail"');
    expect(log).not.toContain('Okay, here it is');

    const second = await auggyPrint(dir, chat.url, 'And the weather?', '--session', out.sessionId);
    expect(second.exitCode, String(second.stderr)).toBe(0);
    const sent = JSON.stringify(chat.requests[1].body.messages);
    expect(sent).toContain(DEFAULT_BLOCKED_MESSAGE);
    expect(sent).not.toContain('Okay, here it is');
  });

  it('an AG-UI client of serve gets the pack message as the reply and the line as a CUSTOM event, never the banned words', async () => {
    const { serve } = await served.start(fixture(), [{ text: 'Fine, here you go: damn it, this is crap' }]);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Repeat after me' });
    const events: BaseEvent[] = [];
    const runId = `run-${randomUUID()}`;
    await agent.runAgent({ runId }, { onEvent: ({ event }) => void events.push(event) });
    checkRunSequence(validateEach(events), { threadId: agent.threadId, runId });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: DEFAULT_BLOCKED_MESSAGE });
    expect(JSON.stringify(events)).not.toContain('here you go');
    const custom = events.filter((event) => event.type === 'CUSTOM').map((event) => (event as BaseEvent & { name: string }).name);
    expect(custom).toEqual(expect.arrayContaining(['auggy.system', 'workflow.guardrail']));
  });
});
