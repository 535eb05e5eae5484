import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openingItems, resumeCommand } from '../../src/hosts/tui/run-chat.js';
import { loadRunnableAgent, openConversation } from '../../src/hosts/open-conversation.js';
import { copyExample } from '../helpers/agent-fixture.js';
import { folderOf } from '../helpers/session-folder.js';

function writeSession(agentDir: string, id: string, turns: number): void {
  const dir = join(agentDir, '.auggy', 'sessions', id);
  mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  const lines: unknown[] = [{ kind: 'header', version: 1, sessionId: id, agentName: 'demo', createdAt: at }];
  for (let turn = 0; turn < turns; turn++) {
    lines.push({ kind: 'user', turnId: `t${turn}`, text: `question ${turn}`, at });
    lines.push({ kind: 'event', turnId: `t${turn}`, event: { type: 'TEXT_MESSAGE_START', messageId: `m${turn}`, role: 'assistant' }, at });
    lines.push({ kind: 'event', turnId: `t${turn}`, event: { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${turn}`, delta: `answer ${turn}` }, at });
    lines.push({ kind: 'event', turnId: `t${turn}`, event: { type: 'TEXT_MESSAGE_END', messageId: `m${turn}` }, at });
  }
  writeFileSync(join(dir, 'events.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

async function open(dir: string, sessionId?: string) {
  const target = await loadRunnableAgent(dir, {}, () => undefined);
  return openConversation(target, { sessionId }, () => undefined);
}

describe('the opening screen', () => {
  it('a new session starts with the header alone', async () => {
    const conversation = await open(copyExample('demo'));
    const { items, nextId } = openingItems(conversation);
    expect(items).toEqual([{ kind: 'header', id: 'i1', title: 'Demo', model: 'scripted:demo', sessionId: conversation.session.id, resumed: false }]);
    expect(nextId).toBe(2);
  });

  it('a long resumed session shows its latest items and says where the rest is', async () => {
    const dir = copyExample('demo');
    writeSession(dir, 'long-one', 150);
    const conversation = await open(dir, 'long-one');
    const { items } = openingItems(conversation, 100);
    expect(items).toHaveLength(102);
    expect(items[0]).toMatchObject({ kind: 'header', resumed: true });
    expect(items[1]).toMatchObject({
      kind: 'system',
      text: `… 200 earlier items are not shown; the whole session is in ${join(folderOf(conversation.session), 'events.jsonl')}`,
    });
    expect(items[2]).toMatchObject({ kind: 'user', text: 'question 100' });
    expect(items.at(-1)).toMatchObject({ kind: 'assistant', text: 'answer 149' });
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
  });

  it('a short resumed session is shown whole', async () => {
    const dir = copyExample('demo');
    writeSession(dir, 'short-one', 2);
    const { items } = openingItems(await open(dir, 'short-one'));
    expect(items.map((item) => item.kind)).toEqual(['header', 'user', 'assistant', 'user', 'assistant']);
  });
});

describe('resumeCommand', () => {
  const at = (agentDir: string, cwd: string, modelFlags: string[] = []) => ({ program: ['auggy'], agentDir, cwd, modelFlags });
  it('names the folder as typed from here, quoted when needed', () => {
    expect(resumeCommand(at('/home/me/agents/demo', '/home/me/agents'), 'abc')).toBe('auggy run demo --session abc');
    expect(resumeCommand(at('/home/me/agents/demo', '/home/me/agents/demo'), 'abc')).toBe('auggy run . --session abc');
    expect(resumeCommand(at('/srv/my agent', '/home/me'), 'abc')).toBe("auggy run '/srv/my agent' --session abc");
  });

  it('keeps the model flags of the run, so the resumed chat talks to the same model', () => {
    const flags = ['--model', 'openai-compatible:my model', '--base-url', 'http://127.0.0.1:8000/v1'];
    expect(resumeCommand(at('/a/demo', '/a', flags), 'abc')).toBe(
      "auggy run demo --session abc --model 'openai-compatible:my model' --base-url http://127.0.0.1:8000/v1",
    );
  });
});
