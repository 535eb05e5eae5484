import { afterEach, describe, expect, it } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { a2aClient, sendTask, stateOf, userMessage } from '../helpers/a2a-client.js';
import { auggyPrint } from '../helpers/auggy-cli.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { textOfLastUserMessage } from '../helpers/images.js';
import { clientRun } from '../helpers/interrupt-agent.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

// Registered before the serve's afterEach, so it runs after it: the serve is gone before its model server closes.
const startServer = chatServersPerTest();
let serve: ServeProcess | undefined;
afterEach(async () => {
  serve?.signal('SIGKILL');
  await serve?.exited;
  serve = undefined;
});

describe('// sends a message that starts with a slash, in every host alike', () => {
  it('--print, AG-UI and A2A send "//etc/hosts is odd" to the model as "/etc/hosts is odd"', async () => {
    const server = await startServer([{ text: 'Printed.' }, { text: 'Served.' }, { text: 'Tasked.' }]);
    const dir = makeAgentFolder({});
    const printed = await auggyPrint(dir, server.url, '//etc/hosts is odd');
    expect(printed.stdout).toContain('Printed.');
    expect(textOfLastUserMessage(server.requests[0])).toBe('/etc/hosts is odd');

    serve = await startServe(dir, ['--model', 'openai-compatible:test', '--base-url', server.url]);
    const run = await clientRun(new HttpAgent({ url: `${serve.url}/agent/run` }), { text: '//etc/hosts is odd' });
    expect(run.failure).toBeUndefined();
    expect(textOfLastUserMessage(server.requests[1])).toBe('/etc/hosts is odd');

    const task = await sendTask(await a2aClient(serve.url), userMessage('//etc/hosts is odd'));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(textOfLastUserMessage(server.requests[2])).toBe('/etc/hosts is odd');
  });
});
