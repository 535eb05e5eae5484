import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { customValues, scriptedPerson } from '../../helpers/scripted-person.js';
import { eventually, everythingStdio, filesystemStdio, isAlive, readTap, startEverythingHttp, type HttpEverything } from '../../helpers/mcp-servers.js';
import { tempDir } from '../../helpers/temp-dir.js';
import type { ServerPool } from '../../../src/augments/mcp/server-pool.js';
import { exposedTools } from '../../../src/augments/mcp/mcp-tools.js';
import { createTuiPerson } from '../../../src/hosts/tui/questionnaire/tui-person.js';
import { callTool, poolFor, toolsContext } from './harness.js';

// The reference servers, started once for the file: stdio (through a recording tap), Streamable HTTP, filesystem.
let http: HttpEverything;
let pool: ServerPool;
let tap: string;
let files: string;

beforeAll(async () => {
  http = await startEverythingHttp();
  tap = join(tempDir('auggy-tap-'), 'everything.log');
  files = tempDir('auggy-files-');
  ({ pool } = poolFor({
    mcpServers: {
      everything: everythingStdio(tap),
      web: { type: 'streamable-http', url: http.url },
      files: filesystemStdio(files),
    },
    auggy: { servers: { everything: { confirmTools: ['get-sum'], allowSampling: true }, web: { timeoutSeconds: 1, blockedTools: ['get-env'] } } },
  }));
  await pool.ensureAll();
  const down = pool.connections.filter((c) => c.state.kind !== 'connected');
  if (down.length > 0) throw new Error(`servers did not start: ${down.map((c) => `${c.config.name} ${JSON.stringify(c.state)}`).join('; ')}`);
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await http?.stop();
});

describe('tools from the reference servers', () => {
  it('are named mcp_<server>_<tool>, over stdio and Streamable HTTP, with blockedTools left out', () => {
    const offered = exposedTools(toolsContext(pool)).map((tool) => tool.name);
    expect(offered).toContain('mcp_everything_echo');
    expect(offered).toContain('mcp_web_echo');
    expect(offered).toContain('mcp_files_read_text_file');
    expect(offered).toContain('mcp_everything_trigger_long_running_operation');
    expect(offered).toContain('mcp_everything_get_env');
    expect(offered).not.toContain('mcp_web_get_env');
  });

  it('echo answers over stdio and over HTTP', async () => {
    const context = toolsContext(pool);
    expect((await callTool(context, 'mcp_everything_echo', { message: 'over stdio' })).result).toMatchObject({ content: 'Echo: over stdio' });
    expect((await callTool(context, 'mcp_web_echo', { message: 'over http' })).result).toMatchObject({ content: 'Echo: over http' });
  });

  it('a bad argument is a tool error the model can correct, and the server is not called', async () => {
    const { result } = await callTool(toolsContext(pool), 'mcp_everything_echo', { message: 42 });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/Invalid arguments for mcp_everything_echo/);
  });

  it('structured content, resource links and images reach the model as text', async () => {
    const context = toolsContext(pool);
    const structured = await callTool(context, 'mcp_everything_get_structured_content', { location: 'Chicago' });
    expect(structured.result.content).toMatch(/temperature/);
    const links = await callTool(context, 'mcp_everything_get_resource_links', { count: 2 });
    expect(links.result.content).toMatch(/Resource link: .* <demo:\/\/resource/);
    const image = await callTool(context, 'mcp_everything_get_tiny_image', {});
    expect(image.result.content).toMatch(/\[image: image\/png, [\d.]+ (bytes|kB); the image itself is not shown to this model\]/);
  });

  it('progress notifications of a long call become mcp.progress events', async () => {
    const { result, events } = await callTool(toolsContext(pool), 'mcp_everything_trigger_long_running_operation', { duration: 1, steps: 2 });
    expect(result.content).toMatch(/Long running operation completed/);
    expect(customValues(events, 'mcp.progress')).toEqual([
      expect.objectContaining({ toolName: 'mcp_everything_trigger_long_running_operation', progress: 1, total: 2 }),
      expect.objectContaining({ progress: 2, total: 2 }),
    ]);
  });

  it('a call past timeoutSeconds is a tool error naming the setting', async () => {
    const { result } = await callTool(toolsContext(pool), 'mcp_web_trigger_long_running_operation', { duration: 3, steps: 1 });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/did not answer within 1 s \(auggy\.servers\.web\.timeoutSeconds/);
  });

  it('a canceled turn cancels the call with notifications/cancelled for its request', async () => {
    const controller = new AbortController();
    const running = callTool(toolsContext(pool), 'mcp_everything_trigger_long_running_operation', { duration: 20, steps: 20 }, { signal: controller.signal });
    await eventually(
      () => readTap(tap).sent.some((m) => m.method === 'tools/call' && JSON.stringify(m).includes('"duration":20')),
      'the call to reach the server',
    );
    controller.abort(new Error('canceled by the person'));
    const { result } = await running;
    expect(result).toMatchObject({ isError: true, content: expect.stringMatching(/canceled with the turn/) });
    const sent = readTap(tap).sent;
    const call = sent.find((m) => m.method === 'tools/call' && JSON.stringify(m).includes('"duration":20'));
    await eventually(() => readTap(tap).sent.some((m) => m.method === 'notifications/cancelled'), 'the cancellation');
    const cancel = readTap(tap).sent.find((m) => m.method === 'notifications/cancelled');
    expect(cancel?.params).toMatchObject({ requestId: call?.id });
  });
});

describe('elicitation: a server form on the questions road', () => {
  it('is asked field by field, and the answers go back as accept with the server values', async () => {
    const person = scriptedPerson([
      'Ada Lovelace',
      'yes',
      '-',
      'ada@example.com',
      'https://ada.example',
      '1815-12-10',
      '7',
      '2.5',
      '3',
      'Piano, drums',
      'Wonder Woman',
      'Salmon',
      'Dogs',
    ]);
    const { result, events } = await callTool(toolsContext(pool), 'mcp_everything_trigger_elicitation_request', {}, { person });
    expect(person.asked.map((q) => q.field)).toEqual([
      'name',
      'check',
      'firstLine',
      'email',
      'homepage',
      'birthdate',
      'integer',
      'number',
      'untitledSingleSelectEnum',
      'untitledMultipleSelectEnum',
      'titledSingleSelectEnum',
      'titledMultipleSelectEnum',
      'legacyTitledEnum',
    ]);
    expect(person.asked[0]).toMatchObject({ type: 'text', required: true, purpose: { kind: 'elicitation', server: 'everything' } });
    expect(person.asked[0].intro).toMatch(/^everything asks: Please provide inputs/);
    expect(person.asked[2]).toMatchObject({ default: 'It was a dark and stormy night.', required: false });
    expect(person.asked[10]).toMatchObject({ type: 'choice', options: ['Superman', 'Green Lantern', 'Wonder Woman'], default: 'Superman' });
    expect(person.asked[9]).toMatchObject({ type: 'list' });
    expect(person.asked[9].question).toMatch(/one or more of: Guitar, Piano, Violin, Drums, Bass/);
    expect(result.content).toMatch(/User provided the requested information/);
    const raw = JSON.parse(/Raw result: ([\s\S]*)$/.exec(result.content)![1]) as { action: string; content: Record<string, unknown> };
    expect(raw).toEqual({
      action: 'accept',
      content: {
        name: 'Ada Lovelace',
        check: true,
        firstLine: 'It was a dark and stormy night.',
        email: 'ada@example.com',
        homepage: 'https://ada.example',
        birthdate: '1815-12-10',
        integer: 7,
        number: 2.5,
        untitledSingleSelectEnum: 'Joey',
        untitledMultipleSelectEnum: ['Piano', 'Drums'],
        titledSingleSelectEnum: 'hero-3',
        titledMultipleSelectEnum: ['fish-2'],
        legacyTitledEnum: 'pet-2',
      },
    });
    expect(customValues(events, 'questionnaire.result')).toEqual([expect.objectContaining({ status: 'answered' })]);
  });

  it('a wrong email or an out-of-range integer is asked again at once with the reason', async () => {
    const person = scriptedPerson(['Ada', 'no', '-', 'not-an-email', 'ada@example.com', '', '', '500', '50', '', '', '', '', '', '']);
    const { result } = await callTool(toolsContext(pool), 'mcp_everything_trigger_elicitation_request', {}, { person });
    const again = person.asked.filter((q) => q.error !== undefined);
    expect(again.map((q) => [q.field, q.error])).toEqual([
      ['email', expect.stringMatching(/is not an email address/)],
      ['integer', 'must be at most 100'],
    ]);
    expect(result.content).toMatch(/"email": "ada@example.com"/);
  });

  it('Esc declines, and nobody there cancels at once', async () => {
    const declined = await callTool(toolsContext(pool), 'mcp_everything_trigger_elicitation_request', {}, { person: scriptedPerson([{ kind: 'declined' }]) });
    expect(declined.result.content).toMatch(/"action": "decline"/);
    const nobody = await callTool(toolsContext(pool), 'mcp_everything_trigger_elicitation_request', {});
    expect(nobody.result.content).toMatch(/"action": "cancel"/);
  });

  it('the call timeout waits while the person answers: a form slower than timeoutSeconds still goes through', async () => {
    const script = scriptedPerson(['Ada', '', '', '', '', '', '', '', '', '', '', '', '']);
    // The web server's calls time out after 1 s; this person takes longer over the first field.
    const slow = {
      ...script,
      ask: async (...args: Parameters<typeof script.ask>) => {
        if (script.asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 1500));
        return script.ask(...args);
      },
    };
    const { result } = await callTool(toolsContext(pool), 'mcp_web_trigger_elicitation_request', {}, { person: slow });
    expect(result.isError).toBeFalsy();
    expect(result.content).toMatch(/"name": "Ada"/);
  });

  it('/away in the chat cancels the form at once, like nobody being there', async () => {
    const away = createTuiPerson({ away: true });
    const { result } = await callTool(toolsContext(pool), 'mcp_everything_trigger_elicitation_request', {}, { person: away.person });
    expect(result.content).toMatch(/"action": "cancel"/);
  });

  it('URL mode shows the link and asks to go on; with nobody it declines', async () => {
    const person = scriptedPerson(['yes']);
    const yes = await callTool(toolsContext(pool), 'mcp_everything_trigger_url_elicitation', { url: 'https://example.com/login' }, { person });
    expect(person.asked[0].intro).toMatch(/https:\/\/example\.com\/login/);
    expect(person.asked[0].purpose).toEqual({ kind: 'elicitation', server: 'everything', url: 'https://example.com/login' });
    expect(yes.result.content).toMatch(/completed the URL elicitation/);
    const nobody = await callTool(toolsContext(pool), 'mcp_everything_trigger_url_elicitation', { url: 'https://example.com/login' });
    expect(nobody.result.content).toMatch(/decline/i);
  });
});

describe('approval of a confirmTools tool', () => {
  it('runs after yes, is refused after no, and "always" stops asking for the session', async () => {
    const context = toolsContext(pool);
    const yes = scriptedPerson(['yes']);
    expect((await callTool(context, 'mcp_everything_get_sum', { a: 2, b: 3 }, { person: yes })).result.content).toMatch(/5/);
    expect(yes.asked[0]).toMatchObject({
      type: 'choice',
      options: ['yes', 'no', 'always for this session'],
      purpose: { kind: 'approval', server: 'everything', tool: 'get-sum', toolName: 'mcp_everything_get_sum', arguments: { a: 2, b: 3 } },
    });
    const no = await callTool(context, 'mcp_everything_get_sum', { a: 1, b: 1 }, { person: scriptedPerson(['no']) });
    expect(no.result).toMatchObject({ isError: true, content: expect.stringMatching(/The person refused to let mcp_everything_get_sum run/) });
    expect(customValues(no.events, 'mcp.approval')).toEqual([expect.objectContaining({ decision: 'refused', by: 'person' })]);
    await callTool(context, 'mcp_everything_get_sum', { a: 1, b: 2 }, { person: scriptedPerson(['always for this session']) });
    const later = scriptedPerson([]);
    const third = await callTool(context, 'mcp_everything_get_sum', { a: 4, b: 4 }, { person: later });
    expect(later.asked).toHaveLength(0);
    expect(third.result.content).toMatch(/8/);
    expect(customValues(third.events, 'mcp.approval')).toEqual([expect.objectContaining({ decision: 'approved', by: 'session' })]);
  });

  it('with nobody there it is refused at once, unless --allow-tool matches', async () => {
    const refused = await callTool(toolsContext(pool), 'mcp_everything_get_sum', { a: 1, b: 2 });
    expect(refused.result.content).toMatch(/needs the person's approval, and nobody is at the prompt/);
    const allowed = await callTool(toolsContext(pool, ['mcp_everything_*']), 'mcp_everything_get_sum', { a: 1, b: 2 });
    expect(allowed.result.content).toMatch(/3/);
    expect(customValues(allowed.events, 'mcp.approval')).toEqual([expect.objectContaining({ decision: 'approved', by: 'allow-tool' })]);
  });

  it('the filesystem server: write_file is destructive, so it asks; the file is written and read back', async () => {
    const path = join(files, 'note.txt');
    const nobody = await callTool(toolsContext(pool), 'mcp_files_write_file', { path, content: 'hello' });
    expect(nobody.result.isError).toBe(true);
    const person = scriptedPerson(['yes']);
    const written = await callTool(toolsContext(pool), 'mcp_files_write_file', { path, content: 'hello from auggy' }, { person });
    expect(written.result.isError).toBeFalsy();
    expect(readFileSync(path, 'utf8')).toBe('hello from auggy');
    const read = await callTool(toolsContext(pool), 'mcp_files_read_text_file', { path });
    expect(read.result.content).toBe('hello from auggy');
  });
});

describe("sampling: a server asks to use the agent's model", () => {
  it("is answered by the agent's model, tool-less, after the person says yes (allowSampling)", async () => {
    const person = scriptedPerson(['yes']);
    const { result } = await callTool(toolsContext(pool), 'mcp_everything_trigger_sampling_request', { prompt: 'Name a colour' }, { person });
    expect(person.asked[0]).toMatchObject({ type: 'boolean', purpose: { kind: 'sampling', server: 'everything' } });
    expect(person.asked[0].intro).toMatch(/Name a colour/);
    expect(result.content).toMatch(/LLM sampling result/);
    expect(result.content).toMatch(/a sampled reply/);
  });

  it('is refused when the person says no, when nobody is there, and for a server without allowSampling', async () => {
    const no = await callTool(toolsContext(pool), 'mcp_everything_trigger_sampling_request', { prompt: 'x' }, { person: scriptedPerson(['no']) });
    expect(no.result).toMatchObject({ isError: true, content: expect.stringMatching(/the person did not allow everything/) });
    const nobody = await callTool(toolsContext(pool), 'mcp_everything_trigger_sampling_request', { prompt: 'x' });
    expect(nobody.result.content).toMatch(/nobody is at the prompt to approve/);
    const web = await callTool(toolsContext(pool), 'mcp_web_trigger_sampling_request', { prompt: 'x' }, { person: scriptedPerson(['yes']) });
    expect(web.result.content).toMatch(/auggy does not let web use the agent's model/);
  });
});

describe('a server that dies', () => {
  it('answers with a tool error, and the next ensureAll starts it again', async () => {
    const connection = pool.connection('everything')!;
    const [pid] = readTap(tap).pids.slice(-1);
    process.kill(pid, 'SIGKILL');
    await eventually(() => connection.state.kind === 'exited', 'the death to be noticed');
    expect(isAlive(pid)).toBe(false);
    const { result } = await callTool(toolsContext(pool), 'mcp_everything_echo', { message: 'anyone?' });
    expect(result).toMatchObject({ isError: true, content: expect.stringMatching(/The MCP server everything is not available \(the server exited/) });
    await pool.ensureAll();
    expect(connection.state.kind).toBe('connected');
    expect((await callTool(toolsContext(pool), 'mcp_everything_echo', { message: 'back' })).result.content).toBe('Echo: back');
  });
});
