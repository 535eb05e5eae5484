import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgent } from '../../../src/agent/load-agent.js';
import type { SessionEntry } from '../../../src/session/entries.js';
import { Conversation } from '../../../src/kernel/conversation.js';
import { resolveModelSpec } from '../../../src/model/model-spec.js';
import { openSession } from '../../../src/session/session.js';
import { copyExample } from '../../helpers/agent-fixture.js';
import { BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';
import { folderOf } from '../../helpers/session-folder.js';

async function openSupport(dir = copyExample('support'), sessionId?: string) {
  const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
  expect(loaded.diagnostics).toEqual([]);
  const agent = loaded.agent!;
  const warnings: string[] = [];
  const session = await openSession({ agentDir: dir, agentName: agent.yaml.name, sessionId });
  const conversation = await Conversation.open({
    augmentTypes: BUILTIN_AUGMENTS,
    agent,
    modelSpec: resolveModelSpec(agent, {}, {}),
    session,
    warn: (w) => warnings.push(w),
  });
  return { dir, conversation, warnings };
}

function loggedTransitions(sessionDir: string): { from: string; to: string; event: string }[] {
  return readFileSync(join(sessionDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEntry)
    .flatMap((entry) =>
      entry.kind === 'event' && entry.event.type === 'CUSTOM' && entry.event.name === 'workflow.transition'
        ? [entry.event.value as { from: string; to: string; event: string }]
        : [],
    );
}

describe('the bundled support example (scripted, offline)', () => {
  it('one message moves verifying → triage (control: agent) → resolution within one reply', async () => {
    const { conversation, warnings } = await openSupport();
    const result = await conversation.runTurn('I need my balance, my ID is ACC-12345');
    expect(result.status).toBe('completed');
    expect(result.text).toContain('Thanks, account ACC-12345 is verified.');
    expect(result.text).toContain('Your balance on ACC-12345 is $1,234.56.');
    expect(loggedTransitions(folderOf(conversation.session)).map((t) => `${t.from}→${t.to}`)).toEqual(['verifying→triage', 'triage→resolution']);
    expect(conversation.indicators()).toContain('workflow: resolution');
    expect(conversation.snapshot()).toMatchObject({ workflow: { state: 'resolution', complete: false } });
    expect(warnings).toEqual([]);

    const closing = await conversation.runTurn("thanks, that's all");
    expect(closing).toMatchObject({ status: 'completed', text: 'Glad I could help. Goodbye!' });
    expect(conversation.snapshot()).toMatchObject({ workflow: { state: 'closed', complete: true } });
  });

  it('without an ID it asks for one (request_input is the verifying state tool), then carries on', async () => {
    const { conversation, dir } = await openSupport();
    const asked = await conversation.runTurn('hello');
    expect(asked).toMatchObject({ status: 'input-required', message: expect.stringMatching(/account ID/) });
    // A resumed session continues in the same state.
    const { conversation: resumed } = await openSupport(dir, conversation.session.id);
    const answered = await resumed.runTurn('ACC-12345');
    expect(answered.status).toBe('completed');
    expect(answered.text).toContain('What can I help you with today');
    expect(resumed.snapshot()).toMatchObject({ workflow: { state: 'triage' } });
    const routed = await resumed.runTurn('my balance please');
    expect(routed.text).toBe('Your balance on ACC-12345 is $1,234.56.');
  });

  it('a lost card is handed over to the external handoff state, which ends the workflow', async () => {
    const { conversation } = await openSupport();
    const result = await conversation.runTurn('I lost my card, my ID is ACC-12345');
    expect(result.status).toBe('completed');
    expect(result.text).toContain('card specialist');
    expect(loggedTransitions(folderOf(conversation.session)).map((t) => t.to)).toEqual(['triage', 'handoff']);
    expect(conversation.snapshot()).toMatchObject({ workflow: { state: 'handoff', complete: true } });
  });

  it('an external event moves the workflow before the turn', async () => {
    const { conversation } = await openSupport();
    expect(await conversation.hostInput('event', 'AccountVerified')).toEqual({ ok: true, message: 'workflow: verifying → triage (AccountVerified, external)' });
    const result = await conversation.runTurn('what is my balance?');
    expect(result.text).toBe('Your balance on ACC-12345 is $1,234.56.');
    expect(loggedTransitions(folderOf(conversation.session)).map((t) => t.to)).toEqual(['triage', 'resolution']);
  });
});
