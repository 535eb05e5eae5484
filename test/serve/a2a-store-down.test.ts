import { expect, it } from 'vitest';
import { a2aClient, demoCopy, sendTask, stateOf, userMessage } from '../helpers/a2a-client.js';
import { describeWithPostgres, usePostgres } from '../helpers/postgres.js';
import { startServe } from '../helpers/serve-process.js';

const pg = usePostgres();
const STORE_DOWN = 'the session store cannot be reached just now, so no thread can be opened or written; try again shortly';

describeWithPostgres('A2A while the PostgreSQL store is down', () => {
  it("every method gets A2A's own error in one sentence with 503 and Retry-After, and the store's address stays in the log", async () => {
    const { url, database } = await pg.freshDatabase();
    const serve = await startServe(demoCopy(), ['--store', url]);
    try {
      const client = await a2aClient(serve.url);
      const done = await sendTask(client, userMessage('hello'));
      expect(stateOf(done)).toBe('TASK_STATE_COMPLETED');
      const port = String(pg.cluster().port);

      await pg.cluster().stop();

      const post = async (method: string, params: unknown) => {
        const response = await fetch(`${serve.url}/a2a`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
      };
      const message = (id: string) => ({ messageId: id, role: 'ROLE_USER', parts: [{ text: 'hello' }] });
      const calls: [string, unknown][] = [
        ['SendMessage', { message: message('m-1') }],
        ['SendStreamingMessage', { message: message('m-2') }],
        ['GetTask', { id: done.id }],
        ['ListTasks', {}],
        ['CancelTask', { id: done.id }],
      ];
      for (const [method, params] of calls) {
        const answer = await post(method, params);
        expect({ method, status: answer.status, retryAfter: answer.retryAfter }).toEqual({ method, status: 503, retryAfter: '5' });
        expect(JSON.parse(answer.text)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: STORE_DOWN } });
        for (const secret of [database, port, 'auggy@', '    at ']) expect(answer.text).not.toContain(secret);
      }
      // The SDK's own client reads it as the one sentence.
      await expect(client.getTask({ tenant: '', id: done.id, historyLength: undefined })).rejects.toThrow(STORE_DOWN);

      expect(serve.stderr()).toContain(`${database} refused the connection`);
      // The operator's log says it in sentences, never as a stack trace.
      expect(serve.stderr()).not.toContain('    at ');
      // The card needs no store, and is still served.
      expect((await fetch(`${serve.url}/.well-known/agent-card.json`)).status).toBe(200);
    } finally {
      serve.signal('SIGTERM');
      await serve.exited;
    }
  });
});
