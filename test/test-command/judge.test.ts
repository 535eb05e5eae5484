import { describe, expect, it, vi } from 'vitest';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { startAnthropicServer, textFrames } from '../helpers/anthropic-server.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { failuresByType, reportNamed, runScenarios, scenario } from './harness.js';

const startServer = chatServersPerTest();

function loopbackAgent(url: string): string {
  return makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: agent-model\n  baseURL: ${url}\n` });
}

describe('llm_judge', () => {
  it('asks params.model, with no tools, to judge the reply against the criteria, and passes on its verdict', async () => {
    const server = await startServer((request) =>
      request.body.model === 'judge-model'
        ? { text: '```json\n{"passed": true, "score": 0.8, "reasoning": "It greets the person."}\n```' }
        : { text: 'Hello, how can I help?' },
    );
    const suite = await runScenarios(loopbackAgent(server.url), {
      judged: scenario(
        'judged',
        `    - content: hi\n      assertions:\n        - { type: llm_judge, params: { criteria: "Greets the person.", rubric: "1 for a greeting", model: "openai-compatible:judge-model" } }`,
      ),
    });
    expect(reportNamed(suite, 'judged').passed).toBe(true);
    const judge = server.requests.find((request) => request.body.model === 'judge-model');
    expect(judge?.body.tools).toBeUndefined();
    const prompt = JSON.stringify(judge?.body.messages);
    expect(prompt).toContain('Content to evaluate:\\nHello, how can I help?');
    expect(prompt).toContain('Criteria: Greets the person.');
    expect(prompt).toContain('Rubric: 1 for a greeting');
  });

  it("reads a judge of another provider's settings from the environment, as the agent's own model reads them, but not the AUGGY_* ones meant for the agent", async () => {
    const agentServer = await startServer((request) =>
      request.body.model === 'judge-model' ? { text: '{"passed": false, "score": 0, "reasoning": "sent where the agent is"}' } : { text: 'Hello there.' },
    );
    const judgeServer = await startServer(() => ({ text: '{"passed": true, "score": 0.9, "reasoning": "It greets."}' }));
    // Exported, not in the folder's .env: where a person keeps OLLAMA_HOST or a provider's key.
    vi.stubEnv('OLLAMA_HOST', judgeServer.url.replace(/\/v1$/, ''));
    // The agent's own model is reached through AUGGY_BASE_URL; a judge of another provider must not be sent there.
    vi.stubEnv('AUGGY_BASE_URL', agentServer.url);
    try {
      const suite = await runScenarios(loopbackAgent('http://127.0.0.1:9/v1'), {
        judged: scenario(
          'judged',
          `    - content: hi\n      assertions:\n        - { type: turn_status, params: { status: completed } }\n        - { type: llm_judge, params: { criteria: "Greets the person.", model: "ollama:judge-model" } }`,
        ),
      });
      expect(failuresByType(reportNamed(suite, 'judged'))).toEqual(new Map());
      expect(agentServer.requests.map((request) => request.body.model)).toEqual(['agent-model']);
      expect(judgeServer.requests.map((request) => request.body.model)).toEqual(['judge-model']);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("gives a judge of the agent's own provider the agent's key, even when the agent has it from AUGGY_API_KEY", async () => {
    const anthropic = await startAnthropicServer((request) =>
      request.body.model === 'judge-model'
        ? { frames: textFrames('{"passed": true, "score": 0.9, "reasoning": "It greets."}') }
        : { frames: textFrames('Hello there.') },
    );
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    vi.stubEnv('AUGGY_API_KEY', 'agent-key');
    try {
      const dir = makeAgentFolder({ engine: `engine:\n  provider: anthropic\n  model: agent-model\n  baseURL: ${anthropic.url}\n` });
      const suite = await runScenarios(dir, {
        judged: scenario(
          'judged',
          `    - content: hi\n      assertions:\n        - { type: llm_judge, params: { criteria: "Greets the person.", model: "anthropic:judge-model" } }`,
        ),
      });
      expect(failuresByType(reportNamed(suite, 'judged'))).toEqual(new Map());
      expect(anthropic.requests.map((request) => [request.body.model, request.apiKey])).toEqual([
        ['agent-model', 'agent-key'],
        ['judge-model', 'agent-key'],
      ]);
    } finally {
      vi.unstubAllEnvs();
      await anthropic.close();
    }
  });

  it("uses the agent's own model when params.model is absent, and a reply that is no verdict fails with what it said", async () => {
    const server = await startServer((_request, index) => (index === 0 ? { text: 'Hello!' } : { text: 'Looks fine to me.' }));
    const suite = await runScenarios(loopbackAgent(server.url), {
      unreadable: scenario('unreadable', `    - content: hi\n      assertions:\n        - { type: llm_judge, params: { criteria: "Greets." } }`),
    });
    expect(server.requests.map((request) => request.body.model)).toEqual(['agent-model', 'agent-model']);
    expect(failuresByType(reportNamed(suite, 'unreadable')).get('llm_judge')?.actual).toBe(
      'the judge did not answer with {"passed", "score", "reasoning"}: "Looks fine to me."',
    );
  });

  it('fails, saying why, when the judge cannot be reached', async () => {
    const server = await startServer((_request, index) => (index === 0 ? { text: 'Hello!' } : { status: 500 }));
    const suite = await runScenarios(loopbackAgent(server.url), {
      down: scenario('down', `    - content: hi\n      assertions:\n        - { type: llm_judge, params: { criteria: "Greets." } }`),
    });
    expect(failuresByType(reportNamed(suite, 'down')).get('llm_judge')?.actual).toMatch(/^the judge could not be asked: /);
  });
});

describe("PromptKit's LLM-judged types (faithfulness, ...)", () => {
  const faithful = scenario('faithful', '    - content: where is the order?\n      assertions:\n        - { type: faithfulness, params: { threshold: 0.7 } }');

  it('are skipped, never passed, without --judge-model, and nothing is asked of a judge', async () => {
    const server = await startServer(() => ({ text: 'It ships tomorrow.' }));
    const suite = await runScenarios(loopbackAgent(server.url), { faithful });
    const outcome = reportNamed(suite, 'faithful').runs[0].turns[0].assertions[0];
    expect(outcome).toMatchObject({ status: 'skipped', actual: expect.stringMatching(/--judge-model provider:model/) });
    expect(server.requests).toHaveLength(1);
  });

  it("ask the --judge-model, and pass or fail on the judge's score against the check's threshold", async () => {
    let score = 0.9;
    const server = await startServer((request) =>
      request.body.model === 'judge-model' ? { text: `{"passed": true, "score": ${score}, "reasoning": "supported"}` } : { text: 'It ships tomorrow.' },
    );
    const judgeModel = 'openai-compatible:judge-model';
    const suite = await runScenarios(loopbackAgent(server.url), { faithful }, { judgeModel });
    expect(reportNamed(suite, 'faithful').passed).toBe(true);
    const judge = server.requests.find((request) => request.body.model === 'judge-model');
    expect(JSON.stringify(judge?.body.messages)).toContain('states only what the conversation and its tool results support');
    score = 0.5;
    const low = await runScenarios(loopbackAgent(server.url), { faithful }, { judgeModel });
    expect(reportNamed(low, 'faithful').runs[0].turns[0].assertions[0]).toMatchObject({ status: 'failed', expected: expect.stringMatching(/at least 0\.7/) });
  });
});
