import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAgent } from '../../src/agent/load-agent.js';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { auggy, auggyPrint } from '../helpers/auggy-cli.js';
import { startChatServer, type ChatReply, type ChatServer } from '../helpers/chat-server.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';

/** A fixture copied to a temp folder, so its runs never write sessions into the repository. */
function fixture(path: string): string {
  const target = join(mkdtempSync(join(tmpdir(), 'auggy-interop-')), path.split('/').at(-1) ?? 'agent');
  cpSync(join(REPO_ROOT, 'test', 'fixtures', path), target, { recursive: true });
  return target;
}

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

async function turn(path: string, replies: ChatReply[], message = 'hello') {
  const dir = fixture(path);
  chat = await startChatServer(replies);
  const run = await auggyPrint(dir, chat.url, message, '--output', 'json');
  return { dir, run, chat, out: run.exitCode === 0 || run.exitCode === 1 ? (JSON.parse(String(run.stdout)) as Record<string, unknown>) : undefined };
}

const systemOf = (server: ChatServer, index = 0) => String(server.requests[index].body.messages[0].content);
const toolsOf = (server: ChatServer, index = 0) => (server.requests[index].body.tools ?? []).map((t) => t.function.name);

describe('real auggy folders load, validate and run a turn', () => {
  it.each(['auggy/concierge', 'auggy/modularity', 'auggy/security', 'promptkit/hitl', 'promptkit/guarded', 'promptkit/spin'])(
    '%s validates with exit 0',
    async (path) => {
      const checked = await auggy(['validate', fixture(path)]);
      expect(checked.exitCode, String(checked.stdout)).toBe(0);
      const loaded = await loadAgent(fixture(path), BUILTIN_AUGMENTS, { processEnv: {} });
      expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    },
  );

  it('concierge (augments by folder name): unsupported ones are one warning each, their skills and the tool-less skill are not sent', async () => {
    const { run, chat: server } = await turn('auggy/concierge', [{ text: 'Welcome to the harbour.' }]);
    expect(run.exitCode).toBe(0);
    expect(String(run.stdout)).toContain('Welcome to the harbour.');
    const system = systemOf(server);
    expect(system).toContain('You help visitors choose a service');
    expect(system).toContain('<skill name="turnControl">');
    for (const absent of ['<skill name="filesystem">', '<skill name="auggy">', '<skill name="concierge-services">']) expect(system).not.toContain(absent);
    expect(toolsOf(server)).toEqual(['request_input']);
    expect(String(run.stderr).match(/not supported here, ignored/g)).toHaveLength(5);
  });

  it('modularity (every augment inline): the turn runs with none of them and the identity file', async () => {
    const { run, chat: server } = await turn('auggy/modularity', [{ text: 'Done.' }]);
    expect(run.exitCode).toBe(0);
    expect(systemOf(server)).toContain('concise evaluation agent');
    expect(toolsOf(server)).toEqual([]);
  });

  it('security (inline entries): an inline augment implemented here is configured from its options', async () => {
    const { run, chat: server } = await turn('auggy/security', [{ text: 'Nothing to do.' }]);
    expect(run.exitCode).toBe(0);
    expect(toolsOf(server)).toEqual(['request_input']);
    expect(server.requests[0].body.tools?.[0].function.description).toBe('Ask the operator one short question and wait for the answer.');
  });

  it('admin shows the system prompt size in characters', async () => {
    const shown = await auggy(['admin', fixture('auggy/concierge')]);
    expect(shown.exitCode).toBe(0);
    expect(String(shown.stdout)).toMatch(/System prompt: [\d,]+ characters before augment blocks \(identity \d+; skills: turnControl [\d,]+\)/);
    expect(String(shown.stdout)).toContain('Creator: Harbour team');
    const json = JSON.parse(String((await auggy(['admin', fixture('auggy/concierge'), '--json'])).stdout)) as {
      systemPrompt: { characters: number; skills: { id: string }[] };
    };
    expect(json.systemPrompt.characters).toBeGreaterThan(100);
    expect(json.systemPrompt.skills.map((s) => s.id)).toEqual(['turnControl']);
  });
});

describe('PromptKit packs run as their authors meant', () => {
  it('hitl: the PromptKit-shaped transition (context a string) moves the state, and the terminal state speaks', async () => {
    const {
      run,
      out,
      chat: server,
    } = await turn(
      'promptkit/hitl',
      [
        { toolCalls: [{ name: 'workflow__transition', args: { event: 'Approved', context: 'Refunded order 7 in full' } }] },
        { text: 'Your refund for order 7 is on its way.' },
      ],
      'please refund order 7',
    );
    expect(run.exitCode).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[0].body.tools)).toContain('"required":["event","context"]');
    expect(systemOf(server, 1)).toContain('Handed over: Refunded order 7 in full');
    expect(toolsOf(server, 1)).toEqual([]);
    expect(out).toMatchObject({ status: 'completed', text: 'Your refund for order 7 is on its way.', workflow: { state: 'confirmation', complete: true } });
    // triage lists issue_refund, a host tool of PromptKit's: said once, not silently dropped.
    expect(String(run.stderr)).toMatch(/lists tool issue_refund, which no enabled augment offers/);
  });

  it('guarded: a version 1 state with no on_event is terminal', async () => {
    const { run, out } = await turn('promptkit/guarded', [
      { text: 'Got it.', toolCalls: [{ name: 'workflow__transition', args: { event: 'Collected', context: 'order 12' } }] },
      { text: 'never' },
    ]);
    expect(run.exitCode).toBe(0);
    expect(out).toMatchObject({ status: 'completed', text: 'Got it.', workflow: { state: 'wrap', complete: true } });
  });

  it("spin: an all-agent cycle with no max_visits and no budget ends budget-exhausted at the turn's bound", async () => {
    const loop = (i: number): ChatReply => ({
      toolCalls: [{ name: 'workflow__transition', args: { event: i % 2 === 0 ? 'Checked' : 'Thought', context: `round ${i}` } }],
    });
    const {
      run,
      out,
      chat: server,
    } = await turn(
      'promptkit/spin',
      Array.from({ length: 40 }, (_, i) => loop(i)),
    );
    expect(run.exitCode).toBe(1);
    expect(server.requests).toHaveLength(5);
    expect(out).toMatchObject({ status: 'budget-exhausted', message: expect.stringMatching(/5 inference rounds \(settings\.maxInferenceLoops\)/) });
  });
});

describe('a PromptKit pack without a workflow', () => {
  it('runs as the prompt set: identity first, the prompt rendered with defaults and config, its mock tool offered and answering', async () => {
    const {
      run,
      out,
      chat: server,
    } = await turn(
      'promptkit/prompt-set',
      [{ toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' } }] }, { text: 'Light snow in Oslo.' }],
      'weather in Oslo?',
    );
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const system = systemOf(server);
    expect(system.indexOf('weather desk of a small radio station')).toBeLessThan(system.indexOf('Answer in a brief style, in en.'));
    expect(system).not.toContain('Current state');
    expect(toolsOf(server)).toEqual(['get_weather', 'sunrise', 'station_report']);
    expect(JSON.stringify(server.requests[1].body.messages)).toContain('light snow');
    expect(out).toMatchObject({ status: 'completed', text: 'Light snow in Oslo.' });
    expect(String(run.stderr)).toMatch(/state assistant lists tool get_time, which no enabled augment offers/);
  });

  it("sends the prompt's parameters (temperature, max_tokens) with every model call", async () => {
    const { run, chat: server } = await turn('promptkit/prompt-set', [{ text: 'Clear skies.' }]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(server.requests[0].body).toMatchObject({ temperature: 0.3, max_tokens: 400 });
  });

  it("answers a mock_template tool from the pack's Go template of the arguments, JSON kept and text wrapped as PromptKit does", async () => {
    const { run, chat: server } = await turn('promptkit/prompt-set', [
      {
        toolCalls: [
          { name: 'sunrise', args: { city: 'Oslo' } },
          { name: 'sunrise', args: { city: 'Lima' } },
        ],
      },
      { text: 'Sunrise at 09:18.' },
    ]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const results = server.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['{"city":"Oslo","sunrise":"09:18"}', '{"result":"no data for Lima"}']);
  });

  it('calls an HTTP tool at the URL the pack names: GET arguments and static_query in the query, headers_from_env from .env', async () => {
    const seen: { url?: string; key?: string } = {};
    const station = createServer((request, response) => {
      seen.url = request.url;
      seen.key = String(request.headers['x-station-key']);
      response.setHeader('content-type', 'application/json');
      response.end('{"station":"blindern","celsius":-3}');
    });
    await new Promise<void>((resolve) => station.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = station.address() as AddressInfo;
      const dir = fixture('promptkit/prompt-set');
      const packPath = join(dir, 'weather.pack.json');
      writeFileSync(packPath, readFileSync(packPath, 'utf8').replace('http://127.0.0.1:9/report', `http://127.0.0.1:${port}/report`));
      writeFileSync(join(dir, '.env'), 'STATION_KEY=k-123\n');
      chat = await startChatServer([{ toolCalls: [{ name: 'station_report', args: { station: 'blindern' } }] }, { text: 'Minus three at Blindern.' }]);
      const run = await auggyPrint(dir, chat.url, 'readings?', '--output', 'json');
      expect(run.exitCode, String(run.stderr)).toBe(0);
      expect(seen).toEqual({ url: '/report?station=blindern&units=metric', key: 'k-123' });
      expect(JSON.stringify(chat.requests[1].body.messages)).toContain('{\\"station\\":\\"blindern\\",\\"celsius\\":-3}');
    } finally {
      await new Promise((resolve) => station.close(resolve));
    }
  });

  it('validate names the tool nothing provides and passes the one the pack implements', async () => {
    const checked = await auggy(['validate', fixture('promptkit/prompt-set')]);
    expect(checked.exitCode).toBe(0);
    expect(String(checked.stdout)).toMatch(/weather\.pack\.json warning prompt assistant lists tool get_time, which nothing here provides/);
    expect(String(checked.stdout)).not.toMatch(/lists tool get_weather/);
  });
});

describe('RFC 0009 artifacts in a PromptKit workflow', () => {
  it('workflow__set_artifact writes at once (append adds), the next state reads {{artifacts.*}}, and --output json carries them', async () => {
    const {
      run,
      out,
      chat: server,
    } = await turn(
      'promptkit/artifacts',
      [
        {
          toolCalls: [
            { name: 'workflow__set_artifact', args: { name: 'outline', value: '# 1.2: Fixes, Features' } },
            { name: 'workflow__set_artifact', args: { name: 'changes', value: 'fix A;' } },
            { name: 'workflow__set_artifact', args: { name: 'changes', value: ' add B' } },
            { name: 'workflow__transition', args: { event: 'Drafted', context: 'outline and changes kept' } },
          ],
        },
        { text: 'The outline reads well.' },
      ],
      'draft the 1.2 notes',
    );
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(toolsOf(server)).toEqual(['workflow__transition', 'workflow__set_artifact']);
    expect(systemOf(server)).toMatch(/Artifacts of state draft; set them with workflow__set_artifact[^\n]*\n- outline \(The notes' headings; text\/markdown\)/);
    const review = systemOf(server, 1);
    expect(review).toContain('Review this outline: # 1.2: Fixes, Features\nChanges so far: fix A; add B');
    expect(out).toMatchObject({ workflow: { state: 'review', complete: true, artifacts: { outline: '# 1.2: Fixes, Features', changes: 'fix A; add B' } } });
  });

  it('validate refuses an artifact mode PromptKit does not have', async () => {
    const dir = fixture('promptkit/artifacts');
    const packPath = join(dir, 'release-notes.pack.json');
    writeFileSync(packPath, readFileSync(packPath, 'utf8').replace('"mode": "append"', '"mode": "appnd"'));
    const checked = await auggy(['validate', dir]);
    expect(checked.exitCode).toBe(1);
    expect(String(checked.stdout)).toMatch(/artifact "changes" mode "appnd" is not one of replace, append; did you mean append\?/);
  });
});

describe('PromptKit pack tools answered from files next to the pack and from a mapped HTTP call', () => {
  it('answers mock_result_file with the file as it stands and mock_template_file rendered with the arguments', async () => {
    const { run, chat: server } = await turn('promptkit/mock-files', [
      {
        toolCalls: [
          { name: 'tide', args: { port: 'Bergen' } },
          { name: 'greet_boat', args: { boat: 'Solveig', captain: 'Aas' } },
          { name: 'greet_boat', args: { boat: 'Kari' } },
        ],
      },
      { text: 'High water at 06:42.' },
    ]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(toolsOf(server)).toEqual(['tide', 'greet_boat', 'book_berth']);
    const results = server.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual([
      '{"port": "Bergen", "high_water": "06:42", "metres": 1.4}',
      '{"greeting":"Welcome to Bergen, Captain Aas of the Solveig"}',
      '{"result":"Welcome, Kari"}',
    ]);
  });

  it('sends the body reshaped by request body_mapping and answers with the response reshaped by response body_mapping', async () => {
    const seen: { body?: string } = {};
    const harbour = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += String(chunk);
      });
      request.on('end', () => {
        seen.body = body;
        response.setHeader('content-type', 'application/json');
        response.end('{"booking":{"berth":"B7","until":"2026-12-05","fee":420},"status":"ok"}');
      });
    });
    await new Promise<void>((resolve) => harbour.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = harbour.address() as AddressInfo;
      const dir = fixture('promptkit/mock-files');
      const packPath = join(dir, 'harbour.pack.yaml');
      writeFileSync(packPath, readFileSync(packPath, 'utf8').replace('http://127.0.0.1:9/berths', `http://127.0.0.1:${port}/berths`));
      chat = await startChatServer([{ toolCalls: [{ name: 'book_berth', args: { boat: 'Solveig', nights: 3 } }] }, { text: 'Berth B7 is yours.' }]);
      const run = await auggyPrint(dir, chat.url, 'a berth for three nights', '--output', 'json');
      expect(run.exitCode, String(run.stderr)).toBe(0);
      expect(JSON.parse(seen.body ?? '')).toEqual({ vessel: 'Solveig', stay: { nights: 3 } });
      const results = chat.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(results).toEqual(['{"berth":"B7","until":"2026-12-05"}']);
    } finally {
      await new Promise((resolve) => harbour.close(resolve));
    }
  });

  it('validate names the tool whose mock file does not exist and refuses the pack', async () => {
    const dir = fixture('promptkit/mock-files');
    const packPath = join(dir, 'harbour.pack.yaml');
    writeFileSync(packPath, readFileSync(packPath, 'utf8').replace('mocks/tide.json', 'mocks/tides.json'));
    const checked = await auggy(['validate', dir]);
    expect(checked.exitCode).toBe(1);
    expect(String(checked.stdout)).toMatch(/harbour\.pack\.yaml:\d+:\d+ error tools\.tide: tool tide: its mock_result_file mocks\/tides\.json does not exist/);
  });

  it('validate refuses a body_mapping that is not JMESPath', async () => {
    const dir = fixture('promptkit/mock-files');
    const packPath = join(dir, 'harbour.pack.yaml');
    writeFileSync(packPath, readFileSync(packPath, 'utf8').replace('booking.{berth: berth, until: until}', 'booking.{berth: '));
    const checked = await auggy(['validate', dir]);
    expect(checked.exitCode).toBe(1);
    expect(String(checked.stdout)).toMatch(/error tools\.book_berth: tool book_berth: its http response body_mapping is not valid JMESPath/);
  });
});
