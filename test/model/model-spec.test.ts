import { describe, expect, it } from 'vitest';
import { ollamaHostURL } from '../../src/model/ollama-host.js';
import { serverMessage } from '../../src/model/describe-error.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';

describe('OLLAMA_HOST, read as Ollama reads it', () => {
  it.each([
    [undefined, 'http://127.0.0.1:11434'],
    ['', 'http://127.0.0.1:11434'],
    ['127.0.0.1:11434', 'http://127.0.0.1:11434'],
    ['0.0.0.0', 'http://0.0.0.0:11434'],
    [':8080', 'http://127.0.0.1:8080'],
    ['"gpu-box:11434"', 'http://gpu-box:11434'],
    ['http://gpu-box:11434/', 'http://gpu-box:11434'],
    ['https://ollama.example.com', 'https://ollama.example.com:443'],
    ['http://ollama.example.com', 'http://ollama.example.com:80'],
    ['[::1]:11434', 'http://[::1]:11434'],
  ])('%j is %s', (value, url) => {
    expect(ollamaHostURL(value)).toBe(url);
  });
});

describe("a model server's own words from its error body", () => {
  it.each([
    ['llama.cpp and OpenAI', '{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}', 'tools param requires --jinja flag'],
    ['older vLLM', '{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}', 'max_tokens is too large'],
    ['Ollama native', '{"error":"model \\"x\\" not found"}', 'model "x" not found'],
    ['FastAPI', '{"detail":"Not Found"}', 'Not Found'],
    ['plain text', 'upstream  timed out\n', 'upstream timed out'],
  ])('%s', (_shape, body, said) => {
    expect(serverMessage(body)).toBe(said);
  });

  it('quotes at most 200 characters, and nothing for an empty body', () => {
    expect(serverMessage(JSON.stringify({ error: { message: 'y'.repeat(500) } }))).toBe(`${'y'.repeat(200)}…`);
    expect(serverMessage('')).toBeUndefined();
  });
});

describe('engine.baseURL that fetch could not use', () => {
  it('is an error auggy validate reports, naming the field', async () => {
    const { loadAgent } = await import('../../src/agent/load-agent.js');
    const { makeAgentFolder } = await import('../helpers/agent-fixture.js');
    const dir = makeAgentFolder({ engine: 'engine:\n  provider: openai-compatible\n  model: m\n  baseURL: localhost:8000/v1\n' });
    const { diagnostics } = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        field: 'engine.baseURL',
        message: '"localhost:8000/v1" is not an http(s) URL; write it like http://127.0.0.1:8000/v1',
      }),
    );
  });
});
