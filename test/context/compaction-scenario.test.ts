import { describe, expect, it } from 'vitest';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { failuresByType, reportNamed, runScenarios, scenario } from '../test-command/harness.js';
import { agentOnServer, modelReply, turnMessage } from './compaction-helpers.js';

const startServer = chatServersPerTest();

function turn(content: string, assertions: string[]): string {
  return [`    - role: user`, `      content: ${JSON.stringify(content)}`, '      assertions:', ...assertions.map((a) => `        - ${a}`)].join('\n');
}

describe('auggy test across compactions', () => {
  it('context_compacted passes on a long scenario, and a fact from turn 1 is still used in the last turn', async () => {
    const server = await startServer(modelReply, { contextTokens: 3000, overflowShape: 'llama.cpp' });
    const { dir } = await agentOnServer(server.url, 3000);
    const turns = Array.from({ length: 14 }, (_, index) =>
      turn(turnMessage(index + 1), [`{ type: content_includes, params: { patterns: ["noted ${index + 1}"] } }`]),
    );
    turns.push(
      turn('What is the secret code?', ['{ type: content_includes, params: { patterns: ["AZ-4471"] } }', '{ type: context_compacted, params: { max: 0 } }']),
    );
    const long = scenario('long', turns.join('\n'), '  conversation_assertions:\n    - { type: context_compacted, params: { min: 2 } }');
    const report = reportNamed(await runScenarios(dir, { long }), 'long');
    expect([...failuresByType(report).values()]).toEqual([]);
    expect(report.passed).toBe(true);
  });
});
