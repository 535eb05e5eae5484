import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';

function admin(dir: string, ...flags: string[]) {
  return execa('node', [AUGGY_BIN, 'admin', dir, ...flags], { reject: false });
}

describe('auggy admin', () => {
  it('reports turnControl with its tool, behaviour and a default description', async () => {
    const result = await admin(makeAgentFolder());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Exposed tool\s+request_input/);
    expect(result.stdout).toMatch(/Behavior\s+request_input/);
    expect(result.stdout).toMatch(/Description override\s+default/);
    expect(result.stdout).toMatch(/Description chars\s+\d+/);
  });

  it('says the description is custom when augment.yaml overrides it, also as JSON', async () => {
    const description = 'Ask only when the deployment target is missing.';
    const dir = makeAgentFolder({
      files: { 'augments/turnControl/augment.yaml': `type: turnControl\nconfig:\n  requestInputDescription: ${description}\n` },
    });
    const result = await admin(dir, '--json');
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout) as { augments: { id: string; tools: string[]; rows: { label: string; value: string }[] }[] };
    const turnControl = report.augments.find((a) => a.id === 'turnControl');
    expect(turnControl?.tools).toEqual(['request_input']);
    expect(turnControl?.rows).toEqual(
      expect.arrayContaining([
        { label: 'Description override', value: 'custom (augment.yaml)' },
        { label: 'Description chars', value: String(description.length) },
      ]),
    );
  });

  it('uses the custom description as the tool description the model sees', async () => {
    const { startChatServer } = await import('../helpers/chat-server.js');
    const server = await startChatServer([{ text: 'ok' }]);
    const dir = makeAgentFolder({
      files: { 'augments/turnControl/augment.yaml': 'type: turnControl\nconfig:\n  requestInputDescription: Only ask about regions.\n' },
    });
    const result = await execa('node', [AUGGY_BIN, 'run', dir, '--print', 'hi', '--model', 'openai-compatible:t', '--base-url', server.url], { reject: false });
    await server.close();
    expect(result.exitCode).toBe(0);
    expect(server.requests[0].body.tools?.[0].function.description).toBe('Only ask about regions.');
  });
});
